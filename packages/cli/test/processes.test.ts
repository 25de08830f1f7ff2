import { describe, expect, it } from 'vitest';
import { NODE_FLAGS, SERVICE_NODE_FLAGS, serviceNodeFlags } from '../src/processes.js';

describe('gateway start --separate', () => {
  it("starts its children with the start command's Node flags, read from its first line, with 8 MiB semi-spaces and one V8 worker thread", () => {
    expect(NODE_FLAGS).toEqual(['--max-semi-space-size=16', '--heap-growing-percent=50']);
    expect(serviceNodeFlags(20)).toEqual(['--max-semi-space-size=8', '--heap-growing-percent=50', '--v8-pool-size=1']);
  });

  it('compiles optimized code on the main thread from Node 22 on (V8 with Maglev)', () => {
    for (const major of [22, 24, 26]) {
      expect(serviceNodeFlags(major)).toEqual([
        '--max-semi-space-size=8',
        '--heap-growing-percent=50',
        '--v8-pool-size=1',
        '--no-concurrent-recompilation',
      ]);
    }
  });

  it('gives its children the flags of the Node line it runs on', () => {
    expect(SERVICE_NODE_FLAGS).toEqual(serviceNodeFlags(Number(process.versions.node.split('.')[0])));
  });
});
