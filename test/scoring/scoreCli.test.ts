import { describe, it, expect } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runScoreCommand, scoreMain } from '../../src/cli/score.js';
import { RESPONSE_EXAMPLES } from '../../src/openapi/examples.js';
import type { ScoreIo } from '../../src/cli/score.js';
import { AS_OF, WORKED_EXAMPLES, item } from './fixtures.js';

function run(input: unknown): Record<string, unknown> {
  return JSON.parse(runScoreCommand(JSON.stringify(input))) as Record<string, unknown>;
}

/** The section 5 (trust-method/1) inputs name their version; absent means the current one (v3). */
const V1 = { methodology_version: 'trust-method/1' } as const;

function refusal(input: unknown): string {
  try {
    runScoreCommand(typeof input === 'string' ? input : JSON.stringify(input));
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the input to be refused');
}

describe('runScoreCommand: reproduces METHODOLOGY.md section 5', () => {
  it.each(WORKED_EXAMPLES)('given $name as a JSON file, then $expected', ({ evidence, k, expected }) => {
    const out = run({ ...V1, as_of: AS_OF, evidence, absences: k });
    expect(out).toMatchObject({ methodology_version: 'trust-method/1', ...expected, evidence_count: evidence.length, absences: k });
  });

  it('given a JSON line, then methodology_version, score, low, high lead it', () => {
    const line = runScoreCommand(JSON.stringify({ ...V1, as_of: AS_OF, evidence: [], absences: 0 }));
    expect(line).toMatch(/^\{"methodology_version":"trust-method\/1","score":50,"low":5,"high":95,/);
    expect(line).not.toContain('\n');
  });

  it('given absences as a list, then its length is k', () => {
    const absences = [
      { about: 'a@example.com', about_type: 'EMAIL', kind: 'timeout', reason: 'no answer in time' },
      { about: 'a@example.com', about_type: 'EMAIL', kind: 'error', reason: 'resolver failed' },
    ];
    const out = run({ ...V1, as_of: AS_OF, evidence: Array.from({ length: 5 }, () => item('supports')), absences });
    expect(out).toMatchObject({ score: 86, low: 56, high: 100, absences: 2 });
  });

  it('given stored findings with neutral ones, then neutral signals are summarised, not scored', () => {
    const finding = {
      finding_id: 'f1',
      about: 'a@example.com',
      about_type: 'EMAIL',
      kind: 'free_mail',
      statement: 'free mail provider',
      data_class: 'C0',
    };
    const out = run({
      ...V1,
      as_of: AS_OF,
      evidence: [
        { ...item('supports'), ...finding },
        { ...item('supports'), ...finding, disposition: 'neutral' },
      ],
      absences: 0,
    });
    expect(out).toMatchObject({ score: 67, low: 22, high: 98, evidence_count: 1 });
    expect(out.evidence).toMatchObject({ signals: 2, failed_signals: 0, contradictions: 0 });
  });
});

describe('runScoreCommand: refuses bad input, naming the field', () => {
  it.each([
    {
      name: 'an unknown top-level field',
      input: { as_of: AS_OF, evidence: [], absences: 0, score: 99 },
      field: 'score',
      problem: 'unknown field',
    },
    {
      name: 'an unknown evidence field',
      input: { as_of: AS_OF, evidence: [{ ...item('supports'), weight: 5 }], absences: 0 },
      field: 'evidence[0].weight',
      problem: 'unknown field',
    },
    { name: 'a bad as_of', input: { as_of: '2025-13-01T00:00:00Z', evidence: [], absences: 0 }, field: 'as_of', problem: 'ISO 8601' },
    {
      name: 'a date-time without offset',
      input: { as_of: '2025-01-01T00:00:00', evidence: [], absences: 0 },
      field: 'as_of',
      problem: 'offset',
    },
    {
      name: 'a bad observed_at',
      input: { as_of: AS_OF, evidence: [item('supports'), item('weakens', { observed_at: '2025-02-29T00:00:00Z' })], absences: 0 },
      field: 'evidence[1].observed_at',
      problem: 'ISO 8601',
    },
    {
      name: 'a bad trust band',
      input: { as_of: AS_OF, evidence: [{ ...item('supports'), trust_band: 'certain' }], absences: 0 },
      field: 'evidence[0].trust_band',
      problem: 'high',
    },
    { name: 'missing absences', input: { as_of: AS_OF, evidence: [] }, field: 'absences', problem: 'is required' },
    { name: 'negative absences', input: { as_of: AS_OF, evidence: [], absences: -2 }, field: 'absences', problem: '0' },
    {
      name: 'absences as a string',
      input: { as_of: AS_OF, evidence: [], absences: 'two' },
      field: 'absences',
      problem: 'non-negative integer or a list',
    },
    { name: 'a missing as_of', input: { evidence: [], absences: 0 }, field: 'as_of', problem: 'is required' },
  ])('given $name, then the message names $field', ({ input, field, problem }) => {
    const message = refusal(input);
    expect(message).toContain(`${field}:`);
    expect(message).toContain(problem);
  });

  it('given text that is not JSON, then it says so', () => {
    expect(refusal('{"as_of": ')).toMatch(/^input: is not valid JSON/);
  });
});

describe('scoreMain: file or stdin in, one line out, exit code', () => {
  function capture(stdin = ''): ScoreIo & { out: string[]; err: string[] } {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), readStdin: () => Promise.resolve(stdin) };
  }

  it('given a FILE, then it prints the result and exits 0', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tas-score-'));
    const file = join(dir, 'evidence.json');
    await writeFile(file, JSON.stringify({ ...V1, as_of: AS_OF, evidence: [item('supports')], absences: 0 }));
    const io = capture();
    expect(await scoreMain([file], io)).toBe(0);
    expect(JSON.parse(io.out.join(''))).toMatchObject({ score: 67, low: 22, high: 98 });
  });

  it.each([[[]], [['-']]])('given %j, then it reads stdin', async (argv) => {
    const io = capture(JSON.stringify({ as_of: AS_OF, evidence: [], absences: 0 }));
    expect(await scoreMain(argv, io)).toBe(0);
    expect(io.out.join('')).toMatch(/"score":50,"low":5,"high":95/);
  });

  it('given bad input, then exit 2 with the field on stderr', async () => {
    const io = capture(JSON.stringify({ as_of: 'never', evidence: [], absences: 0 }));
    expect(await scoreMain([], io)).toBe(2);
    expect(io.err.join('')).toMatch(/as_of:/);
    expect(io.out).toEqual([]);
  });

  it('given a missing file, then exit 1; given two arguments, then exit 2', async () => {
    const io = capture();
    expect(await scoreMain([join(tmpdir(), 'no-such-tas-file.json')], io)).toBe(1);
    expect(await scoreMain(['a', 'b'], io)).toBe(2);
  });
});

