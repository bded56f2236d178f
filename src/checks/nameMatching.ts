/**
 * Comparing a presented name with a listed one, as pure functions
 * (test/checks/nameMatching.test.ts). Glossary:
 *
 * - token: one word of a name after normalisation: lower-case ASCII letters
 *   and digits, diacritics stripped (NFKD), punctuation dropped.
 * - particle: a word that joins or qualifies a name rather than naming
 *   (Arabic `al`, `bin`; European `de`, `van`; titles; an organisation's
 *   legal form): people write them or leave them out, so they never count.
 * - key: a token's sound, spelled so that the common romanisations of one
 *   name meet (`Mohammed` and `Muhammad`, `Khalid` and `Halid`, `Sergeyev`
 *   and `Sergeev`). Two tokens with one key are a transliteration variant.
 * - initial: a one-letter token (`J.`); it matches any token of that letter.
 *
 * The rules follow what romanisation does, not any list: Arabic short vowels
 * are unwritten, so a/e/i and o/u alternate; Russian and Arabic consonants
 * have several Latin spellings (kh/h, zh/j/dj, sh/sch, ph/f); the Russian
 * soft sign and `е` after a vowel come out as y or nothing (-yev/-ev,
 * -iy/-y); endings were spelled in French or German (-off/-ov, -ow/-ov).
 */

export type Grade = 'exact' | 'strong' | 'weak';
export type PartyKind = 'individual' | 'entity';

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
const UNDECOMPOSED_LETTERS = new RegExp(`[${Object.keys(UNDECOMPOSED).join('')}]`, 'g');
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
        .replace(UNDECOMPOSED_LETTERS, (c) => UNDECOMPOSED[c]!)
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

/** How one presented token met one listed token. */
type Meeting = 'same' | 'variant' | 'initial';

export interface Comparison {
  /** Listed tokens met, and of those by a full token (same or variant) and by the same spelling. */
  listedMet: number;
  fullMet: number;
  sameMet: number;
  /** Presented tokens that met nothing. */
  extra: number;
  /** Whether every listed family-name token was met by a full token. */
  surnameMet: boolean;
  /** Listed tokens met by a full token, for the common-name rule. */
  fullTokens: string[];
}

/**
 * Pairs presented tokens with listed ones: the same spelling first, then the
 * same key, then initials, each token used once.
 */
export function compare(presented: NameTokens, listed: NameTokens): Comparison {
  const usedP = new Array<boolean>(presented.tokens.length).fill(false);
  const meetingOfL = new Array<Meeting | undefined>(listed.tokens.length).fill(undefined);
  const pass = (meets: (p: number, l: number) => boolean, meeting: Meeting) => {
    for (let l = 0; l < listed.tokens.length; l++) {
      if (meetingOfL[l] !== undefined) continue;
      for (let p = 0; p < presented.tokens.length; p++) {
        if (usedP[p] || !meets(p, l)) continue;
        usedP[p] = true;
        meetingOfL[l] = meeting;
        break;
      }
    }
  };
  const full = (t: string) => t.length > 1;
  pass((p, l) => presented.tokens[p] === listed.tokens[l], 'same');
  pass((p, l) => full(presented.tokens[p]!) && full(listed.tokens[l]!) && presented.keys[p] === listed.keys[l], 'variant');
  pass((p, l) => {
    const a = presented.tokens[p]!;
    const b = listed.tokens[l]!;
    return (a.length === 1 || b.length === 1) && a[0] === b[0];
  }, 'initial');
  let listedMet = 0;
  let fullMet = 0;
  let sameMet = 0;
  const fullTokens: string[] = [];
  let surnameMet = true;
  meetingOfL.forEach((meeting, l) => {
    const isFull = meeting === 'same' || meeting === 'variant';
    if (l < listed.surname && !isFull) surnameMet = false;
    if (meeting === undefined) return;
    listedMet++;
    if (isFull) {
      fullMet++;
      fullTokens.push(listed.keys[l]!);
    }
    if (meeting === 'same') sameMet++;
  });
  const extra = usedP.filter((u) => !u).length;
  return { listedMet, fullMet, sameMet, extra, surnameMet, fullTokens };
}

