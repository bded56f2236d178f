/**
 * Whether a string of letters reads as random rather than as a word or a
 * name, by two general marks: a long run of consonants (no language writes
 * seven in a row; `xkqzvbt`), or, for strings long enough to judge, almost no
 * vowels. Short strings (acronyms: `ibm`, `bbc`) are never called random.
 */
const MIN_LENGTH = 6;
const LONG_CONSONANT_RUN = /[bcdfghjklmnpqrstvwxz]{6,}/;
// Words keep at least one vowel in ten letters even in consonant-heavy languages (`strength`, `schwarz`).
const MAX_VOWEL_SHARE = 0.1;
const MIN_LENGTH_FOR_SHARE = 8;

export function looksRandom(text: string): boolean {
  const letters = text.toLowerCase().replace(/[^a-z]/g, '');
  if (letters.length < MIN_LENGTH) return false;
  if (LONG_CONSONANT_RUN.test(letters)) return true;
  if (letters.length < MIN_LENGTH_FOR_SHARE) return false;
  const vowels = (letters.match(/[aeiouy]/g) ?? []).length;
  return vowels / letters.length < MAX_VOWEL_SHARE;
}
