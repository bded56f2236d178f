import type { DataSource } from './types.js';

/**
 * The names of the world's countries and territories, as a domain would
 * spell them (`ireland`, `saudiarabia`, `unitedkingdom`), and each word of a
 * name of several (`saudi`, `arabia`). The look-alike check treats them as
 * ordinary words: `mail2ireland` names a country, not the brand that holds
 * ireland.com. The word list it reads for English has no proper nouns.
 *
 * The names come from the Unicode CLDR data that Node.js carries in its ICU
 * (Intl.DisplayNames): maintained by Unicode, upgraded with Node.js, nothing
 * to download. Regions are every two-letter ISO 3166 code CLDR names.
 */
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

const squash = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

function regionNames(): Set<string> {
  const display = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const names = new Set<string>();
  for (const a of LETTERS) {
    for (const b of LETTERS) {
      const name = display.of(`${a}${b}`);
      if (name === undefined) continue;
      names.add(squash(name));
      // Words of a longer name; short ones (`of`, `and`) are left to the English word list.
      for (const word of name.split(/[\s&,()’'.-]+/)) if (word.length >= 4) names.add(squash(word));
    }
  }
  names.delete('');
  return names;
}

const PLACE_NAMES: ReadonlySet<string> = regionNames();

export function isPlaceName(text: string): boolean {
  return PLACE_NAMES.has(text.toLowerCase());
}

export const PLACE_NAMES_SOURCE: DataSource = {
  name: 'Unicode CLDR region names (Node.js Intl.DisplayNames)',
  version: process.versions.cldr ?? process.versions.icu ?? 'unknown',
  licence: 'Unicode-3.0',
};