describe('runScoreCommand: trust-method/2, /3 and ledger entries', () => {
  const strong = { ...item('weakens'), provenance_class: 'computed', strength: 'strong' };
  const weak = { ...item('supports'), provenance_class: 'computed', trust_band: 'low', strength: 'weak' };
  const neutral = { ...item('supports'), provenance_class: 'computed', disposition: 'neutral' };
  /** The summary of [strong, weak] as the service publishes it. */
  const summaryOfTwo = {
    signals: 2,
    failed_signals: 0,
    contradictions: 1,
    by_provenance_class: { computed: 2 },
    by_trust_band: { high: 1, medium: 0, low: 1 },
    oldest_observed_at: AS_OF,
    newest_observed_at: AS_OF,
  };

  it("given no methodology_version, then the current version (v3) applies to items with strength: section 8's disposable inbox", () => {
    expect(run({ as_of: AS_OF, evidence: [strong, weak], absences: 0 })).toMatchObject({
      methodology_version: 'trust-method/3',
      score: 14,
      low: 1,
      high: 38,
    });
  });

  it("given the same items named trust-method/2, then section 7's disposable inbox", () => {
    expect(run({ methodology_version: 'trust-method/2', as_of: AS_OF, evidence: [strong, weak], absences: 0 })).toMatchObject({
      methodology_version: 'trust-method/2',
      score: 30,
      low: 2,
      high: 72,
    });
  });

  it('given a v3 item without strength, then it is refused with a clear message', () => {
    expect(refusal({ methodology_version: 'trust-method/3', as_of: AS_OF, evidence: [item('supports')], absences: 0 })).toMatch(
      /evidence\[0\]\.strength.*required by trust-method\/3/,
    );
  });

  it('given a v2 item without strength, then it is refused with a clear message', () => {
    expect(refusal({ methodology_version: 'trust-method/2', as_of: AS_OF, evidence: [item('supports')], absences: 0 })).toMatch(
      /evidence\[0\]\.strength.*required by trust-method\/2/,
    );
  });

  it('given a v1 item with a strength, then it is refused with a clear message', () => {
    expect(refusal({ methodology_version: 'trust-method/1', as_of: AS_OF, evidence: [weak], absences: 0 })).toMatch(
      /evidence\[0\]\.strength.*not part of trust-method\/1/,
    );
  });

  it('given an unknown version, then it is refused naming methodology_version', () => {
    expect(refusal({ methodology_version: 'trust-method/4', as_of: AS_OF, evidence: [], absences: 0 })).toMatch(
      /methodology_version.*trust-method\/1, trust-method\/2, trust-method\/3/,
    );
  });

  it('given a ledger entry exactly as served, then its inputs are scored with their version and it says it reproduces', () => {
    const entry = {
      entry_id: '0190d3c2-0000-7000-8000-000000000001',
      sequence: 1,
      assessment: {
        assessment_id: 'x',
        score: 30,
        low: 2,
        high: 72,
        methodology_version: 'trust-method/2',
        preliminary: false,
        evidence: summaryOfTwo,
      },
      inputs: { methodology_version: 'trust-method/2', as_of: AS_OF, evidence: [strong, weak], absences: 0 },
      recorded_at: AS_OF,
    };
    const out = run(entry);
    expect(out).toMatchObject({
      methodology_version: 'trust-method/2',
      score: 30,
      low: 2,
      high: 72,
      reproduces: true,
      evidence: summaryOfTwo,
    });
    expect(out).not.toHaveProperty('not_compared');
    const tampered = { ...entry, assessment: { ...entry.assessment, score: 31 } };
    expect(run(tampered)).toMatchObject({ reproduces: false, differs: ['score'] });
    const otherSummary = {
      ...entry,
      assessment: { ...entry.assessment, evidence: { ...summaryOfTwo, contradictions: 0, by_trust_band: { high: 2, medium: 0, low: 0 } } },
    };
    expect(run(otherSummary)).toMatchObject({ reproduces: false, differs: ['evidence.contradictions', 'evidence.by_trust_band'] });
  });

  it('given a v3 entry whose inputs keep its neutral signals, then the whole summary is recomputed and compared', () => {
    const old = { ...neutral, observed_at: '2024-12-01T00:00:00Z', trust_band: 'medium' };
    const summary = {
      signals: 4,
      failed_signals: 1,
      contradictions: 1,
      // Key order as jsonb stores it, not as the summary builds it: compared as counts.
      by_provenance_class: { computed: 4 },
      by_trust_band: { low: 1, high: 2, medium: 1 },
      oldest_observed_at: '2024-12-01T00:00:00.000Z',
      newest_observed_at: AS_OF,
    };
    const entry = {
      entry_id: 'e',
      sequence: 1,
      recorded_at: AS_OF,
      assessment: { score: 14, low: 1, high: 41, methodology_version: 'trust-method/3', evidence: summary },
      inputs: { methodology_version: 'trust-method/3', as_of: AS_OF, evidence: [neutral, strong, old, weak], absences: 1 },
    };
    const out = run(entry);
    expect(out).toMatchObject({ methodology_version: 'trust-method/3', score: 14, low: 1, high: 41, reproduces: true, evidence_count: 2 });
    expect(out.evidence).toMatchObject({ signals: 4, failed_signals: 1, contradictions: 1, by_trust_band: { high: 2, medium: 1, low: 1 } });
    // Drop one neutral item from the inputs: the entry no longer holds what its summary counts.
    const short = { ...entry, inputs: { ...entry.inputs, evidence: [neutral, strong, weak] } };
    expect(run(short)).toMatchObject({
      reproduces: true,
      unrecorded_signals: 1,
      not_compared: expect.arrayContaining(['evidence.signals', 'evidence.oldest_observed_at']),
    });
  });

  it('given an entry recorded before the ledger kept neutral signals, then its figures still reproduce and the fields its inputs cannot determine are named', () => {
    const entry = {
      entry_id: 'e',
      sequence: 1,
      recorded_at: AS_OF,
      assessment: {
        score: 30,
        low: 2,
        high: 72,
        methodology_version: 'trust-method/2',
        evidence: { ...summaryOfTwo, signals: 9, by_provenance_class: { computed: 9 }, by_trust_band: { high: 8, medium: 0, low: 1 } },
      },
      inputs: { methodology_version: 'trust-method/2', as_of: AS_OF, evidence: [strong, weak], absences: 0 },
    };
    expect(run(entry)).toMatchObject({
      reproduces: true,
      unrecorded_signals: 7,
      not_compared: [
        'evidence.signals',
        'evidence.by_provenance_class',
        'evidence.by_trust_band',
        'evidence.oldest_observed_at',
        'evidence.newest_observed_at',
      ],
    });
    // What it can determine is still compared.
    const wrongK = { ...entry, assessment: { ...entry.assessment, evidence: { ...entry.assessment.evidence, failed_signals: 3 } } };
    expect(run(wrongK)).toMatchObject({ reproduces: false, differs: ['evidence.failed_signals'] });
  });

  it('given a v1 ledger entry whose inputs predate the version field, then the assessment names the version', () => {
    const entry = {
      entry_id: 'e',
      sequence: 1,
      recorded_at: AS_OF,
      assessment: { score: 86, low: 56, high: 100, methodology_version: 'trust-method/1' },
      inputs: { as_of: AS_OF, evidence: Array.from({ length: 5 }, () => item('supports')), absences: 2 },
    };
    expect(run(entry)).toMatchObject({ methodology_version: 'trust-method/1', score: 86, low: 56, high: 100, reproduces: true });
  });

  it("given the OpenAPI document's ledger example, then it reproduces its own assessment, summary included", () => {
    const [entry] = RESPONSE_EXAMPLES.getEntityLedger as unknown[];
    const out = run(entry);
    expect(out).toMatchObject({ methodology_version: 'trust-method/3', reproduces: true });
    expect(out).not.toHaveProperty('not_compared');
  });
});
