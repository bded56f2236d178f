import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCharTrie, keysAt, reversed } from '../../src/checks/charTrie.js';

const text = fc.string({ unit: fc.constantFrom(...'abcde-1'), maxLength: 12 });

/** The keys starting at `start` (or, backwards, ending at `start + 1`), the slow way: every window against every key. */
function bruteForce(keys: string[], subject: string, start: number, direction: 1 | -1): [number, string][] {
  const found: [number, string][] = [];
  for (let length = 0; length <= subject.length; length += 1) {
    const from = direction === 1 ? start : start + 1 - length;
    if (from < 0 || from + length > subject.length) continue;
    for (const key of keys) if (key === subject.slice(from, from + length)) found.push([length, key]);
  }
  return found;
}

describe('character trie', () => {
  it('given any keys, then the keys met from a position are the windows there that equal a key, shortest first', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 8 }), text, fc.nat(), (keys, subject, at) => {
        const start = subject.length === 0 ? 0 : at % subject.length;
        const forwards = buildCharTrie(keys.map((key) => [key, key] as const));
        const backwards = buildCharTrie(keys.map((key) => [reversed(key), key] as const));
        expect(keysAt(forwards, subject, start, 1)).toEqual(bruteForce(keys, subject, start, 1).filter(([length]) => length > 0));
        expect(keysAt(backwards, subject, start, -1)).toEqual(bruteForce(keys, subject, start, -1).filter(([length]) => length > 0));
      }),
      { numRuns: 500 },
    );
  });

  it('given keys that branch widely and beyond ASCII, then each is found where it starts', () => {
    const keys = [...'abcdefghijklmnopqrstuvwxyz0123456789-', 'é', 'а', '😀'].flatMap((c) => [c + 'x', c + 'yz']);
    const trie = buildCharTrie(keys.map((key) => [key, key] as const));
    for (const key of keys) expect(keysAt(trie, `${key}!`, 0, 1)).toEqual([[key.length, key]]);
    expect(keysAt(trie, 'éz', 0, 1)).toEqual([]);
  });

  it('given a key added twice, then both its values are kept in order', () => {
    const trie = buildCharTrie([
      ['pay', 1],
      ['paypal', 2],
      ['pay', 3],
    ]);
    expect(keysAt(trie, 'paypal-login', 0, 1)).toEqual([
      [3, 1],
      [3, 3],
      [6, 2],
    ]);
  });

  it('given a text no key starts in, then nothing is found', () => {
    expect(keysAt(buildCharTrie([['wallet', 'w']]), 'login', 0, 1)).toEqual([]);
  });

  it('reverses a key', () => {
    expect(reversed('coinbase')).toBe('esabnioc');
    expect(reversed('')).toBe('');
  });
});
