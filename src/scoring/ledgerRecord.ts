import type { Signal } from '../../machines/types.js';
import { sha256 } from '../platform/digest.js';

/**
 * The stored form of a ledger entry's record: its scoring inputs and its
 * findings, each kept ONCE, compactly (issue 37: "each thing is encoded
 * once"). The published shapes repeat what one entry already says: every
 * finding names its value and that value's type again, carries the same
 * observed_at as most of the others and an id worked out from its own fields;
 * the findings name the inquiry and assessment the row's columns already
 * name; every scoring input spells out its five field names. An email's
 * entry was 17 KB of JSON sent, parsed, compressed and logged on the hot path,
 * most of it names.
 *
 * The compact form is a lossless re-encoding, not a summary: `unpack*` gives
 * back, key for key and in the same order, what `pack*` was given, so a
 * published assessment reads exactly as it was issued (tested as a pure
 * function: test/scoring/ledgerRecord.test.ts). What does not have the
 * current shape exactly (a record written before, or any field this form
 * does not know) is stored as it is, and `unpack*` passes such a record
 * through: both forms stay readable for ever. Wording is stored, never
 * re-derived: a finding's statement is the check's sentence as it was written.
 */

/** Marks a record in the compact form; a published record never has this key. */
const FORM = 'compact/1';

type Json = Record<string, unknown>;

// ---------------------------------------------------------------- findings

/**
 * A finding's id: stable for the same inquiry and finding, so a revision
 * refers to the same finding by the same id. It is part of the compact form
 * (the form stores no id and works it out again on read), so changing it
 * needs a new FORM.
 */
export function findingId(inquiryId: string, f: FindingName): string {
  const digest = sha256([inquiryId, f.kind, f.about_type, f.about, f.statement].join('\u0000'));
  return `fnd_${digest.slice(0, 24)}`;
}

/** The fields a finding's id is worked out from. */
export interface FindingName {
  kind: string;
  about_type: string;
  about: string;
  statement: string;
}

// Findings made by mintFinding, with the inquiry their id was worked out for. They are frozen, so the
// fields the id came from cannot have changed since, and packFinding need not hash them again.
const MINTED = new WeakMap<object, string>();

/**
 * A finding as published, from the signal it states, with its id worked out
 * by findingId and the object frozen: the one way the service makes a
 * finding. Its keys come in the published order (FINDING_KEYS, then the
 * strength a scored signal has).
 */
export function mintFinding(inquiryId: string, s: Signal) {
  const finding = {
    finding_id: findingId(inquiryId, s),
    about: s.about,
    about_type: s.about_type,
    kind: s.kind,
    statement: s.statement,
    provenance_class: s.provenance_class,
    trust_band: s.trust_band,
    observed_at: s.observed_at,
    data_class: s.data_class,
    disposition: s.disposition,
    ...(s.strength === undefined ? {} : { strength: s.strength }),
  };
  MINTED.set(Object.freeze(finding), inquiryId);
  return finding as Readonly<typeof finding>;
}

const FINDING_KEYS = [
  'finding_id',
  'about',
  'about_type',
  'kind',
  'statement',
  'provenance_class',
  'trust_band',
  'observed_at',
  'data_class',
  'disposition',
] as const;
const ABSENCE_KEYS = ['about', 'about_type', 'kind', 'reason'] as const;
const ENVELOPE_KEYS = ['inquiry_id', 'assessment_id', 'subject', 'findings', 'absences', 'connections', 'coverage', 'generated_at'];

/** One finding: [value, kind, statement, provenance_class, trust_band, data_class, disposition, strength | null, observed_at?]. */
type PackedFinding = [number, string, string, string, string, string, string, string | null, string?];
/** One absence: [value, kind, reason]. */
type PackedAbsence = [number, string, string];

interface PackedFindings {
  form: typeof FORM;
  /** Every (type, value) the findings speak of, once, in the order first met (the subject first). */
  values: [string, string][];
  subject: number[];
  findings: PackedFinding[];
  absences: PackedAbsence[];
  connections: unknown;
  coverage: unknown;
  generated_at: string;
}

const isString = (v: unknown): v is string => typeof v === 'string';

function hasExactly(o: Json, keys: readonly string[]): boolean {
  const own = Object.keys(o);
  return own.length === keys.length && own.every((k, i) => k === keys[i]);
}

function isJsonObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Numbers each distinct (type, value) pair in the order met. */
function valueTable() {
  const index = new Map<string, number>();
  const values: [string, string][] = [];
  const of = (type: string, value: string): number => {
    const key = `${type}\u0000${value}`;
    let i = index.get(key);
    if (i === undefined) {
      i = values.length;
      values.push([type, value]);
      index.set(key, i);
    }
    return i;
  };
  return { values, of };
}

function packFinding(f: unknown, inquiryId: string, generatedAt: string, of: (t: string, v: string) => number): PackedFinding | null {
  if (!isJsonObject(f)) return null;
  const strength = f.strength;
  const keys = strength === undefined ? FINDING_KEYS : [...FINDING_KEYS, 'strength'];
  if (!hasExactly(f, keys) || !FINDING_KEYS.every((k) => isString(f[k])) || (strength !== undefined && !isString(strength))) return null;
  const s = f as Record<(typeof FINDING_KEYS)[number], string>;
  // The id is worked out again on read: keep the compact form only when that gives this very id
  // (known without hashing again for a finding mintFinding made for this inquiry).
  if (MINTED.get(f) !== inquiryId && s.finding_id !== findingId(inquiryId, s)) return null;
  const packed: PackedFinding = [
    of(s.about_type, s.about),
    s.kind,
    s.statement,
    s.provenance_class,
    s.trust_band,
    s.data_class,
    s.disposition,
    strength ?? null,
  ];
  if (s.observed_at !== generatedAt) packed.push(s.observed_at);
  return packed;
}

function packAbsence(a: unknown, of: (t: string, v: string) => number): PackedAbsence | null {
  if (!isJsonObject(a) || !hasExactly(a, ABSENCE_KEYS) || !ABSENCE_KEYS.every((k) => isString(a[k]))) return null;
  return [of(a.about_type as string, a.about as string), a.kind as string, a.reason as string];
}

function packSubject(subject: unknown, of: (t: string, v: string) => number): number[] | null {
  if (!Array.isArray(subject)) return null;
  const out: number[] = [];
  for (const p of subject) {
    if (!isJsonObject(p) || !hasExactly(p, ['type', 'value']) || !isString(p.type) || !isString(p.value)) return null;
    out.push(of(p.type, p.value));
  }
  return out;
}

/** The findings as stored: compact when they have the published shape exactly, else as they are. */
export function packFindings(findings: unknown): unknown {
  if (!isJsonObject(findings) || !hasExactly(findings, ENVELOPE_KEYS)) return findings;
  const { inquiry_id: inquiryId, generated_at: generatedAt } = findings;
  if (!isString(inquiryId) || !isString(findings.assessment_id) || !isString(generatedAt)) return findings;
  if (!Array.isArray(findings.findings) || !Array.isArray(findings.absences)) return findings;
  const table = valueTable();
  const subject = packSubject(findings.subject, table.of);
  const packed = findings.findings.map((f) => packFinding(f, inquiryId, generatedAt, table.of));
  const absences = findings.absences.map((a) => packAbsence(a, table.of));
  if (subject === null || packed.includes(null) || absences.includes(null)) return findings;
  const out: PackedFindings = {
    form: FORM,
    values: table.values,
    subject,
    findings: packed as PackedFinding[],
    absences: absences as PackedAbsence[],
    connections: findings.connections,
    coverage: findings.coverage,
    generated_at: generatedAt,
  };
  return out;
}

function valueAt(values: [string, string][], i: unknown): [string, string] {
  const v = typeof i === 'number' ? values[i] : undefined;
  if (!v) throw new Error(`a stored ledger record names value ${String(i)}, which it does not hold`);
  return v;
}

function unpackFinding(p: PackedFinding, values: [string, string][], inquiryId: string, generatedAt: string): Json {
  const [v, kind, statement, provenanceClass, trustBand, dataClass, disposition, strength, observedAt] = p;
  const [aboutType, about] = valueAt(values, v);
  return {
    finding_id: findingId(inquiryId, { kind, about_type: aboutType, about, statement }),
    about,
    about_type: aboutType,
    kind,
    statement,
    provenance_class: provenanceClass,
    trust_band: trustBand,
    observed_at: observedAt ?? generatedAt,
    data_class: dataClass,
    disposition,
    ...(strength === null ? {} : { strength }),
  };
}

