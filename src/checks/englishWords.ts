import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { DataSource } from './types.js';

/**
 * English words (the word-list package, MIT, about 274,000 words), so the
 * look-alike check can tell a brand's typo from an ordinary word and a
 * distinctive brand name from a common one. Loaded once, into a Set.
 */
const require = createRequire(import.meta.url);
const path = require.resolve('word-list');
const version = (JSON.parse(readFileSync(path.replace(/index\.js$/, 'package.json'), 'utf8')) as { version: string }).version;
const WORDS: ReadonlySet<string> = new Set(readFileSync(path.replace(/index\.js$/, 'words.txt'), 'utf8').split('\n'));

export const ENGLISH_WORDS_SOURCE: DataSource = { name: 'word-list', version, licence: 'MIT' };

export function isEnglishWord(word: string): boolean {
  return WORDS.has(word.toLowerCase());
}
