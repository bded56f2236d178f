import { childOf, type TrieNode } from './charTrie.js';
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
const DIGIT_LETTERS: ReadonlyMap<string, string> = new Map(DIGIT_READINGS);
const ONE_READINGS = ['l', 'i'] as const;
const DISGUISING_DIGITS = '013458';

export interface NameIndex<K> {
  /** The known name whose label has this confusable skeleton. */
  bySkeleton(skeleton: string): (K & { label: string }) | undefined;
  /**
   * The known names to look for run together with other letters, by exact
   * label in a character trie (src/checks/charTrie.ts), one name per label:
   * walking it from each position of the label finds them without slicing
   * a window for every start and length.
   */
  labels: TrieNode<K & { label: string }>;
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
    const found = shortestCoveringName(label, readDigits(label, one), names.labels);
    if (found) return found;
    // Without a 1 the other reading is the same text, and finds nothing again.
    if (!label.includes('1')) return undefined;
  }
  return undefined;
}

/**
 * The shortest, then leftmost, name of MIN_RUN_TOGETHER_NAME letters or more
 * spelt in `read` (the label with its digits read as letters) over a span
 * that covers a digit of `label`.
 */
function shortestCoveringName<N>(label: string, read: string, labels: TrieNode<N>): N | undefined {
  let best: N | undefined;
  let bestLength = Infinity;
  for (let start = 0; start < read.length; start += 1) {
    let node: TrieNode<N> | undefined = labels;
    // A name as long as the best one or longer, found further right, cannot come first.
    for (let at = start; at < read.length && at - start < bestLength - 1; at += 1) {
      node = childOf(node, read.charCodeAt(at));
      if (node === undefined) break;
      const length = at - start + 1;
      if (length >= MIN_RUN_TOGETHER_NAME && node.values.length > 0 && coversDigit(label, start, length)) {
        best = node.values[0];
        bestLength = length;
        break;
      }
    }
  }
  return best;
}

function readDigits(label: string, one: string): string {
  let read = '';
  for (let i = 0; i < label.length; i += 1) {
    const c = label[i]!;
    read += c === '1' ? one : (DIGIT_LETTERS.get(c) ?? c);
  }
  return read;
}

/** Whether the span holds a disguising digit with a letter on at least one side inside the span (`amaz0n`, not `0` alone). */
function coversDigit(label: string, start: number, length: number): boolean {
  let digit = false;
  let letter = false;
  // Read in place: the check runs for every name found, and a slice and two patterns per span cost more than it.
  for (let i = start; i < start + length && i < label.length && !(digit && letter); i += 1) {
    const c = label[i]!;
    if (DISGUISING_DIGITS.includes(c)) digit = true;
    else if (c >= 'a' && c <= 'z') letter = true;
  }
  return digit && letter;
}
