import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { keyOf, tokenise, type NameTokens } from './nameKeys.js';
import {
  birthSpansOf,
  compare,
  contradictsBirth,
  downgraded,
  gradeOf,
  isBetter,
  type BirthSpan,
  type Grade,
  type PartyKind,
} from './nameMatching.js';

/**
 * A sanctions list in the US Treasury OFAC's `sdn.csv` layout, read once at
 * start-up into an index by token key, so that screening one name looks up a
 * handful of keys instead of comparing it with every listed name.
 *
 * The layout (no header row): ent_num, SDN_Name, SDN_Type (`individual`,
 * `vessel`, `aircraft`, or `-0-` for an entity), Program, Title, Call_Sign,
 * Vess_type, Tonnage, GRT, Vess_flag, Vess_owner, Remarks; `-0-` is an empty
 * field. A person's name is `LAST, First`; aliases are in the remarks
 * (`a.k.a. '...'`, also `f.k.a.` and `n.k.a.`), and so are dates of birth
 * (`DOB 12 Jan 1965`). Vessels and aircraft are neither persons nor
 * organisations and are left out. Nationality, citizenship and place of
 * birth in the remarks are never read (SPEC.md rule 8).
 */

export const DEFAULT_SANCTIONS_FILE = fileURLToPath(new URL('./data/sanctions/ofac-sdn-2024-05-03.csv', import.meta.url));
const GIVEN_NAMES_FILE = new URL('./data/sanctions/given-names-en.txt', import.meta.url);

const FIELDS = 12;

export interface SdnRow {
  id: number;
  name: string;
  kind: PartyKind;
  /** The primary name and each alias. */
  names: string[];
  births: BirthSpan[];
}

export interface ScreeningHints {
  /** What the presented name is known to be, when the claim says so. */
  kind?: PartyKind;
  /** A claimed date of birth, ISO `YYYY-MM-DD`. */
  birth?: string;
}

export interface ScreeningMatch {
  grade: Grade;
  kind: PartyKind;
  /** The listed party's row number (ent_num): for tests and the bench, never for a finding. */
  party: number;
}

export interface SanctionsList {
  /** `sanctions:<file name>@<first 12 hex of the file's sha256>`: which list an answer read. */
  snapshot: string;
  parties: number;
  names: number;
  screen(name: string, hints?: ScreeningHints): ScreeningMatch | null;
  /** Whether a token key is common, among the list's names or ordinary given names. */
  isCommon(key: string): boolean;
}

/** Why a file is not a list in this layout; never quotes an entry. */
export class SanctionsListError extends Error {}

/** Fields of a CSV text, quoted or not (`""` a quote inside quotes); CR LF or LF lines, blank lines and a trailing Ctrl-Z ignored. */
export function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  const end = text.endsWith('\x1a') ? text.length - 1 : text.length;
  let row: string[] = [];
  let i = 0;
  const endRow = () => {
    if (row.length > 1 || row[0]!.trim() !== '') rows.push(row);
    row = [];
  };
  while (i < end) {
    let field: string;
    if (text[i] === '"') {
      field = '';
      let from = i + 1;
      for (;;) {
        const quote = text.indexOf('"', from);
        if (quote < 0 || quote >= end) throw new SanctionsListError(`row ${rows.length + 1} has a quoted field that is not closed`);
        field += text.slice(from, quote);
        if (text[quote + 1] !== '"') {
          i = quote + 1;
          break;
        }
        field += '"';
        from = quote + 2;
      }
      // Anything between the closing quote and the separator (OFAC writes none) is kept.
      const stop = nextStop(text, i, end);
      field += text.slice(i, stop);
      i = stop;
    } else {
      const stop = nextStop(text, i, end);
      field = text.slice(i, stop);
      i = stop;
    }
    row.push(field);
    if (i >= end) break;
    if (text[i] === ',') {
      i++;
      if (i >= end) row.push('');
      continue;
    }
    // A line break: CR LF or LF (or a lone CR).
    i += text[i] === '\r' && text[i + 1] === '\n' ? 2 : 1;
    endRow();
  }
  if (row.length > 0) endRow();
  return rows;
}

