import { sql } from 'slonik';
import { z } from 'zod';
import type { Tx } from '../../platform/db/pool.js';
import { jsonb } from '../../platform/db/jsonb.js';

/** Export signing keys (000014): read and written only under tas_system. */
const SigningKeyRow = z.object({ kid: z.string(), private_sealed: z.instanceof(Buffer) });

export async function activeSigningKey(tx: Tx): Promise<z.infer<typeof SigningKeyRow> | null> {
  return tx.maybeOne(sql.type(SigningKeyRow)`SELECT kid, private_sealed FROM export_signing_keys WHERE retired_at IS NULL`);
}

export async function insertSigningKey(tx: Tx, key: { kid: string; publicJwk: object; privateSealed: Buffer }): Promise<void> {
  await tx.query(sql.unsafe`
    INSERT INTO export_signing_keys (kid, public_jwk, private_sealed)
    VALUES (${key.kid}, ${jsonb(key.publicJwk)}, ${sql.binary(key.privateSealed)})`);
}

export async function retireActiveSigningKey(tx: Tx): Promise<void> {
  await tx.query(sql.unsafe`UPDATE export_signing_keys SET retired_at = now() WHERE retired_at IS NULL`);
}

/** Every key ever used, newest first: retired keys stay published so old bundles verify. */
const PublicJwk = z.object({ kty: z.string(), crv: z.string(), x: z.string(), kid: z.string(), use: z.string(), alg: z.string() });
const PublishedKeyRow = z.object({
  public_jwk: PublicJwk,
  created_at: z.string(),
  retired_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type PublishedKeyRow = z.infer<typeof PublishedKeyRow>;

export async function publishedSigningKeys(tx: Tx): Promise<readonly PublishedKeyRow[]> {
  return tx.any(sql.type(PublishedKeyRow)`
    SELECT public_jwk, created_at, retired_at, revoked_at FROM export_signing_keys ORDER BY created_at DESC, kid`);
}

/** Marks a key revoked (000036), retiring it too if it was active; it verifies nothing from now on. False: no such key. */
export async function revokeSigningKey(tx: Tx, kid: string): Promise<boolean> {
  const row = await tx.maybeOne(sql.type(z.object({ kid: z.string() }))`
    UPDATE export_signing_keys SET revoked_at = coalesce(revoked_at, now()), retired_at = coalesce(retired_at, now())
    WHERE kid = ${kid} RETURNING kid`);
  return row !== null;
}

export const ExportRow = z.object({
  id: z.string(),
  case_id: z.string(),
  case_sequence: z.number(),
  format: z.string(),
  status: z.enum(['queued', 'building', 'ready', 'failed']),
  attempt: z.number(),
  requested_at: z.string(),
  finished_at: z.string().nullable(),
  manifest_sha256: z.string().nullable(),
  failure: z.string().nullable(),
});
export type ExportRow = z.infer<typeof ExportRow>;

const EXPORT_COLUMNS = sql.fragment`id, case_id, case_sequence, format, status, attempt, requested_at, finished_at, manifest_sha256, failure`;

/**
 * Records an export of the case as it stands (its event sequence), or finds
 * the one already recorded for that state and format: asking twice before
 * anything changes gives one export. A failed one is queued again, as its
 * next attempt.
 */
export async function recordExport(
  tx: Tx,
  e: { id: string; tenantId: string; mode: string; caseId: string; sequence: number; format: string; requestedBy: string },
): Promise<ExportRow> {
  await tx.query(sql.unsafe`
    INSERT INTO case_exports (id, tenant_id, mode, case_id, case_sequence, format, status, requested_by)
    VALUES (${e.id}, ${e.tenantId}, ${e.mode}, ${e.caseId}, ${e.sequence}, ${e.format}, 'queued', ${e.requestedBy})
    ON CONFLICT (tenant_id, mode, case_id, case_sequence, format) DO UPDATE
      SET status = 'queued', attempt = case_exports.attempt + 1, failure = NULL, finished_at = NULL
      WHERE case_exports.status = 'failed'`);
  return tx.one(sql.type(ExportRow)`
    SELECT ${EXPORT_COLUMNS} FROM case_exports
    WHERE case_id = ${e.caseId} AND case_sequence = ${e.sequence} AND format = ${e.format}`);
}

export async function findExport(tx: Tx, caseId: string, exportId: string): Promise<ExportRow | null> {
  return tx.maybeOne(sql.type(ExportRow)`SELECT ${EXPORT_COLUMNS} FROM case_exports WHERE id = ${exportId} AND case_id = ${caseId}`);
}

/** A ready bundle's length and stored SHA-256 (000066), without its bytes; null when it is not ready. */
export async function exportBundleHead(tx: Tx, caseId: string, exportId: string): Promise<{ size: number; sha256: string } | null> {
  return tx.maybeOne(sql.type(z.object({ size: z.number(), sha256: z.string() }))`
    SELECT length(bundle) AS size, bundle_sha256 AS sha256 FROM case_exports
    WHERE id = ${exportId} AND case_id = ${caseId} AND status = 'ready'`);
}

/** `length` bytes of a ready bundle from `offset` (0-based); only the TOAST chunks they cover are read (000066). */
export async function exportBundleSlice(tx: Tx, exportId: string, offset: number, length: number): Promise<Buffer> {
  return tx.oneFirst(sql.type(z.object({ bytes: z.instanceof(Buffer) }))`
    SELECT substring(bundle FROM ${offset + 1}::int FOR ${length}::int) AS bytes FROM case_exports WHERE id = ${exportId} AND status = 'ready'`);
}

/** Claims a queued (or abandoned building) export for building; null when another worker has it or it is done. */
export async function claimExport(tx: Tx, exportId: string): Promise<ExportRow | null> {
  return tx.maybeOne(sql.type(ExportRow)`
    UPDATE case_exports SET status = 'building' WHERE id = ${exportId} AND status IN ('queued', 'building')
    RETURNING ${EXPORT_COLUMNS}`);
}

export async function finishExport(
  tx: Tx,
  exportId: string,
  done: { bundle: Buffer; bundleSha256: string; manifestSha256: string; kid: string },
): Promise<void> {
  await tx.query(sql.unsafe`
    UPDATE case_exports SET status = 'ready', bundle = ${sql.binary(done.bundle)}, size = ${done.bundle.length}, bundle_sha256 = ${done.bundleSha256},
      manifest_sha256 = ${done.manifestSha256}, kid = ${done.kid}, finished_at = now()
    WHERE id = ${exportId}`);
}

export async function failExport(tx: Tx, exportId: string, reason: string): Promise<void> {
  await tx.query(
    sql.unsafe`UPDATE case_exports SET status = 'failed', failure = ${reason}, finished_at = now() WHERE id = ${exportId} AND status <> 'ready'`,
  );
}
