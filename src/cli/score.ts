import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import {
  METHODOLOGY_VERSION,
  METHODOLOGY_VERSIONS,
  ScoringInputError,
  isInstant,
  score,
  summarizeEvidence,
  toScoringInputs,
  type MethodologyVersion,
} from '../scoring/index.js';
import { compareWithPublished, publishedSummarySchema, type Published } from './reproduction.js';

/**
 * `tas score [FILE | -]`: the scoring function over an evidence JSON file, so
 * anyone can reconstruct a published assessment from its stored evidence
 * (DESIGN.md 2.3). The file holds evidence as it was admitted, in stored
 * order; nothing is re-admitted or de-duplicated here, because five identical
 * stored items are five items (METHODOLOGY.md section 5 counts them so).
 *
 *   {"methodology_version": "trust-method/3", "as_of": "2025-01-01T00:00:00Z", "evidence": [...], "absences": 2}
 *
 * `methodology_version` names the version to apply (`trust-method/1`, `/2`
 * or `/3`; absent: the current one); `absences` is k, or the stored list of
 * absences (only its length counts). Neutral items are summarised, never
 * scored. A ledger entry exactly as `GET /v1/entities/{id}/ledger` served it
 * is accepted too: its `inputs` are scored with their version, and the answer
 * says whether the whole published assessment was reproduced: score,
 * interval, version and evidence summary (reproduction.ts).
 */

const INSTANT_PROBLEM = 'must be an ISO 8601 date (YYYY-MM-DD) or date-time with Z or ±HH:MM offset';
const instant = z.string().refine(isInstant, { error: INSTANT_PROBLEM });

/** A stored finding may be fed back as is: its descriptive fields are allowed and ignored. */
const evidenceItemSchema = z.strictObject({
  provenance_class: z.string().min(1),
  trust_band: z.enum(['high', 'medium', 'low']),
  observed_at: instant,
  disposition: z.enum(['supports', 'weakens', 'neutral']),
  // Required by trust-method/2 and /3, refused by trust-method/1: the scoring function says which.
  strength: z.enum(['weak', 'moderate', 'strong']).optional(),
  finding_id: z.string().optional(),
  kind: z.string().optional(),
  about: z.string().optional(),
  about_type: z.string().optional(),
  statement: z.string().optional(),
  data_class: z.string().optional(),
});

const versionSchema = z.enum(METHODOLOGY_VERSIONS as [string, ...string[]], {
  error: `must be one of ${METHODOLOGY_VERSIONS.join(', ')}`,
});

const scoreInputSchema = z.strictObject({
  methodology_version: versionSchema.optional(),
  as_of: instant,
  evidence: z.array(evidenceItemSchema),
  // Required, not defaulted: forgetting k would silently narrow the interval.
  absences: z.union([z.number().int().nonnegative(), z.array(z.record(z.string(), z.unknown()))], {
    error: (issue) => (issue.input === undefined ? 'is required' : 'must be a non-negative integer or a list of absence objects'),
  }),
  // A ledger entry's record of the data its facts were read from: accepted and never scored (the items carry the facts).
  data_snapshots: z.array(z.string()).optional(),
});

export type ScoreCommandInput = z.infer<typeof scoreInputSchema>;

/** A LedgerEntryOut as served; only `inputs` is scored, the assessment is compared with the result. */
const ledgerEntrySchema = z.looseObject({
  inputs: scoreInputSchema,
  assessment: z.looseObject({
    score: z.number(),
    low: z.number(),
    high: z.number(),
    methodology_version: versionSchema,
    evidence: publishedSummarySchema.optional(),
  }),
});

function isLedgerEntry(data: unknown): boolean {
  return typeof data === 'object' && data !== null && 'inputs' in data && 'assessment' in data;
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    out += typeof key === 'number' ? `[${key}]` : out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? 'input' : out;
}