function nextStop(text: string, from: number, end: number): number {
  for (let j = from; j < end; j++) {
    const c = text.charCodeAt(j);
    if (c === 44 || c === 10 || c === 13) return j;
  }
  return end;
}

const empty = (field: string) => field.trim() === '-0-' || field.trim() === '';

/** The aliases of a remarks field: each `a.k.a.`, `f.k.a.` or `n.k.a.` part, its quotes removed. */
export function aliasesOf(remarks: string): string[] {
  const aliases: string[] = [];
  for (const part of remarks.split(/;\s*/)) {
    const m = /^\s*[afn]\.k\.a\.\s+(.+)$/.exec(part);
    if (!m) continue;
    const alias = m[1]!
      .trim()
      .replace(/\.$/, '')
      .replace(/^'(.*)'$/, '$1')
      .trim();
    if (alias.length > 0) aliases.push(alias);
  }
  return aliases;
}

/** The persons and organisations of an sdn.csv text. Throws SanctionsListError naming the line, never its content. */
export function parseSdn(text: string): SdnRow[] {
  const rows = csvRows(text);
  const parties: SdnRow[] = [];
  rows.forEach((fields, index) => {
    const line = index + 1;
    if (fields.length !== FIELDS) throw new SanctionsListError(`row ${line} has ${fields.length} fields, not ${FIELDS}`);
    const id = Number(fields[0]!.trim());
    if (!Number.isInteger(id)) throw new SanctionsListError(`row ${line} does not start with an entry number`);
    const type = fields[2]!.trim();
    if (!['individual', 'vessel', 'aircraft', '-0-'].includes(type)) throw new SanctionsListError(`row ${line} has an unknown entry type`);
    if (type === 'vessel' || type === 'aircraft') return;
    const name = fields[1]!.trim();
    if (empty(name)) throw new SanctionsListError(`row ${line} has no name`);
    const remarks = empty(fields[11]!) ? '' : fields[11]!;
    parties.push({
      id,
      name,
      kind: type === 'individual' ? 'individual' : 'entity',
      names: [name, ...aliasesOf(remarks)],
      births: birthSpansOf(remarks),
    });
  });
  if (parties.length === 0) throw new SanctionsListError('it holds no person or organisation');
  return parties;
}

// A token carried by at least this share of the listed parties is a common name among them (one in a thousand).
const COMMON_SHARE = 0.001;

/** Ordinary English given names (Moby Word II), a source of common names the list does not decide. */
function givenNameKeys(): Set<string> {
  const keys = new Set<string>();
  for (const line of readFileSync(GIVEN_NAMES_FILE, 'utf8').split('\n')) if (line.trim()) keys.add(keyOf(line.trim()));
  return keys;
}

interface Listed {
  name: NameTokens & { initials: number };
  party: number;
}

