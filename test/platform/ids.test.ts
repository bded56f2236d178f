import { describe, expect, it, vi } from 'vitest';
import { newRowId } from '../../src/platform/ids.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newRowId', () => {
  it('gives distinct UUIDv7s across several refills of its random pool', () => {
    const ids = Array.from({ length: 2000 }, () => newRowId());
    expect(ids.every((id) => V7.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // The random part differs too, not only the timestamp: no two ids share their last 64 bits.
    expect(new Set(ids.map((id) => id.slice(19))).size).toBe(ids.length);
  });

  it('orders ids made in a later millisecond after those made earlier', () => {
    // The millisecond is the subject: a fake clock moves it on.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const earlier = Array.from({ length: 300 }, () => newRowId());
      vi.advanceTimersByTime(1);
      const later = Array.from({ length: 300 }, () => newRowId());
      expect(later.every((id) => earlier.every((e) => id > e))).toBe(true);
      expect(later[0]!.slice(0, 13)).not.toBe(earlier[0]!.slice(0, 13));
    } finally {
      vi.useRealTimers();
    }
  });
});
