import { describe, expect, it } from 'vitest';
import { newCompletionId, timeOrderedHex } from '../src/index.js';

describe('time-ordered ids', () => {
  it('are 32 hex digits: the time in milliseconds, then random digits', () => {
    const at = Date.UTC(2026, 10, 27, 12, 0, 0, 123);
    const hex = timeOrderedHex(at);
    expect(hex).toMatch(/^[0-9a-f]{32}$/);
    expect(Number.parseInt(hex.slice(0, 12), 16)).toBe(at);
    expect(newCompletionId()).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
  });

  it('sort by the time they were made, and differ within one millisecond', () => {
    const earlier = Array.from({ length: 1000 }, () => timeOrderedHex(1_000_000));
    const later = Array.from({ length: 1000 }, () => timeOrderedHex(1_000_001));
    expect(new Set([...earlier, ...later]).size).toBe(2000);
    const newestOfEarlier = [...earlier].sort().at(-1) as string;
    const oldestOfLater = [...later].sort()[0] as string;
    expect(newestOfEarlier < oldestOfLater).toBe(true);
    // The random part holds none of the UUID's fixed digits: every hex digit occurs at each place.
    for (const place of [12, 20, 24, 31]) expect(new Set(earlier.map((hex) => hex[place])).size).toBe(16);
  });
});