/**
 * The findings as published, from what was stored. The inquiry and the
 * assessment are the row's own (its inquiry_id and id columns).
 */
export function unpackFindings(stored: unknown, row: { inquiryId: string; assessmentId: string }): unknown {
  if (!isJsonObject(stored) || stored.form !== FORM) return stored;
  const p = stored as unknown as PackedFindings;
  return {
    inquiry_id: row.inquiryId,
    assessment_id: row.assessmentId,
    subject: p.subject.map((i) => {
      const [type, value] = valueAt(p.values, i);
      return { type, value };
    }),
    findings: p.findings.map((f) => unpackFinding(f, p.values, row.inquiryId, p.generated_at)),
    absences: p.absences.map(([v, kind, reason]) => {
      const [aboutType, about] = valueAt(p.values, v);
      return { about, about_type: aboutType, kind, reason };
    }),
    connections: p.connections,
    coverage: p.coverage,
    generated_at: p.generated_at,
  };
}

// ---------------------------------------------------------------- inputs

const INPUT_KEYS = ['methodology_version', 'as_of', 'evidence', 'absences'];
const ITEM_KEYS = ['provenance_class', 'trust_band', 'observed_at', 'disposition'] as const;

/** One scoring input: [provenance_class, trust_band, disposition, strength | null, observed_at?]. */
type PackedItem = [string, string, string, string | null, string?];

interface PackedInputs {
  form: typeof FORM;
  methodology_version: string;
  as_of: string;
  evidence: PackedItem[];
  absences: number;
  /** The reference data snapshots the evidence was read from, as recorded (absent when none). */
  data_snapshots?: string[];
}

const isSnapshotList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

function packItem(item: unknown, asOf: string): PackedItem | null {
  if (!isJsonObject(item)) return null;
  const strength = item.strength;
  const keys = strength === undefined ? ITEM_KEYS : [...ITEM_KEYS, 'strength'];
  if (!hasExactly(item, keys) || !ITEM_KEYS.every((k) => isString(item[k])) || (strength !== undefined && !isString(strength))) return null;
  const s = item as Record<(typeof ITEM_KEYS)[number], string>;
  const packed: PackedItem = [s.provenance_class, s.trust_band, s.disposition, strength ?? null];
  if (s.observed_at !== asOf) packed.push(s.observed_at);
  return packed;
}

/** The scoring inputs as stored: compact when they have the current shape exactly, else as they are. */
export function packInputs(inputs: unknown): unknown {
  if (!isJsonObject(inputs)) return inputs;
  const snapshots = inputs.data_snapshots;
  if (!hasExactly(inputs, snapshots === undefined ? INPUT_KEYS : [...INPUT_KEYS, 'data_snapshots'])) return inputs;
  const { methodology_version: version, as_of: asOf, evidence, absences } = inputs;
  if (!isString(version) || !isString(asOf) || !Array.isArray(evidence) || typeof absences !== 'number') return inputs;
  if (snapshots !== undefined && !isSnapshotList(snapshots)) return inputs;
  const items = evidence.map((e) => packItem(e, asOf));
  if (items.includes(null)) return inputs;
  const out: PackedInputs = { form: FORM, methodology_version: version, as_of: asOf, evidence: items as PackedItem[], absences };
  if (snapshots !== undefined) out.data_snapshots = snapshots;
  return out;
}

/** The scoring inputs as they were recorded, from what was stored. */
export function unpackInputs(stored: unknown): unknown {
  if (!isJsonObject(stored) || stored.form !== FORM) return stored;
  const p = stored as unknown as PackedInputs;
  return {
    methodology_version: p.methodology_version,
    as_of: p.as_of,
    evidence: p.evidence.map(([provenanceClass, trustBand, disposition, strength, observedAt]) => ({
      provenance_class: provenanceClass,
      trust_band: trustBand,
      observed_at: observedAt ?? p.as_of,
      disposition,
      ...(strength === null ? {} : { strength }),
    })),
    absences: p.absences,
    ...(p.data_snapshots === undefined ? {} : { data_snapshots: p.data_snapshots }),
  };
}