/**
 * The grade of one comparison, or null when the names do not meet closely
 * enough to say anything.
 *
 * - exact: the same tokens, spelled the same, in any order.
 * - strong: every listed token met (allowing a variant spelling or an
 *   initial), with at most one presented given name beyond them.
 * - weak: part of the name: at least two full tokens met, the family name
 *   among them when the list says which it is; or a whole listed name met
 *   but inside a longer one.
 *
 * A name resting on common tokens alone is weak at most, and a partial match
 * of common tokens alone is no match: ordinary people share such names.
 * A listed name of one token stands alone only as the whole presented name:
 * exact when it is an organisation's name spelled the same, else weak (a
 * person's one-word name is a nickname or a given name).
 */
export function gradeOf(
  c: Comparison,
  presented: NameTokens,
  listed: NameTokens,
  isCommon: (key: string) => boolean,
  kind: PartyKind = 'individual',
): Grade | null {
  if (c.fullMet === 0) return null;
  const allCommon = c.fullTokens.every(isCommon);
  const listedAll = c.listedMet === listed.tokens.length;
  if (listed.tokens.length === 1) {
    if (!listedAll || c.extra > 0 || allCommon) return null;
    // One word is an organisation's whole name, but only a nickname or a given name of a person; a respelt word is little.
    return c.sameMet === 1 && kind === 'entity' ? 'exact' : 'weak';
  }
  let grade: Grade | null = null;
  if (listedAll && c.extra === 0 && c.sameMet === listed.tokens.length && presented.tokens.length === listed.tokens.length) grade = 'exact';
  else if (listedAll && c.extra <= 1 && c.listedMet >= 2) grade = 'strong';
  else if (listedAll && c.fullMet >= 2) grade = 'weak';
  else if (!listedAll && c.fullMet >= 2 && c.surnameMet) grade = allCommon ? null : 'weak';
  if (grade !== null && allCommon) grade = 'weak';
  return grade;
}

const RANK: Record<Grade, number> = { weak: 1, strong: 2, exact: 3 };

export function isBetter(a: Grade | null, b: Grade | null): boolean {
  return a !== null && (b === null || RANK[a] > RANK[b]);
}

/** One grade down (a contradicting date of birth): exact to strong, strong to weak, weak to nothing. */
export function downgraded(grade: Grade): Grade | null {
  return grade === 'exact' ? 'strong' : grade === 'strong' ? 'weak' : null;
}

/** A span of possible birth dates a list gives (`DOB 12 Jan 1965`, `DOB 1964`, `DOB circa 1960`, `DOB 1960 to 1962`), as ISO dates. */
export interface BirthSpan {
  from: string;
  to: string;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DATE = /^(?:(\d{1,2}) )?(?:([A-Za-z]{3}) )?(\d{4})$/;

function dateSpan(text: string): BirthSpan | null {
  const m = DATE.exec(text.trim());
  if (!m) return null;
  const year = m[3]!;
  const monthIndex = m[2] ? MONTHS.indexOf(m[2].toLowerCase()) : -1;
  if (m[2] && monthIndex < 0) return null;
  const mm = monthIndex >= 0 ? String(monthIndex + 1).padStart(2, '0') : null;
  if (m[1] && mm) {
    const day = `${year}-${mm}-${m[1].padStart(2, '0')}`;
    return { from: day, to: day };
  }
  if (mm) return { from: `${year}-${mm}-01`, to: `${year}-${mm}-31` };
  return { from: `${year}-01-01`, to: `${year}-12-31` };
}

/** The birth dates a list's remarks give (`DOB ...` and `alt. DOB ...`); `circa` widens a year by one either side. */
export function birthSpansOf(remarks: string): BirthSpan[] {
  const spans: BirthSpan[] = [];
  for (const m of remarks.matchAll(/DOB ([^;]+)/g)) {
    let text = m[1]!.replace(/\.$/, '').trim();
    const circa = text.startsWith('circa ');
    if (circa) text = text.slice(6);
    const [a, b] = text.split(' to ');
    const first = dateSpan(a!);
    const last = b === undefined ? first : dateSpan(b);
    if (!first || !last) continue;
    if (circa) {
      spans.push({
        from: `${Number(first.from.slice(0, 4)) - 1}${first.from.slice(4)}`,
        to: `${Number(last.to.slice(0, 4)) + 1}${last.to.slice(4)}`,
      });
    } else spans.push({ from: first.from, to: last.to });
  }
  return spans;
}

/** Whether a claimed birth date (ISO `YYYY-MM-DD`) contradicts every date a list gives; no dates given: no contradiction. */
export function contradictsBirth(spans: readonly BirthSpan[], claimed: string): boolean {
  if (spans.length === 0) return false;
  return !spans.some((s) => claimed >= s.from && claimed <= s.to);
}