/** The index of a parsed list: names by token key, and how many parties carry each key. */
export function indexSdn(parties: readonly SdnRow[], snapshot: string, ordinary: ReadonlySet<string> = givenNameKeys()): SanctionsList {
  const listed: Listed[] = [];
  const postings = new Map<string, number[]>();
  const partiesWith = new Map<string, number>();
  // The last party counted for each key, so a key is counted once a party however many of its names carry it.
  const lastParty = new Map<string, number>();
  for (let p = 0; p < parties.length; p++) {
    const party = parties[p]!;
    for (const raw of party.names) {
      const { tokens, keys, surname } = tokenise(raw);
      if (tokens.length === 0) continue;
      const id = listed.length;
      let initials = 0;
      for (let i = 0; i < tokens.length; i++) {
        if (tokens[i]!.length === 1) {
          initials++;
          continue;
        }
        const key = keys[i]!;
        let posting = postings.get(key);
        if (!posting) postings.set(key, (posting = []));
        if (posting[posting.length - 1] !== id) posting.push(id);
        if (lastParty.get(key) !== p) {
          lastParty.set(key, p);
          partiesWith.set(key, (partiesWith.get(key) ?? 0) + 1);
        }
      }
      // Only a person's name has a family name; an organisation's comma is punctuation (`CECOEX, S.A.`).
      listed.push({ name: { tokens, keys, surname: party.kind === 'individual' ? surname : 0, initials }, party: p });
    }
  }
  const commonAt = Math.max(2, Math.ceil(parties.length * COMMON_SHARE));
  const isCommon = (key: string) => ordinary.has(key) || (partiesWith.get(key) ?? 0) >= commonAt;
  const counts = new Uint16Array(listed.length);
  const rareCounts = new Uint16Array(listed.length);
  const touched: number[] = [];

  function screen(raw: string, hints: ScreeningHints = {}): ScreeningMatch | null {
    const presented = tokenise(raw);
    if (presented.tokens.length === 0) return null;
    const presentedInitials = presented.tokens.filter((t) => t.length === 1).length;
    for (const key of new Set(presented.keys.filter((_, i) => presented.tokens[i]!.length > 1))) {
      const rare = isCommon(key) ? 0 : 1;
      for (const id of postings.get(key) ?? []) {
        if (counts[id] === 0) touched.push(id);
        counts[id]!++;
        rareCounts[id]! += rare;
      }
    }
    let best: ScreeningMatch | null = null;
    for (const id of touched) {
      const shared = counts[id]!;
      const rareShared = rareCounts[id]!;
      counts[id] = 0;
      rareCounts[id] = 0;
      const { name, party: p } = listed[id]!;
      // The most listed tokens that could be met: the shared keys, and initials on either side.
      const reachable = shared + presentedInitials + name.initials;
      // One shared token makes a match only for a one-token listed name, or where initials meet the rest;
      // common tokens alone only when they meet the whole listed name (gradeOf).
      if (shared < 2 && name.tokens.length > 1 && reachable < name.tokens.length) continue;
      if (rareShared === 0 && reachable < name.tokens.length) continue;
      const party = parties[p]!;
      if (hints.kind !== undefined && hints.kind !== party.kind) continue;
      let grade = gradeOf(compare(presented, name), presented, name, isCommon, party.kind);
      if (grade !== null && hints.birth !== undefined && contradictsBirth(party.births, hints.birth)) grade = downgraded(grade);
      if (grade !== null && isBetter(grade, best?.grade ?? null)) best = { grade, kind: party.kind, party: party.id };
    }
    touched.length = 0;
    return best;
  }

  return { snapshot, parties: parties.length, names: listed.length, screen, isCommon };
}

/** `sanctions:<file name>@<first 12 hex of sha256>` of a list's bytes. */
export function snapshotOf(path: string, bytes: Buffer): string {
  return `sanctions:${basename(path)}@${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}`;
}

const loaded = new Map<string, SanctionsList>();

/**
 * The list at a path (the shipped snapshot by default), read and indexed once
 * per process. A file that cannot be read or is not in the layout stops the
 * start with a message naming the file and the row, never an entry.
 */
export function loadSanctionsList(path: string = DEFAULT_SANCTIONS_FILE): SanctionsList {
  const cached = loaded.get(path);
  if (cached) return cached;
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new Error(`TAS_SANCTIONS_LIST: the sanctions list ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`, {
      cause: error,
    });
  }
  let list: SanctionsList;
  try {
    list = indexSdn(parseSdn(bytes.toString('utf8')), snapshotOf(path, bytes));
  } catch (error) {
    const why = error instanceof SanctionsListError ? error.message : 'it could not be parsed';
    throw new Error(`TAS_SANCTIONS_LIST: the sanctions list ${path} is not in OFAC's sdn.csv layout: ${why}`, { cause: error });
  }
  loaded.set(path, list);
  return list;
}
