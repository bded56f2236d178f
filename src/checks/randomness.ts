import { englishWordsText, isEnglishWord } from './englishWords.js';

/**
 * Whether a string of letters reads as random rather than as a word or a
 * name. Three general marks:
 * - a long run of consonants (no language writes six in a row; `xkqzvb`);
 * - for strings long enough to judge, almost no vowels;
 * - letter pairs that English spelling almost never puts together
 *   (`fdpbnzx`, `jbsze`): a letter-pair model of the English word list
 *   (the word-list package, MIT), the standard test of machine-made
 *   (DGA) domain names. The bar is set by the words themselves, never by
 *   the subjects: a string is random when it reads less like English than
 *   all but one in ten thousand English words of its length or more.
 *   Names are often an acronym beside a word (`xrpgift`, `jdsports`), so
 *   the longest English word of four letters or more in the string is set
 *   aside and only what is left is judged.
 * Short strings (acronyms: `ibm`, `bbc`, `kpmg`) are never called random.
 */
const MIN_LENGTH = 5;
const MIN_LENGTH_FOR_RUNS = 6;
const LONG_CONSONANT_RUN = /[bcdfghjklmnpqrstvwxz]{6,}/;
// Words keep at least one vowel in ten letters even in consonant-heavy languages (`strength`, `schwarz`).
const MAX_VOWEL_SHARE = 0.1;
const MIN_LENGTH_FOR_SHARE = 8;
// One English word in this many reads less like English than the bar: rare enough that
// ordinary names almost never fall below it (checked on the well-known brand names in tests).
const WORDS_BELOW_BAR = 1e-4;

// Symbol 0 is the edge of the word, 1..26 the letters a..z.
const SYMBOLS = 27;
const symbolOf = (code: number) => code - 96;

/** log P(next | previous) for every pair, from the word list's letter pairs with add-one smoothing. */
function trainLetterPairs(text: string): Float64Array {
  const counts = new Float64Array(SYMBOLS * SYMBOLS);
  let previous = 0;
  let clean = true;
  let start = 0;
  for (let i = 0; i <= text.length; i += 1) {
    const code = i < text.length ? text.charCodeAt(i) : 10;
    if (code === 10) {
      // Only words written in plain a-z teach the model; the pair into the end of the word counts too.
      if (clean && i - start >= 2) counts[previous * SYMBOLS]! += 1;
      previous = 0;
      clean = true;
      start = i + 1;
      continue;
    }
    const symbol = symbolOf(code);
    if (symbol < 1 || symbol > 26) clean = false;
    if (clean) counts[previous * SYMBOLS + symbol]! += 1;
    previous = symbol;
  }
  const logP = new Float64Array(SYMBOLS * SYMBOLS);
  for (let from = 0; from < SYMBOLS; from += 1) {
    let row = 0;
    for (let to = 0; to < SYMBOLS; to += 1) row += counts[from * SYMBOLS + to]!;
    for (let to = 0; to < SYMBOLS; to += 1) logP[from * SYMBOLS + to] = Math.log((counts[from * SYMBOLS + to]! + 1) / (row + SYMBOLS));
  }
  return logP;
}

const LOG_P = trainLetterPairs(englishWordsText());

/** Mean log-probability per letter pair (edges included) of `text[start, end)`, or NaN when it holds anything but a-z. */
function likenessOfRange(text: string, start: number, end: number): number {
  let previous = 0;
  let total = 0;
  for (let i = start; i < end; i += 1) {
    const symbol = symbolOf(text.charCodeAt(i));
    if (symbol < 1 || symbol > 26) return NaN;
    total += LOG_P[previous * SYMBOLS + symbol]!;
    previous = symbol;
  }
  total += LOG_P[previous * SYMBOLS]!;
  return total / (end - start + 1);
}

/** Mean log-probability per letter pair (edges included) of lower-case a-z letters: higher reads more like English. */
export const englishLikeness = (letters: string): number => likenessOfRange(letters, 0, letters.length);

/** The likeness below which only WORDS_BELOW_BAR of the list's words (of MIN_LENGTH letters or more) fall. */
export const RANDOM_BAR: number = (() => {
  // Scored in place over the list's one string, with no word cut out of it: this runs at start-up.
  const text = englishWordsText();
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines += 1;
  const scores = new Float64Array(lines);
  let count = 0;
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const likeness = end - start >= MIN_LENGTH ? likenessOfRange(text, start, end) : NaN;
    if (!Number.isNaN(likeness)) scores[count++] = likeness;
    start = end + 1;
  }
  const sorted = scores.subarray(0, count).sort();
  return sorted[Math.floor(WORDS_BELOW_BAR * count)]!;
})();

const MIN_WORD = 4;
const MAX_WORD = 16;

/** The letters left on either side of the longest English word inside `letters` (all of them when there is none). */
function outsideLongestWord(letters: string): string[] {
  for (let length = Math.min(MAX_WORD, letters.length); length >= MIN_WORD; length -= 1) {
    for (let start = 0; start + length <= letters.length; start += 1) {
      if (isEnglishWord(letters.slice(start, start + length))) return [letters.slice(0, start), letters.slice(start + length)];
    }
  }
  return [letters];
}

const readsUnlikeEnglish = (letters: string) =>
  englishLikeness(letters) < RANDOM_BAR &&
  outsideLongestWord(letters).some((part) => part.length >= MIN_LENGTH && englishLikeness(part) < RANDOM_BAR);

export function looksRandom(text: string): boolean {
  const letters = text.toLowerCase().replace(/[^a-z]/g, '');
  if (letters.length < MIN_LENGTH) return false;
  if (readsUnlikeEnglish(letters)) return true;
  if (letters.length < MIN_LENGTH_FOR_RUNS) return false;
  if (LONG_CONSONANT_RUN.test(letters)) return true;
  if (letters.length < MIN_LENGTH_FOR_SHARE) return false;
  const vowels = (letters.match(/[aeiouy]/g) ?? []).length;
  return vowels / letters.length < MAX_VOWEL_SHARE;
}
