import { sql } from 'slonik';
import { z } from 'zod';
import type { Tx } from '../platform/db/pool.js';
import { jsonb } from '../platform/db/jsonb.js';
import { MaterialFailureReason } from './schemas.js';

/**
 * One function per query on material, its content-addressed raw content and
 * its extractions (sql/000007_material.sql). `insertMaterialContent` is the
 * only door raw content goes through, and the route calls it for
 * retention_mode=standard only (rule D35).
 */
export interface NewMaterial {
  id: string;
  tenantId: string;
  mode: string;
  kind: string;
  mediaType: string;
  purpose: string;
  sha256: string | null;
  size: number | null;
  retentionMode: string;
  dataClass: string;
  consentRef: string | null;
  caseId: string | null;
  status: string;
  extractorVersion: string | null;
  extractedAt: string | null;
  items: number;
  bytesStored: boolean;
  /** Region for national-format phone numbers (sql/000027), or null. */
  phoneRegion: string | null;
}

export const MaterialRow = z.object({
  id: z.string(),
  kind: z.enum(['text', 'document', 'image', 'audio', 'video']),
  media_type: z.string(),
  sha256: z.string().nullable(),
  size: z.number().nullable(),
  retention_mode: z.enum(['standard', 'transient']),
  data_class: z.enum(['C0', 'C1', 'C2']),
  case_id: z.string().nullable(),
  status: z.enum(['awaiting_upload', 'received', 'extracting', 'extracted', 'failed', 'discarded']),
  extractor_version: z.string().nullable(),
  extracted_at: z.string().nullable(),
  items: z.number(),
  bytes_stored: z.boolean(),
  failure_reason: MaterialFailureReason.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type MaterialRow = z.infer<typeof MaterialRow>;

export const MATERIAL_COLUMNS = sql.fragment`id, kind, media_type, sha256, size, retention_mode, data_class, case_id, status,
  extractor_version, extracted_at, items, bytes_stored, failure_reason, created_at, updated_at`;
const COLUMNS = MATERIAL_COLUMNS;

export async function insertMaterial(tx: Tx, m: NewMaterial): Promise<MaterialRow> {
  return tx.one(sql.type(MaterialRow)`
    INSERT INTO material (id, tenant_id, mode, kind, media_type, purpose, sha256, size, retention_mode, data_class,
                          consent_ref, case_id, status, extractor_version, extracted_at, items, bytes_stored, phone_region)
    VALUES (${m.id}, ${m.tenantId}, ${m.mode}, ${m.kind}, ${m.mediaType}, ${m.purpose}, ${m.sha256}, ${m.size},
            ${m.retentionMode}, ${m.dataClass}, ${m.consentRef}, ${m.caseId}, ${m.status}, ${m.extractorVersion},
            ${m.extractedAt}, ${m.items}, ${m.bytesStored}, ${m.phoneRegion})
    RETURNING ${COLUMNS}`);
}

/** The material of this tenant and mode (RLS), or null: unknown and foreign ids look the same. */
export async function findMaterial(tx: Tx, id: string): Promise<MaterialRow | null> {
  return tx.maybeOne(sql.type(MaterialRow)`SELECT ${COLUMNS} FROM material WHERE id = ${id}`);
}

/** Raw content by hash; the same content declared twice is stored once. Standard retention only (D35). */
export async function insertMaterialContent(
  tx: Tx,
  c: { tenantId: string; mode: string; sha256: string; size: number; content: string },
): Promise<void> {
  await tx.query(sql.unsafe`
    INSERT INTO material_content (tenant_id, mode, sha256, size, content)
    VALUES (${c.tenantId}, ${c.mode}, ${c.sha256}, ${c.size}, ${c.content})
    ON CONFLICT (tenant_id, mode, sha256) DO NOTHING`);
}

export interface NewExtraction {
  bindingId: string;
  seq: number;
  type: string;
  value: string | null;
  targetKind: 'artifact' | 'fingerprint' | 'signal' | 'claim';
  targetId: string;
  locatorKind: 'text' | 'document' | 'image' | 'audio' | 'video' | 'structured';
  locator: Record<string, unknown>;
  confidence: number;
}

export async function insertExtractions(
  tx: Tx,
  scope: { tenantId: string; mode: string; materialId: string },
  items: NewExtraction[],
): Promise<void> {
  if (items.length === 0) return;
  await tx.query(sql.unsafe`
    INSERT INTO material_extractions (binding_id, tenant_id, mode, material_id, seq, type, value, target_kind, target_id,
                                      locator_kind, locator, confidence)
    SELECT x.binding_id, ${scope.tenantId}, ${scope.mode}, ${scope.materialId}, x.seq, x.type, x.value, x.target_kind,
           x.target_id, x.locator_kind, x.locator, x.confidence
    FROM jsonb_to_recordset(${jsonb(
      items.map((i) => ({
        binding_id: i.bindingId,
        seq: i.seq,
        type: i.type,
        value: i.value,
        target_kind: i.targetKind,
        target_id: i.targetId,
        locator_kind: i.locatorKind,
        locator: i.locator,
        confidence: i.confidence,
      })),
    )}) AS x(binding_id uuid, seq integer, type text, value text, target_kind text, target_id text,
                         locator_kind text, locator jsonb, confidence double precision)`);
}

export const ExtractionRow = z.object({
  binding_id: z.string(),
  type: z.string(),
  value: z.string().nullable(),
  target_kind: z.enum(['artifact', 'fingerprint', 'signal', 'claim']),
  target_id: z.string(),
  locator_kind: z.enum(['text', 'document', 'image', 'audio', 'video', 'structured']),
  locator: z.record(z.string(), z.unknown()),
  confidence: z.number(),
});
export type ExtractionRow = z.infer<typeof ExtractionRow>;

export async function listExtractions(tx: Tx, materialId: string): Promise<readonly ExtractionRow[]> {
  return tx.any(sql.type(ExtractionRow)`
    SELECT binding_id::text, type, value, target_kind, target_id, locator_kind, locator, confidence
    FROM material_extractions WHERE material_id = ${materialId} ORDER BY seq`);
}
