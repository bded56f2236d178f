import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { DataSource } from './types.js';

/**
 * English words (the word-list package, MIT, about 274,000 words), so the
 * look-alike check can tell a brand's typo from an ordinary word and a
 * distinctive brand name from a common one.
 *
 * Kept as the file's one string (2.8 MB) with the offset of each line, and
 * searched by bisection: a Set of the same words costs about 30 MB of heap,
 * which the data budget (150 MB for everything the checks load) cannot spare.
 * The file is sorted but for a few words; those few are kept in a small Set.
 */
const require = createRequire(import.meta.url);
const path = require.resolve('word-list');
const version = (JSON.parse(readFileSync(path.replace(/index\.js$/, 'package.json'), 'utf8')) as { version: string }).version;
const TEXT = readFileSync(path.replace(/index\.js$/, 'words.txt'), 'utf8');

/** `text[start, end)` compared with `word`, without cutting a substring: negative, zero or positive. */
function compareAt(start: number, end: number, word: string): number {
  const length = Math.min(end - start, word.length);
  for (let i = 0; i < length; i += 1) {
    const d = TEXT.charCodeAt(start + i) - word.charCodeAt(i);
    if (d !== 0) return d;
  }
  return end - start - word.length;
}

const { STARTS, OUT_OF_ORDER } = (() => {
  const starts: number[] = [];
  const outOfOrder = new Set<string>();
  let lineStart = 0;
  let previous = -1;
  while (lineStart < TEXT.length) {
    let lineEnd = TEXT.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = TEXT.length;
    if (lineEnd > lineStart) {
      const word = TEXT.slice(lineStart, lineEnd);
      if (
        previous === -1 ||
        compareAt(previous, TEXT.indexOf('\n', previous) === -1 ? TEXT.length : TEXT.indexOf('\n', previous), word) < 0
      ) {
        starts.push(lineStart);
        previous = lineStart;
      } else {
        outOfOrder.add(word);
      }
    }
    lineStart = lineEnd + 1;
  }
  return { STARTS: Int32Array.from(starts), OUT_OF_ORDER: outOfOrder as ReadonlySet<string> };
})();

const lineEnd = (start: number) => {
  const end = TEXT.indexOf('\n', start);
  return end === -1 ? TEXT.length : end;
};

/** The whole list, one lower-case word per line: for models trained on English spelling (src/checks/randomness.ts). */
export const englishWordsText = (): string => TEXT;

export const ENGLISH_WORDS_SOURCE: DataSource = { name: 'word-list', version, licence: 'MIT' };

export function isEnglishWord(word: string): boolean {
  const lower = word.toLowerCase();
  let low = 0;
  let high = STARTS.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const start = STARTS[middle]!;
    const d = compareAt(start, lineEnd(start), lower);
    if (d === 0) return true;
    if (d < 0) low = middle + 1;
    else high = middle - 1;
  }
  return OUT_OF_ORDER.has(lower);
}
