import { sql, type FragmentSqlToken } from 'slonik';
import { z } from 'zod';
import type { Tx } from '../platform/db/pool.js';
import { jsonb } from '../platform/db/jsonb.js';
import { Label } from '../schemas/common.js';
import { unpackFindings } from '../scoring/index.js';
import { EvidenceSummary } from '../assessment/schemas.js';

/** One function per query on inquiries, assessments (the ledger) and idempotency_keys. */
export interface NewInquiry {
  id: string;
  tenantId: string;
  mode: string;
  entityId: string | null;
  status: string;
  intent: string;
  purpose: string;
  /** The inquiry's facts as the engine keeps them (InquiryFacts, SessionFacts): any JSON object. */
  request: object;
  principal: string;
}

export async function insertInquiry(tx: Tx, i: NewInquiry): Promise<void> {
  await tx.query(sql.unsafe`${inquiryInsert(i)}`);
}

/**
 * The insert as a statement fragment, for a command's combined last statement
 * (src/inquiries/effects.ts). Born concluded or rejected, it is concluded now,
 * as the status update would have left it.
 */
export function inquiryInsert(i: NewInquiry): FragmentSqlToken {
  return sql.fragment`
    INSERT INTO inquiries (id, tenant_id, mode, entity_id, status, intent, purpose, request, principal, concluded_at)
    VALUES (${i.id}, ${i.tenantId}, ${i.mode}, ${i.entityId}, ${i.status}, ${i.intent}, ${i.purpose},
            ${jsonb(i.request)}, ${i.principal}, CASE WHEN ${i.status} IN ('concluded', 'rejected') THEN now() END)`;
}

/** The status update as a statement fragment, for a command's combined last statement (actors/actions.ts). */
export function inquiryStatusUpdate(id: string, status: string): FragmentSqlToken {
  return sql.fragment`
    UPDATE inquiries SET status = ${status},
      concluded_at = CASE WHEN ${status} IN ('concluded', 'rejected') THEN now() ELSE concluded_at END
    WHERE id = ${id}`;
}

const InquiryRow = z.object({
  id: z.string(),
  tenant_id: z.string(),
  mode: z.enum(['live', 'test']),
  entity_id: z.string().nullable(),
  status: z.string(),
  intent: z.string(),
  purpose: z.string(),
  request: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type InquiryRow = z.infer<typeof InquiryRow>;

export async function findInquiry(tx: Tx, id: string): Promise<InquiryRow | null> {
  return tx.maybeOne(sql.type(InquiryRow)`
    SELECT id, tenant_id, mode, entity_id, status, intent, purpose, request, created_at FROM inquiries WHERE id = ${id}`);
}

export interface NewAssessment {
  id: string;
  tenantId: string;
  mode: string;
  inquiryId: string;
  entityId: string | null;
  score: number;
  low: number;
  high: number;
  preliminary: boolean;
  asOf: string;
  methodologyVersion: string;
  label: unknown;
  evidence: unknown;
  inputs: unknown;
  findings: unknown;
}

/** The ledger insert as a statement fragment, for a command's combined last statement (actors/actions.ts). */
export function assessmentInsert(a: NewAssessment): FragmentSqlToken {
  return sql.fragment`
    INSERT INTO assessments (id, tenant_id, mode, inquiry_id, entity_id, score, low, high, preliminary, as_of,
                             methodology_version, label, evidence, inputs, findings)
    VALUES (${a.id}, ${a.tenantId}, ${a.mode}, ${a.inquiryId}, ${a.entityId}, ${a.score}, ${a.low}, ${a.high},
            ${a.preliminary}, ${a.asOf}, ${a.methodologyVersion}, ${jsonb(a.label)},
            ${jsonb(a.evidence)}, ${jsonb(a.inputs)}, ${jsonb(a.findings)})`;
}

const StoredFindings = z.record(z.string(), z.unknown()).nullable();

export const AssessmentRow = z
  .object({
    id: z.string(),
    inquiry_id: z.string(),
    entity_id: z.string().nullable(),
    score: z.number(),
    low: z.number(),
    high: z.number(),
    preliminary: z.boolean(),
    as_of: z.string(),
    methodology_version: z.string(),
    // The JSON the engine wrote, parsed as the Assessment's own parts on every read (never cast).
    label: Label.nullable(),
    evidence: EvidenceSummary,
    findings: z.unknown(),
  })
  // The findings as published, from their stored form (src/scoring/ledgerRecord.ts), then checked.
  .transform((row) => ({
    ...row,
    findings: StoredFindings.parse(unpackFindings(row.findings, { inquiryId: row.inquiry_id, assessmentId: row.id })),
  }));
export type AssessmentRow = z.infer<typeof AssessmentRow>;

export async function latestAssessmentOf(tx: Tx, inquiryId: string): Promise<AssessmentRow | null> {
  return tx.maybeOne(sql.type(AssessmentRow)`
    SELECT id, inquiry_id, entity_id, score, low, high, preliminary, as_of, methodology_version, label, evidence, findings
    FROM assessments WHERE inquiry_id = ${inquiryId} ORDER BY ledger_seq DESC LIMIT 1`);
}

const IdempotencyRow = z.object({
  request_hash: z.string(),
  inquiry_id: z.string(),
  status_code: z.number().nullable(),
  response: z.unknown(),
  created_at: z.string(),
});
export type IdempotencyRow = z.infer<typeof IdempotencyRow>;

/** Claims the key for this request; false when it was already claimed (by this body or another). */
export async function claimIdempotencyKey(
  tx: Tx,
  r: { tenantId: string; mode: string; key: string; requestHash: string; inquiryId: string },
): Promise<boolean> {
  const row = await tx.maybeOne(sql.type(z.object({ key: z.string() }))`
    INSERT INTO idempotency_keys (tenant_id, mode, key, request_hash, inquiry_id)
    VALUES (${r.tenantId}, ${r.mode}, ${r.key}, ${r.requestHash}, ${r.inquiryId})
    ON CONFLICT DO NOTHING RETURNING key`);
  return row !== null;
}

/** Keys are kept at least 24 hours; older ones are treated as unclaimed. */
export async function findIdempotencyKey(tx: Tx, key: string): Promise<IdempotencyRow | null> {
  return tx.maybeOne(sql.type(IdempotencyRow)`
    SELECT request_hash, inquiry_id, status_code, response, created_at FROM idempotency_keys WHERE key = ${key}`);
}

/**
 * Keeps the first answer of a key. status_code stays a column for the rows
 * written before; an inquiry's answer is always its 200, so it is written as such.
 */
export async function storeIdempotentResponse(tx: Tx, key: string, response: unknown): Promise<void> {
  await tx.query(sql.unsafe`
    UPDATE idempotency_keys SET status_code = 200, response = ${jsonb(response)}
    WHERE key = ${key} AND response IS NULL`);
}
