import { describe, expect, it } from 'vitest';
import { createRecentValues } from '../../src/inquiries/recentValues.js';

const a = { tenantId: 'tenant-a', mode: 'live' };
const value = (type: string, normalised: string) => ({ type, value: normalised, normalised });

describe('the values a process saw lately (the hint that a subject is known)', () => {
  it('knows a value once presented, under the same tenant and mode only', () => {
    const recent = createRecentValues();
    const email = [value('EMAIL', 'jane@example.org')];
    expect(recent.anySeen(a, email)).toBe(false);
    recent.remember(a, email);
    expect(recent.anySeen(a, [value('PHONE', '+442079460958'), ...email])).toBe(true);
    expect(recent.anySeen({ ...a, mode: 'test' }, email)).toBe(false);
    expect(recent.anySeen({ ...a, tenantId: 'tenant-b' }, email)).toBe(false);
  });

  it('never counts a name: a shared name makes no subject known', () => {
    const recent = createRecentValues();
    recent.remember(a, [value('NAME', 'jane doe')]);
    expect(recent.anySeen(a, [value('NAME', 'jane doe')])).toBe(false);
  });

  it('holds at most its limit, forgetting the value least recently presented', () => {
    const recent = createRecentValues(2);
    recent.remember(a, [value('EMAIL', 'one@example.org')]);
    recent.remember(a, [value('EMAIL', 'two@example.org')]);
    recent.remember(a, [value('EMAIL', 'one@example.org')]);
    recent.remember(a, [value('EMAIL', 'three@example.org')]);
    expect(recent.anySeen(a, [value('EMAIL', 'two@example.org')])).toBe(false);
    expect(recent.anySeen(a, [value('EMAIL', 'one@example.org')])).toBe(true);
    expect(recent.anySeen(a, [value('EMAIL', 'three@example.org')])).toBe(true);
  });
});
