/**
 * Comparing a presented name with a listed one, as pure functions
 * (test/checks/nameMatching.test.ts): tokens are paired (the same spelling,
 * the same sound key, an initial: src/checks/nameKeys.ts) and the pairing is
 * graded; a list's dates of birth are read to narrow a match.
 */
import type { NameTokens } from './nameKeys.js';

export type Grade = 'exact' | 'strong' | 'weak';
export type PartyKind = 'individual' | 'entity';

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