/** One `field: problem` per issue; unknown keys are named one by one. */
function describeIssues(issues: readonly z.core.$ZodIssue[]): Array<[string, string]> {
  return issues.flatMap((issue): Array<[string, string]> => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => [formatPath([...issue.path, key]), 'unknown field']);
    }
    return [[formatPath(issue.path), issue.message]];
  });
}

interface ParsedInput {
  input: ScoreCommandInput;
  /** The published assessment when a ledger entry was given, to say whether it was reproduced. */
  published?: Published;
}

function parseInput(inputText: string): ParsedInput {
  let data: unknown;
  try {
    data = JSON.parse(inputText);
  } catch (error) {
    throw new ScoringInputError('input', `is not valid JSON (${(error as Error).message})`);
  }
  const options = { error: (issue: z.core.$ZodRawIssue) => (issue.input === undefined ? 'is required' : undefined) };
  if (isLedgerEntry(data)) {
    const entry = ledgerEntrySchema.safeParse(data, options);
    if (!entry.success) throw issuesError(entry.error.issues);
    const { inputs, assessment } = entry.data;
    // An entry's inputs name their version; an entry from before they did is its assessment's.
    const input = { ...inputs, methodology_version: inputs.methodology_version ?? assessment.methodology_version };
    return { input, published: assessment };
  }
  const parsed = scoreInputSchema.safeParse(data, options);
  if (parsed.success) return { input: parsed.data };
  throw issuesError(parsed.error.issues);
}

function issuesError(issues: readonly z.core.$ZodIssue[]): ScoringInputError {
  const described = describeIssues(issues);
  const [first, ...rest] = described as [[string, string], ...Array<[string, string]>];
  const problem = [first[1], ...rest.map(([field, msg]) => `${field}: ${msg}`)].join('; ');
  return new ScoringInputError(first[0], problem);
}

/** Parse, validate and score; returns one JSON line (no trailing newline). */
export function runScoreCommand(inputText: string): string {
  const { input, published } = parseInput(inputText);
  const k = typeof input.absences === 'number' ? input.absences : input.absences.length;
  const evidence = toScoringInputs(input.evidence);
  const version = (input.methodology_version ?? METHODOLOGY_VERSION) as MethodologyVersion;
  const result = score({ as_of: input.as_of, evidence, absences: k, methodology_version: version });
  const summary = summarizeEvidence({ as_of: input.as_of, signals: input.evidence, absences: k });
  const reproduction = published === undefined ? {} : compareWithPublished({ ...result, evidence: summary }, published);
  return JSON.stringify({
    methodology_version: result.methodology_version,
    ...reproduction,
    score: result.score,
    low: result.low,
    high: result.high,
    as_of: input.as_of,
    evidence_count: evidence.length,
    absences: k,
    R: result.R,
    S: result.S,
    n: result.n,
    n_eff: result.n_eff,
    P: result.P,
    evidence: summary,
  });
}

export interface ScoreIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => Promise<string>;
}

async function readProcessStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const processIo: ScoreIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  readStdin: readProcessStdin,
};

const USAGE = 'usage: tas score [FILE | -]   (evidence JSON; stdin when FILE is - or absent)\n';

/** Exit codes: 0 scored, 1 the file could not be read, 2 usage or bad input. */
export async function scoreMain(argv: string[], io: ScoreIo = processIo): Promise<number> {
  if (argv.includes('-h') || argv.includes('--help')) {
    io.stdout(USAGE);
    return 0;
  }
  if (argv.length > 1) {
    io.stderr(USAGE);
    return 2;
  }
  const source = argv[0];
  let text: string;
  try {
    text = source === undefined || source === '-' ? await io.readStdin() : await readFile(source, 'utf8');
  } catch (error) {
    io.stderr(`tas score: cannot read ${source ?? 'stdin'}: ${(error as Error).message}\n`);
    return 1;
  }
  try {
    io.stdout(`${runScoreCommand(text)}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof ScoringInputError)) throw error;
    io.stderr(`tas score: ${error.message}\n`);
    return 2;
  }
}
