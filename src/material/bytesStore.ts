import { sql } from 'slonik';
import { z } from 'zod';
import type { Tx } from '../platform/db/pool.js';
import { MATERIAL_COLUMNS, MaterialRow } from './store.js';

/**
 * One function per query on uploaded material bytes (sql/000017). The bytes
 * are content-addressed per tenant and mode, in chunks of at most 1 MiB, so a
 * reader never holds more than one chunk and two declarations of the same
 * bytes share the rows. This module is the PostgreSQL implementation of the
 * store; an S3-compatible one would implement the same few calls.
 */
export const MAX_CHUNK_BYTES = 1024 * 1024;

/** What the upload needs of its material, read and locked for the upload's transaction. */
export const UploadTarget = z.object({
  id: z.string(),
  tenant_id: z.string(),
  mode: z.enum(['live', 'test']),
  kind: z.string(),
  media_type: z.string(),
  sha256: z.string().nullable(),
  size: z.number().nullable(),
  status: z.string(),
  retention_mode: z.string(),
  data_class: z.string(),
  upload_token_hash: z.string().nullable(),
  upload_expires_at: z.string().nullable(),
  received_at: z.string().nullable(),
});
export type UploadTarget = z.infer<typeof UploadTarget>;

export async function lockUploadTarget(tx: Tx, materialId: string): Promise<UploadTarget | null> {
  return tx.maybeOne(sql.type(UploadTarget)`
    SELECT id, tenant_id::text, mode, kind, media_type, sha256, size::int, status, retention_mode, data_class, upload_token_hash,
           upload_expires_at, received_at
    FROM material WHERE id = ${materialId} FOR UPDATE`);
}

export async function setUploadToken(tx: Tx, materialId: string, tokenHash: string, expiresAt: string): Promise<void> {
  await tx.query(sql.unsafe`
    UPDATE material SET upload_token_hash = ${tokenHash}, upload_expires_at = ${expiresAt}, updated_at = now()
    WHERE id = ${materialId}`);
}

export async function bytesStored(tx: Tx, sha256: string): Promise<boolean> {
  return tx.exists(sql.unsafe`SELECT 1 FROM material_bytes WHERE sha256 = ${sha256} AND seq = 0`);
}

export async function insertChunk(
  tx: Tx,
  scope: { tenantId: string; mode: string },
  sha256: string,
  seq: number,
  chunk: Buffer,
): Promise<void> {
  await tx.query(sql.unsafe`
    INSERT INTO material_bytes (tenant_id, mode, sha256, seq, chunk)
    VALUES (${scope.tenantId}, ${scope.mode}, ${sha256}, ${seq}, ${sql.binary(chunk)})`);
}

/**
 * The upload's single use: the token is spent (received_at) and the material
 * waits for its extraction. The token's hash is kept, so that a second PUT
 * proves it holds the URL before it hears 409 (issue 40).
 */
export async function markReceived(tx: Tx, materialId: string, keepBytes: boolean): Promise<MaterialRow> {
  return tx.one(sql.type(MaterialRow)`
    UPDATE material SET status = 'received', received_at = now(), bytes_stored = ${keepBytes},
                        updated_at = now()
    WHERE id = ${materialId}
    RETURNING ${MATERIAL_COLUMNS}`);
}

const Chunk = z.object({ seq: z.number(), chunk: z.instanceof(Buffer) });

/** One chunk of the bytes by position, or null past the end: readers page through, one chunk in memory at a time. */
export async function readChunk(tx: Tx, sha256: string, seq: number): Promise<Buffer | null> {
  const row = await tx.maybeOne(sql.type(Chunk)`SELECT seq, chunk FROM material_bytes WHERE sha256 = ${sha256} AND seq = ${seq}`);
  return row?.chunk ?? null;
}

/** Bytes over a reader's bound: reading stops at the chunk that crosses it. */
export class BytesOverLimit extends Error {
  override name = 'BytesOverLimit';
}

/** All the bytes stored under a hash, chunk by chunk (empty when none are); BytesOverLimit past `maxBytes`. */
export async function readBytes(tx: Tx, sha256: string, maxBytes = Number.POSITIVE_INFINITY): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (let seq = 0; ; seq += 1) {
    const chunk = await readChunk(tx, sha256, seq);
    if (chunk === null) return Buffer.concat(chunks);
    total += chunk.length;
    if (total > maxBytes) throw new BytesOverLimit(`more than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
}

/**
 * Deletes the bytes unless a piece of material that keeps its bytes
 * (standard retention, not C2) still names them: the rows are shared.
 */
export async function deleteBytesUnlessKept(tx: Tx, sha256: string): Promise<void> {
  await tx.query(sql.unsafe`
    DELETE FROM material_bytes b WHERE b.sha256 = ${sha256}
      AND NOT EXISTS (SELECT 1 FROM material m WHERE m.sha256 = ${sha256} AND m.bytes_stored)`);
}

/** What an extraction job reads of its material. */
export const ExtractionTarget = z.object({
  id: z.string(),
  kind: z.string(),
  media_type: z.string(),
  sha256: z.string(),
  size: z.number(),
  status: z.string(),
  retention_mode: z.string(),
  data_class: z.string(),
  phone_region: z.string().nullable(),
});
export type ExtractionTarget = z.infer<typeof ExtractionTarget>;

export async function lockForExtraction(tx: Tx, materialId: string): Promise<ExtractionTarget | null> {
  return tx.maybeOne(sql.type(ExtractionTarget)`
    SELECT id, kind, media_type, sha256, size::int, status, retention_mode, data_class, phone_region
    FROM material WHERE id = ${materialId} AND sha256 IS NOT NULL FOR UPDATE`);
}

export async function markExtracted(
  tx: Tx,
  m: { id: string; extractorVersion: string; items: number; bytesStored: boolean },
): Promise<void> {
  await tx.query(sql.unsafe`
    UPDATE material SET status = 'extracted', extractor_version = ${m.extractorVersion}, extracted_at = now(),
                        items = ${m.items}, bytes_stored = ${m.bytesStored}, failure_reason = NULL, updated_at = now()
    WHERE id = ${m.id}`);
}

export async function markFailed(tx: Tx, m: { id: string; reason: string; extractorVersion: string; bytesStored: boolean }): Promise<void> {
  await tx.query(sql.unsafe`
    UPDATE material SET status = 'failed', failure_reason = ${m.reason}, extractor_version = ${m.extractorVersion},
                        bytes_stored = ${m.bytesStored}, updated_at = now()
    WHERE id = ${m.id}`);
}

/** The hashes of a case's material whose bytes are kept (standard retention, not C2), oldest first. */
export async function keptMaterialHashes(tx: Tx, caseId: string): Promise<readonly string[]> {
  return tx.anyFirst(sql.type(z.object({ sha256: z.string() }))`
    SELECT sha256 FROM material WHERE case_id = ${caseId} AND bytes_stored AND sha256 IS NOT NULL AND status <> 'awaiting_upload'
    GROUP BY sha256 ORDER BY min(created_at), sha256`);
}

/** Inline text material's content by hash (material_content, standard retention only), or null. */
export async function readInlineContent(tx: Tx, sha256: string): Promise<Buffer | null> {
  const content = await tx.maybeOneFirst(
    sql.type(z.object({ content: z.string() }))`SELECT content FROM material_content WHERE sha256 = ${sha256}`,
  );
  return content === null ? null : Buffer.from(content, 'utf8');
}
