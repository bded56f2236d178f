import { createRequire } from 'node:module';
import { remove as removeConfusables } from 'confusables';
import type { DataSource } from './types.js';

export const CONFUSABLES_SOURCE: DataSource = {
  name: 'confusables',
  version: (createRequire(import.meta.url)('confusables/package.json') as { version: string }).version,
  licence: 'MIT',
};
/**
 * Edit distances for the look-alike check.
 *
 * `damerauLevenshtein` is the optimal-string-alignment variant: insertions,
 * deletions, substitutions and swaps of two adjacent characters each cost one,
 * and no substring is edited twice. That is exactly the family of typing and
 * typo-squatting edits (`paypla`, `gooogle`, `amazom`), and it stays a simple
 * O(n·m) table. Code points, not UTF-16 units, are compared.
 */
export function damerauLevenshtein(left: string, right: string): number {
  const a = Array.from(left);
  const b = Array.from(right);
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  // Three rolling rows: the swap rule looks two rows back.
  let beforePrevious: number[] = new Array<number>(b.length + 1).fill(0);
  let previous: number[] = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current: number[] = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, beforePrevious[j - 2]! + 1);
      }
      current.push(best);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * Characters and sequences that render alike in common fonts. Folding both
 * sides to this skeleton makes `paypa1`, `rnicrosoft` and `g00gle` equal to the
 * names they imitate even when their edit distance is more than one. The
 * sequences are read first, left to right (`rnn` is `mn`), then the single
 * characters, and hyphens are dropped last, so a hyphen never joins a
 * sequence (`r-n` is `rn`) and a character folded to `l` never makes one
 * (`c1` is `cl`, not `d`). No two sequences share a character, and they
 * are matched on the characters before any fold, so one pass left to right
 * reads a label as those steps in turn would.
 */
const CONFUSABLE_SEQUENCES: ReadonlyMap<string, string> = new Map([
  ['rn', 'm'],
  ['vv', 'w'],
  ['cl', 'd'],
]);
const SEQUENCE_STARTS: ReadonlySet<string> = new Set([...CONFUSABLE_SEQUENCES.keys()].map((sequence) => sequence[0]!));
const CONFUSABLE_CHARACTERS: ReadonlyMap<string, string> = new Map([
  ['0', 'o'],
  ['1', 'l'],
  ['i', 'l'],
  ['|', 'l'],
  ['!', 'l'],
  ['5', 's'],
  ['3', 'e'],
  ['4', 'a'],
  ['8', 'b'],
  ['-', ''],
]);

/**
 * Cyrillic and Greek letters drawn like Latin ones. A label written only in
 * these is a whole-script homograph (`аррӏе` in Cyrillic reads as `apple`).
 */
export const LATIN_LOOKALIKES: ReadonlyMap<string, string> = new Map([
  ['а', 'a'],
  ['с', 'c'],
  ['ԁ', 'd'],
  ['е', 'e'],
  ['һ', 'h'],
  ['і', 'i'],
  ['ј', 'j'],
  ['ӏ', 'l'],
  ['о', 'o'],
  ['р', 'p'],
  ['ԛ', 'q'],
  ['ѕ', 's'],
  ['ԝ', 'w'],
  ['х', 'x'],
  ['у', 'y'],
  ['α', 'a'],
  ['ι', 'i'],
  ['κ', 'k'],
  ['ν', 'v'],
  ['ο', 'o'],
  ['ρ', 'p'],
  ['υ', 'u'],
  ['χ', 'x'],
]);

/**
 * The label folded to what it looks like: every letter drawn like a Latin
 * one becomes that letter (the confusables package, MIT: Cyrillic, Greek,
 * full-width, accented and decorated forms), then the sequences and digits
 * above. Two labels with the same skeleton read the same at a glance.
 */
export function confusableSkeleton(label: string): string {
  const folded = removeConfusables(label.toLowerCase()).toLowerCase();
  // The look-alike letters are none of them ASCII: most labels skip the split into code points.
  const latin = BEYOND_PRINTABLE_ASCII.test(folded) ? Array.from(folded, (char) => LATIN_LOOKALIKES.get(char) ?? char).join('') : folded;
  return foldConfusables(latin);
}

const BEYOND_PRINTABLE_ASCII = /[^ -~]/;

/** The text with CONFUSABLE_SEQUENCES and CONFUSABLE_CHARACTERS folded in one pass. */
function foldConfusables(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const sequence = SEQUENCE_STARTS.has(text[i]!) ? CONFUSABLE_SEQUENCES.get(text.slice(i, i + 2)) : undefined;
    if (sequence !== undefined) {
      out += sequence;
      i += 1;
    } else {
      out += CONFUSABLE_CHARACTERS.get(text[i]!) ?? text[i];
    }
  }
  return out;
}
