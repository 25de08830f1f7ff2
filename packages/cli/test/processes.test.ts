import { describe, expect, it } from 'vitest';
import { NODE_FLAGS } from '../src/processes.js';

describe('gateway start --separate', () => {
  it("starts its children with the start command's Node flags, read from its first line", () => {
    expect(NODE_FLAGS).toEqual(['--max-semi-space-size=16', '--heap-growing-percent=50']);
  });
});
