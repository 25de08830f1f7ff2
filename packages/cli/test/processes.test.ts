import { describe, expect, it } from 'vitest';
import { NODE_FLAGS, SERVICE_NODE_FLAGS } from '../src/processes.js';

describe('gateway start --separate', () => {
  it("starts its children with the start command's Node flags, read from its first line, with 8 MiB semi-spaces, one V8 worker thread and optimizing compiles on the main thread", () => {
    expect(NODE_FLAGS).toEqual(['--max-semi-space-size=16', '--heap-growing-percent=50']);
    expect(SERVICE_NODE_FLAGS).toEqual([
      '--max-semi-space-size=8',
      '--heap-growing-percent=50',
      '--v8-pool-size=1',
      '--no-concurrent-recompilation',
    ]);
  });
});
