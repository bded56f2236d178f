import { z } from 'zod';
import type { ServiceHandle } from '../lib/service.js';
import type { Case } from './corpus.js';

/**
 * One subject through the live API: the inquiry (inline tier t0, network
 * checks off, as a tenant's hot path asks), then its ledger entry, whose
 * stored inputs let the bench score the same evidence under every
 * methodology version.
 */

export interface LedgerInputs {
  methodology_version: string;
  as_of: string;
  evidence: {
    provenance_class: string;
    trust_band: 'high' | 'medium' | 'low';
    observed_at: string;
    disposition: 'supports' | 'weakens' | 'neutral';
    strength?: 'weak' | 'moderate' | 'strong';
  }[];
  absences: number;
}

export interface Answer extends Case {
  score: number;
  low: number;
  high: number;
  methodology_version: string;
  /** Every (kind, disposition) the findings show, once each: `kind:disposition`. */
  facts: string[];
  inputs: LedgerInputs;
}

// The parts of the answers the bench reads; the rest of each body is left out.
const InquiryAnswer = z.object({
  assessment: z.object({
    assessment_id: z.string(),
    entity_id: z.string(),
    score: z.number(),
    low: z.number(),
    high: z.number(),
    methodology_version: z.string(),
  }),
  findings: z
    .object({ findings: z.array(z.object({ kind: z.string().optional(), disposition: z.string().optional() })).optional() })
    .optional(),
});

const LedgerInputsSchema: z.ZodType<LedgerInputs> = z.object({
  methodology_version: z.string(),
  as_of: z.string(),
  evidence: z.array(
    z.object({
      provenance_class: z.string(),
      trust_band: z.enum(['high', 'medium', 'low']),
      observed_at: z.string(),
      disposition: z.enum(['supports', 'weakens', 'neutral']),
      strength: z.enum(['weak', 'moderate', 'strong']).optional(),
    }),
  ),
  absences: z.number(),
});

const Ledger = z.array(z.object({ assessment: z.object({ assessment_id: z.string() }), inputs: LedgerInputsSchema }));

async function json<T>(res: Response, what: string, schema: z.ZodType<T>): Promise<T> {
  const body: unknown = await res.json();
  if (res.status !== 200) throw new Error(`${what} answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return schema.parse(body);
}

export async function ask(service: ServiceHandle, c: Case): Promise<Answer> {
  const base = `http://127.0.0.1:${service.port}`;
  const authorization = `Bearer ${service.keys.test}`;
  const body = await json(
    await fetch(`${base}/v1/inquiries`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({
        subject: { presentations: [{ type: c.type, value: c.value }] },
        intent: 'pre_transaction',
        purpose: 'fraud_prevention',
        tier_ceiling: 't0',
        stake: { kind: 'payment', amount: 50, currency: 'GBP' },
      }),
    }),
    `inquiry for a ${c.type}`,
    InquiryAnswer,
  );
  const a = body.assessment;
  const findings = body.findings?.findings ?? [];
  const facts = [...new Set(findings.filter((f) => f.kind).map((f) => `${f.kind}:${f.disposition ?? 'neutral'}`))].sort();
  const ledger = await json(await fetch(`${base}/v1/entities/${a.entity_id}/ledger`, { headers: { authorization } }), 'the ledger', Ledger);
  const entry = ledger.find((e) => e.assessment.assessment_id === a.assessment_id);
  if (!entry) throw new Error('the ledger does not hold the assessment just issued');
  return { ...c, score: a.score, low: a.low, high: a.high, methodology_version: a.methodology_version, facts, inputs: entry.inputs };
}

export async function askAll(
  service: ServiceHandle,
  cases: readonly Case[],
  concurrency: number,
  progress?: (done: number) => void,
): Promise<Answer[]> {
  const answers = new Array<Answer>(cases.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < cases.length) {
      const i = next++;
      answers[i] = await ask(service, cases[i]!);
      if (++done % 200 === 0) progress?.(done);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return answers;
}
