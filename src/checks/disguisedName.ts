import { confusableSkeleton } from './stringDistance.js';
import { isOrdinaryWord } from './wordRuns.js';

/**
 * A well-known name written with digits or look-alike letters for some of its
 * letters, beside other words: `paypa1-login`, `g00gle-verify`,
 * `amaz0nsecurity`. Alone such a label is already a confusable of the name
 * (the look-alike check compares whole labels by skeleton); with other words
 * around it the combosquat rules never see it, because they split labels at
 * digits and look for the name as it is spelt.
 *
 * A disguise is deliberate in a way that a plain combosquat is not: no one
 * writes `amaz0n` by accident or for an honest shop, so the rule applies to
 * brands named by ordinary words too (`app1e-id`), which the plain combosquat
 * rule leaves alone (`apple-farm`). What must hold:
 * - a hyphen- or dot-separated part of the label, not itself an ordinary
 *   word, reads (by confusable skeleton) as a name of MIN_TOKEN_NAME letters
 *   or more while being spelt differently; or
 * - read with its digits as the letters they stand for, the label holds a
 *   name of MIN_RUN_TOGETHER_NAME letters or more run together with other
 *   letters, and the name's span covers at least one of those digits.
 */
const MIN_TOKEN_NAME = 5;
const MIN_RUN_TOGETHER_NAME = 6;
// Digits drawn like letters; 1 stands for either l or i, so both readings are tried.
const DIGIT_READINGS: readonly (readonly [string, string])[] = [
  ['0', 'o'],
  ['3', 'e'],
  ['4', 'a'],
  ['5', 's'],
  ['8', 'b'],
];
const ONE_READINGS = ['l', 'i'] as const;

export interface NameIndex<K> {
  /** The known name whose label has this confusable skeleton. */
  bySkeleton(skeleton: string): (K & { label: string }) | undefined;
  /** The known name with exactly this label (letters only). */
  byLabel(label: string): (K & { label: string }) | undefined;
  /** The lengths of known labels, ascending. */
  lengths: readonly number[];
}

/** The known name a part of the label imitates in disguise, or undefined. */
export function disguisedName<K>(label: string, names: NameIndex<K>): (K & { label: string }) | undefined {
  const parts = label.split(/[-.]+/).filter((part) => part.length > 0);
  if (parts.length >= 2) {
    for (const part of parts) {
      const found = disguisedPart(part, names);
      if (found) return found;
    }
  }
  return /[013458]/.test(label) ? digitsReadAsLetters(label, names) : undefined;
}

function disguisedPart<K>(part: string, names: NameIndex<K>): (K & { label: string }) | undefined {
  if (isOrdinaryWord(part)) return undefined;
  const known = names.bySkeleton(confusableSkeleton(part));
  return known && known.label !== part && known.label.length >= MIN_TOKEN_NAME ? known : undefined;
}

function digitsReadAsLetters<K>(label: string, names: NameIndex<K>): (K & { label: string }) | undefined {
  for (const one of ONE_READINGS) {
    const read = readDigits(label, one);
    for (const length of names.lengths) {
      if (length < MIN_RUN_TOGETHER_NAME) continue;
      if (length > read.length) break;
      for (let start = 0; start + length <= read.length; start += 1) {
        if (!coversDigit(label, start, length)) continue;
        const known = names.byLabel(read.slice(start, start + length));
        if (known) return known;
      }
    }
  }
  return undefined;
}

function readDigits(label: string, one: string): string {
  let read = label.replaceAll('1', one);
  for (const [digit, letter] of DIGIT_READINGS) read = read.replaceAll(digit, letter);
  return read;
}

/** Whether the span holds a disguising digit with a letter on at least one side inside the span (`amaz0n`, not `0` alone). */
function coversDigit(label: string, start: number, length: number): boolean {
  const span = label.slice(start, start + length);
  return /[013458]/.test(span) && /[a-z]/.test(span);
}
