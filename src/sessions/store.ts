import { sql } from 'slonik';
import { z } from 'zod';
import type { Tx } from '../platform/db/pool.js';
import { jsonb } from '../platform/db/jsonb.js';

/**
 * One function per query on sessions and their frame metadata
 * (sql/000005_sessions.sql): the only tables sessions writes. Its inquiry's
 * row and the testimony a standard session leaves behind are asked of
 * inquiries and observations (effects.ts, service.ts).
 * Nothing here ever receives a frame's content: only derived values and the
 * content's SHA-256 (rule D35).
 */
export interface NewSession {
  id: string;
  tenantId: string;
  mode: string;
  inquiryId: string;
  openedByKey: string;
  principal: string;
  purpose: string;
  retentionMode: string;
  consentRef: string | null;
  caseId: string | null;
  idleTimeoutSeconds: number;
  tokenSha256: Buffer;
  tokenExpiresAt: string;
}

export async function insertSession(tx: Tx, s: NewSession): Promise<void> {
  await tx.query(sql.unsafe`
    INSERT INTO sessions (id, tenant_id, mode, inquiry_id, opened_by_key, principal, purpose, retention_mode,
                          consent_ref, case_id, idle_timeout_seconds, token_sha256, token_expires_at)
    VALUES (${s.id}, ${s.tenantId}, ${s.mode}, ${s.inquiryId}, ${s.openedByKey}, ${s.principal}, ${s.purpose},
            ${s.retentionMode}, ${s.consentRef}, ${s.caseId}, ${s.idleTimeoutSeconds}, ${sql.binary(s.tokenSha256)},
            ${s.tokenExpiresAt})`);
}

const OpenCounts = z.object({ by_key: z.number().int(), by_tenant: z.number().int() });

/**
 * The sessions of the caller's tenant and mode (row-level security) that hold
 * a place: not closed, and either connected or with a token still able to
 * connect. An unconnected session whose token expired holds nothing and is
 * not counted. Taken under a per-tenant transaction lock, so two openings at
 * once cannot both see the last free place (000060's partial index keeps it a
 * look-up of the open ones).
 */
export async function countOpenSessions(tx: Tx, tenantId: string, mode: string, keyId: string): Promise<z.infer<typeof OpenCounts>> {
  await tx.query(sql.unsafe`SELECT pg_advisory_xact_lock(hashtextextended(${`tas.sessions:${tenantId}:${mode}`}, 0))`);
  return tx.one(sql.type(OpenCounts)`
    SELECT count(*) FILTER (WHERE opened_by_key = ${keyId})::int AS by_key, count(*)::int AS by_tenant
    FROM sessions
    WHERE state <> 'closed' AND (token_used_at IS NOT NULL OR token_expires_at > now())`);
}

const SessionRow = z.object({
  id: z.string(),
  inquiry_id: z.string(),
  state: z.enum(['open', 'closing', 'closed']),
  retention_mode: z.enum(['standard', 'transient']),
  purpose: z.string(),
  consent_ref: z.string().nullable(),
  case_id: z.string().nullable(),
  close_reason: z.string().nullable(),
});
export type SessionRow = z.infer<typeof SessionRow>;

/** The session of this tenant and mode (RLS), or null: unknown and foreign ids look the same. */
export async function findSession(tx: Tx, id: string): Promise<SessionRow | null> {
  return tx.maybeOne(sql.type(SessionRow)`
    SELECT id, inquiry_id, state, retention_mode, purpose, consent_ref, case_id, close_reason FROM sessions WHERE id = ${id}`);
}

const ClaimRow = z.object({
  id: z.string(),
  tenant_id: z.string(),
  mode: z.enum(['live', 'test']),
  inquiry_id: z.string(),
  opened_by_key: z.string(),
  principal: z.string(),
  purpose: z.string(),
  retention_mode: z.enum(['standard', 'transient']),
});
export type ClaimRow = z.infer<typeof ClaimRow>;

/** Spends the one-time token (tas_session_claim); null when it is wrong, spent, expired, or its session or key is not live. */
export async function claimSessionToken(tx: Tx, sessionId: string, tokenSha256: Buffer): Promise<ClaimRow | null> {
  return tx.maybeOne(sql.type(ClaimRow)`
    SELECT id, tenant_id, mode, inquiry_id, opened_by_key, principal, purpose, retention_mode
    FROM tas_session_claim(${sessionId}, ${sql.binary(tokenSha256)})`);
}

/** The session's state; answers its inquiry's id, which inquiries concludes when the session closes (effects.ts). */
export async function updateSessionState(tx: Tx, id: string, state: string, reason: string | null): Promise<string | null> {
  const row = await tx.maybeOne(sql.type(z.object({ inquiry_id: z.string() }))`
    UPDATE sessions SET state = ${state}, close_reason = ${reason},
      closed_at = CASE WHEN ${state} = 'closed' THEN now() ELSE NULL END
    WHERE id = ${id}
    RETURNING inquiry_id`);
  return row?.inquiry_id ?? null;
}

export interface FrameRecord {
  sessionId: string;
  seq: number;
  tenantId: string;
  mode: string;
  type: string;
  sizeBytes: number;
  contentSha256: string;
  outcome: 'accepted' | 'refused';
  rule: string | null;
  derived: Record<string, unknown>;
}

export async function insertFrame(tx: Tx, f: FrameRecord): Promise<void> {
  await tx.query(sql.unsafe`
    INSERT INTO session_frames (session_id, seq, tenant_id, mode, type, size_bytes, content_sha256, outcome, rule, derived)
    VALUES (${f.sessionId}, ${f.seq}, ${f.tenantId}, ${f.mode}, ${f.type}, ${f.sizeBytes}, ${f.contentSha256},
            ${f.outcome}, ${f.rule}, ${jsonb(f.derived)})`);
}
