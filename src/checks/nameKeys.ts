/**
 * A name made ready for comparing, as pure functions
 * (test/checks/nameMatching.test.ts). Glossary:
 *
 * - token: one word of a name after normalisation: lower-case ASCII letters
 *   and digits, diacritics stripped (NFKD), letters Unicode does not
 *   decompose (ı, ə, ł) and Cyrillic spelled in Latin letters, punctuation
 *   dropped.
 * - particle: a word that joins or qualifies a name rather than naming
 *   (Arabic `al`, `bin`; European `de`, `van`; titles; an organisation's
 *   legal form): people write them or leave them out, so they never count.
 * - key: a token's sound, spelled so that the common romanisations of one
 *   name meet (`Mohammed` and `Muhammad`, `Khalid` and `Halid`, `Sergeyev`
 *   and `Sergeev`). Two tokens with one key are a transliteration variant.
 *
 * The rules follow what romanisation does, not any list: Arabic short vowels
 * are unwritten, so a/e/i and o/u alternate; Russian and Arabic consonants
 * have several Latin spellings (kh/h, zh/j/dj, sh/sch, ph/f); the Russian
 * soft sign and `е` after a vowel come out as y or nothing (-yev/-ev,
 * -iy/-y); endings were spelled in French or German (-off/-ov, -ow/-ov).
 */

/** A name made ready for matching. `surname` counts the leading tokens that are the family name (`LAST, First`), when known. */
export interface NameTokens {
  tokens: string[];
  keys: string[];
  surname: number;
}

// Words that join, qualify or title a name: written or left out at will.
const PARTICLES = new Set(
  [
    // Arabic article and filiation, as written alone or hyphenated (al-Zawahiri, bin Laden)
    'al el ul ad ar as ash at az an bin ibn bint binti bn',
    // European particles
    'de da di del della der den van von la le du dos das do y',
    // titles and honorifics, in the languages whose names the list and its users write in Latin letters
    'mr mrs ms miss mx dr prof sir dame herr frau mme mlle sr sra srta jr phd',
    // joining words of an organisation's name: `and` in those languages, `of`, `the`
    'the and of for et und e i a ve va dan en og och',
  ]
    .join(' ')
    .split(' '),
);

// An organisation's legal form says what kind of body it is, not which one.
const LEGAL_FORMS = new Set(
  [
    'llc ltd limited co company inc incorporated corp corporation plc llp lp',
    'sa sas sarl srl spa gmbh ag bv nv kft doo pte pvt sdn bhd sl sro vos spol sp zoo ltda cv pt tbk persero sc oy ab kg ohg',
    'jsc ojsc cjsc pjsc ooo oao zao pao ao fze fzco fzc fzllc est establishment',
  ]
    .join(' ')
    .split(' '),
);

// Letters of the Latin alphabets that Unicode does not decompose into a base letter and a mark.
const UNDECOMPOSED: Record<string, string> = {
  ı: 'i',
  ə: 'e',
  ł: 'l',
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ħ: 'h',
  ŋ: 'ng',
};
// Cyrillic written in Latin letters the way the list writes Russian and Ukrainian names (BGN/PCGN, without its
// apostrophes for the soft and hard signs), so a name typed in Cyrillic meets its listed spelling.
const CYRILLIC: Record<string, string> = Object.fromEntries(
  [
    'а:a б:b в:v г:g д:d е:e ё:e ж:zh з:z и:i й:y к:k л:l м:m н:n о:o п:p р:r с:s т:t у:u ф:f х:kh ц:ts ч:ch',
    'ш:sh щ:shch ъ: ы:y ь: э:e ю:yu я:ya і:i ї:yi є:ye ґ:g ў:u',
  ]
    .join(' ')
    .split(' ')
    .map((pair): [string, string] => [pair.slice(0, pair.indexOf(':')), pair.slice(pair.indexOf(':') + 1)]),
);
const LETTER_SPELLINGS: Record<string, string> = { ...UNDECOMPOSED, ...CYRILLIC };
const UNDECOMPOSED_LETTERS = new RegExp(`[${Object.keys(LETTER_SPELLINGS).join('')}]`, 'g');
// Legal forms written out in words (English, and the romanised Russian the list writes them in).
const LEGAL_PHRASES =
  /\b(?:(?:limited )?liability (?:company|partnership)|(?:(?:public|closed|open) )?joint[ -]stock company|obshchestvo s ogranichenno[iy] otvetstvennostyu|(?:(?:zakrytoe|otkrytoe|publichnoe|nepublichnoe) )?aktsionernoe obshchestvo)\b/g;
// `S.A.`, `S.R.L.`: a legal form written with dots is one word, not initials.
const DOTTED = /\b(?:[a-z]\.){2,}/g;

// `Abdul`, `Abdel`... is `Abd` (servant) fused with the article: one element, `Abd`, however it is joined.
const ABD_FUSED = /^abd(?:ul|el|al|ol|oul|u)$/;

