import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { damerauLevenshtein } from '../../src/checks/stringDistance.js';
import { createTypoWindowIndex } from '../../src/checks/typoWindows.js';

const letters = fc.string({ unit: fc.constantFrom(...'abcdeilmnorst'), minLength: 8, maxLength: 14 });

/** Every part of the label one edit from a name, found the slow way. */
function bruteForce(label: string, names: string[], minLength: number, maxLength: number): string[] {
  const found: string[] = [];
  for (let length = minLength; length <= maxLength; length += 1) {
    for (let start = 0; start + length <= label.length; start += 1) {
      for (const name of names)
        if (damerauLevenshtein(label.slice(start, start + length), name) === 1) found.push(`${start}:${length}:${name}`);
    }
  }
  return found;
}

describe('typo windows', () => {
  it('given any names and a label holding one of them with one edit, then every part one edit from a name is a candidate', () => {
    const edited = fc.tuple(
      fc.array(letters, { minLength: 1, maxLength: 6 }),
      fc.nat(),
      fc.nat(),
      fc.constantFrom('insert', 'drop', 'swap', 'substitute'),
      fc.string({ unit: fc.constantFrom(...'abcdeilmnorst-'), maxLength: 10 }),
      fc.string({ unit: fc.constantFrom(...'abcdeilmnorst-'), maxLength: 10 }),
    );
    fc.assert(
      fc.property(edited, ([names, which, at, edit, before, after]) => {
        const name = names[which % names.length]!;
        const i = at % (name.length - 1);
        const misspelt =
          edit === 'insert'
            ? name.slice(0, i) + 'x' + name.slice(i)
            : edit === 'drop'
              ? name.slice(0, i) + name.slice(i + 1)
              : edit === 'swap'
                ? name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2)
                : name.slice(0, i) + (name[i] === 'z' ? 'y' : 'z') + name.slice(i + 1);
        const label = before + misspelt + after;
        const index = createTypoWindowIndex(names, (n) => n);
        const candidates = new Set(index.candidates(label, 7, 16).map((w) => `${w.start}:${w.length}:${w.known}`));
        for (const expected of bruteForce(label, names, 7, 16)) expect(candidates).toContain(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('given a label with no part near any name, then there are no candidates', () => {
    const index = createTypoWindowIndex(['coinbasepro', 'myetherwallet'], (n) => n);
    expect(index.candidates('qqqqqqqqqqqqqqqqqqqq', 7, 20)).toEqual([]);
  });

  it('given a name misspelt inside a label, then its window and the name are among the candidates', () => {
    const index = createTypoWindowIndex(['myetherwallet'], (n) => n);
    const found = index.candidates('myethrwallet-login', 7, 17).map((w) => `${w.start}:${w.length}:${w.known}`);
    expect(found).toContain('0:12:myetherwallet');
  });
});
