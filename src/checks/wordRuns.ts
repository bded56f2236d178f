import { isEnglishWord } from './englishWords.js';
import { isPlaceName } from './placeNames.js';

/** An English word or a country's name: what a domain may spell without naming anyone's brand. */
export const isOrdinaryWord = (text: string): boolean => isEnglishWord(text) || isPlaceName(text);

/**
 * Whether a run of letters is ordinary words written together
 * (`alumnidirector` is `alumni` + `director`, `saudiarabia` a country). Parts have three letters or
 * more: the word list holds many one- and two-letter entries (`a`, `ix`)
 * that would make almost any string a "run of words". A part is at most
 * MAX_PART letters, which bounds the work to a few hundred look-ups even for
 * a 63-letter label.
 */
const MIN_PART = 3;
const MAX_PART = 20;

/**
 * For a token, which of its prefixes and which of its suffixes split into
 * words: `fromStart[i]` for `token[0, i)`, `toEnd[i]` for `token[i, end)`
 * (the empty ones count). Two passes of the same dynamic programme, so every
 * question about the token afterwards is a look-up.
 */
interface WordRunTables {
  fromStart: Uint8Array;
  toEnd: Uint8Array;
}

function tablesFor(token: string): WordRunTables {
  const n = token.length;
  const fromStart = new Uint8Array(n + 1);
  const toEnd = new Uint8Array(n + 1);
  fromStart[0] = 1;
  toEnd[n] = 1;
  for (let end = MIN_PART; end <= n; end += 1) {
    for (let start = Math.max(0, end - MAX_PART); start <= end - MIN_PART && fromStart[end] === 0; start += 1) {
      if (fromStart[start] === 1 && isOrdinaryWord(token.slice(start, end))) fromStart[end] = 1;
    }
  }
  for (let start = n - MIN_PART; start >= 0; start -= 1) {
    for (let end = Math.min(n, start + MAX_PART); end >= start + MIN_PART && toEnd[start] === 0; end -= 1) {
      if (toEnd[end] === 1 && isOrdinaryWord(token.slice(start, end))) toEnd[start] = 1;
    }
  }
  return { fromStart, toEnd };
}

// A look-alike search asks about many windows of the same label in a row: the last token's tables are kept.
let lastToken = '';
let lastTables: WordRunTables = tablesFor('');

function tables(token: string): WordRunTables {
  if (token !== lastToken) {
    lastTables = tablesFor(token);
    lastToken = token;
  }
  return lastTables;
}

export function isWordRun(text: string): boolean {
  return text.length >= MIN_PART && tables(text).fromStart[text.length] === 1;
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
  const token = label.slice(tokenStart, tokenEnd);
  if (!isWordRun(token)) return false;
  const { fromStart, toEnd } = tables(token);
  const from = start - tokenStart;
  const to = end - tokenStart;
  // A name followed by a plural s (`localbitcoins`) still stands as a word of its own.
  const standsApart = fromStart[from] === 1 && (toEnd[to] === 1 || (to + 1 === token.length && token[to] === 's'));
  // A token that reads wholly as ordinary words holds a name only when the name is such words too
  // (`coin|base` in `coinbasewallet`); `lytics` in `heapanalytics` or `emetrics` in `coremetrics`
  // only lines up with the words through a short, rare one (`heap|ana|lytics`).
  return !standsApart || !isWordRun(token.slice(from, to));
}