/** Case, diacritics and punctuation away: the words of a name, particles included. */
export function words(raw: string): string[] {
  const lower = raw.toLowerCase();
  // Plain ASCII (every listed name) needs no decomposition.
  const plain = !/[^ -~]/.test(lower)
    ? lower
    : lower
        .replace(UNDECOMPOSED_LETTERS, (c) => LETTER_SPELLINGS[c]!)
        .normalize('NFKD')
        .replace(/\p{M}/gu, '');
  const joined = plain.replace(LEGAL_PHRASES, ' ').replace(DOTTED, (dotted) => {
    const word = dotted.replace(/\./g, '');
    return LEGAL_FORMS.has(word) ? ` ${word} ` : dotted;
  });
  const out: string[] = [];
  for (const w of joined.replace(/['’‘`ʿʾ]/g, '').split(/[^a-z0-9]+/)) {
    if (w.length > 0) out.push(ABD_FUSED.test(w) ? 'abd' : w);
  }
  return out;
}

const isParticle = (w: string) => PARTICLES.has(w) || LEGAL_FORMS.has(w);

/**
 * A name's tokens and keys. `LAST, First Middle` (a list's form for a person)
 * puts the family name first and records how many tokens it has; any other
 * form is taken in the order written. Particles are dropped unless nothing
 * else is left.
 */
export function tokenise(raw: string): NameTokens {
  const comma = raw.indexOf(',');
  const family = comma > 0 ? words(raw.slice(0, comma)) : [];
  const all = comma > 0 ? [...family, ...words(raw.slice(comma + 1))] : words(raw);
  const kept = all.filter((w) => !isParticle(w));
  const tokens = kept.length > 0 ? kept : all;
  return { tokens, keys: tokens.map(keyOf), surname: family.filter((w) => !isParticle(w)).length };
}

const VOWELS = 'aeiouy';
const isVowelAt = (s: string, i: number) => i >= 0 && i < s.length && VOWELS.includes(s[i]!);

// Consonant spellings that stand for one sound, longest first at each place. Upper case marks a sound with no single Latin letter.
const SPELLINGS: readonly (readonly [string, string])[] = [
  ['tsch', 'C'],
  ['sch', 'S'],
  ['tch', 'C'],
  ['dzh', 'J'],
  ['cz', 'C'],
  ['ch', 'C'],
  ['sh', 'S'],
  ['sz', 'S'],
  ['dj', 'J'],
  ['zh', 'J'],
  ['kh', 'h'],
  ['gh', 'g'],
  ['ph', 'f'],
  ['th', 't'],
  ['dh', 'd'],
  ['ck', 'k'],
  ['tz', 'ts'],
  ['q', 'k'],
  ['x', 'ks'],
  ['w', 'v'],
];
// Only spellings starting with one of these letters can apply at a place.
const SPELLING_STARTS = new Set(SPELLINGS.map(([spelling]) => spelling[0]!));

/** The consonant spellings of a token replaced by their sounds; a lone c is s before e, i or y (Cecilia) and k elsewhere (Carlos). */
function sounds(s: string): string {
  let out = '';
  let i = 0;
  outer: while (i < s.length) {
    const ch = s[i]!;
    if (SPELLING_STARTS.has(ch)) {
      for (const [spelling, sound] of SPELLINGS) {
        if (s.startsWith(spelling, i)) {
          out += sound;
          i += spelling.length;
          continue outer;
        }
      }
      if (ch === 'c') {
        out += 'eiy'.includes(s[i + 1] ?? '-') ? 's' : 'k';
        i++;
        continue;
      }
    }
    out += ch;
    i++;
  }
  return out;
}

/**
 * A token's sound key. Two spellings of one romanised name get one key;
 * digits are kept as they are (a numbered organisation).
 */
export function keyOf(token: string): string {
  let key = knownKeys.get(token);
  if (key === undefined) {
    // Bounded: a stream of made-up names must not grow it without end.
    if (knownKeys.size >= KNOWN_KEYS_MAX) knownKeys.clear();
    knownKeys.set(token, (key = spellKey(token)));
  }
  return key;
}

// Keys already spelled: a list's names and the names people type repeat their tokens.
const knownKeys = new Map<string, string>();
const KNOWN_KEYS_MAX = 100_000;

function spellKey(token: string): string {
  if (/^[0-9]+$/.test(token)) return token;
  // Russian initial `Е` is written Ye or E; French `Ou` before a vowel is the English W (Oualid, Walid).
  let s = token.replace(/^ye/, 'e').replace(/^ou(?=[aeiy])/, 'w');
  // Endings spelled in French or German.
  s = s.replace(/(?:off|ow)$/, 'ov').replace(/(?:eff|ew)$/, 'ev');
  s = semivowels(sounds(s));
  // Vowel quality is what romanisations disagree on most: a, e, i one class; o, u another. Doubled letters are one.
  let folded = '';
  for (const ch of s) {
    const sound = ch === 'e' || ch === 'i' ? 'a' : ch === 'u' ? 'o' : ch;
    if (!folded.endsWith(sound)) folded += sound;
  }
  s = folded;
  // A final h after a vowel is a spelling of the Arabic ta marbuta or a long vowel: Abdullah, Abdulla.
  if (s.length > 2) s = s.replace(/([ao])h$/, '$1');
  return s;
}

/** y and j: a consonant before a vowel (Yuri, Iakov), a vowel after one (Sergei, Sergej, Dmitriy); `ye` after a vowel is e (Sergeyev). */
function semivowels(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    const before = isVowelAt(s, i - 1);
    const after = isVowelAt(s, i + 1);
    if (ch === 'y' || ch === 'j') {
      if (before && s[i + 1] === 'e') continue;
      if (before && !after) out += 'i';
      else if (ch === 'y' && !after) out += 'i';
      else out += 'J';
    } else if (ch === 'i' && i === 0 && after) out += 'J';
    else out += ch;
  }
  return out;
}
