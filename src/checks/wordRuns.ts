import { isEnglishWord } from './englishWords.js';

/**
 * Whether a run of letters is ordinary English words written together
 * (`alumnidirector` is `alumni` + `director`). Parts have three letters or
 * more: the word list holds many one- and two-letter entries (`a`, `ix`)
 * that would make almost any string a "run of words". A part is at most
 * MAX_PART letters, which bounds the work to a few hundred look-ups even for
 * a 63-letter label.
 */
const MIN_PART = 3;
const MAX_PART = 20;

export function isWordRun(text: string): boolean {
  if (text.length < MIN_PART) return false;
  // reachable[i]: text[0, i) splits into words.
  const reachable = new Uint8Array(text.length + 1);
  reachable[0] = 1;
  for (let end = MIN_PART; end <= text.length; end += 1) {
    for (let start = Math.max(0, end - MAX_PART); start <= end - MIN_PART; start += 1) {
      if (reachable[start] === 1 && isEnglishWord(text.slice(start, end))) {
        reachable[end] = 1;
        break;
      }
    }
  }
  return reachable[text.length] === 1;
}

const SEPARATOR = /[-0-9.]/;

/**
 * Whether a name found at `label[start, end)` is there only by chance: the
 * token holding it is a run of ordinary words, and the name straddles their
 * joins instead of standing beside them (`alumn|idirect|or` in
 * `alumnidirector`, but `paypal` + `secure` in `paypalsecure` is a name,
 * and so is a name with a plural s, `local` + `bitcoins`).
 */
export function isChanceMatch(label: string, start: number, end: number): boolean {
  let tokenStart = start;
  while (tokenStart > 0 && !SEPARATOR.test(label[tokenStart - 1]!)) tokenStart -= 1;
  let tokenEnd = end;
  while (tokenEnd < label.length && !SEPARATOR.test(label[tokenEnd]!)) tokenEnd += 1;
  if (!isWordRun(label.slice(tokenStart, tokenEnd))) return false;
  const before = label.slice(tokenStart, start);
  const after = label.slice(end, tokenEnd);
  // A name followed by a plural s (`localbitcoins`) still stands as a word of its own.
  const standsApart = (before === '' || isWordRun(before)) && (after === '' || after === 's' || isWordRun(after));
  return !standsApart;
}
