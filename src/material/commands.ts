import { sql } from 'slonik';
import { z } from 'zod';
import type { Mode, Tx } from '../platform/db/pool.js';
import { postgresByteStore } from './byteStore.js';
import { BytesOverLimit, keptMaterialHashes, readInlineContent } from './bytesStore.js';
import * as store from './store.js';
import type { ExtractionRow, MaterialRow } from './store.js';

/**
 * Material's commands to the other capabilities: the assessment engine reads
 * a material and its extraction to bind its artifacts to an inquiry, and a
 * case's export reads the case's material, its extractions and the bytes
 * retention kept. Every one runs in the caller's tenant transaction (RLS:
 * another tenant's material reads like none), and none of them hands out a
 * table: the rows come back shaped as the caller needs them.
 */
export type { ExtractionRow, MaterialRow };

/** One of the tenant's material, or null. */
export async function findMaterial(tx: Tx, materialId: string): Promise<MaterialRow | null> {
  return store.findMaterial(tx, materialId);
}

/** What the material's extraction found, in order. */
export async function listExtractions(tx: Tx, materialId: string): Promise<readonly ExtractionRow[]> {
  return store.listExtractions(tx, materialId);
}

/** A case's material with what its extraction found, oldest first, as a case's export carries it. */
export async function materialOfCase(tx: Tx, caseId: string): Promise<readonly Record<string, unknown>[]> {
  return tx.any(sql.type(z.record(z.string(), z.unknown()))`
    SELECT m.id AS material_id, m.kind, m.media_type, m.sha256, m.size, m.retention_mode, m.data_class, m.status, m.created_at,
           COALESCE((SELECT jsonb_agg(jsonb_build_object('binding_id', x.binding_id, 'seq', x.seq, 'type', x.type, 'value', x.value,
                                                         'locator_kind', x.locator_kind, 'locator', x.locator, 'confidence', x.confidence)
                             ORDER BY x.seq)
                     FROM material_extractions x WHERE x.material_id = m.id), '[]'::jsonb) AS extractions
    FROM material m WHERE m.case_id = ${caseId} ORDER BY m.created_at, m.id`);
}

/** A case's kept material is larger than the caller can carry. */
export class MaterialOverBudget extends Error {
  override name = 'MaterialOverBudget';
}

/**
 * The bytes of each piece of a case's material that keeps them (standard
 * retention, not C2), by hash, oldest first: uploaded bytes from the byte
 * store, inline text from its content. MaterialOverBudget when they come to
 * more than `budget` bytes all told.
 */
export async function keptBytesOfCase(
  tx: Tx,
  scope: { tenantId: string; mode: Mode },
  caseId: string,
  budget: number,
): Promise<{ sha256: string; bytes: Buffer }[]> {
  const bytesStore = postgresByteStore(tx, scope);
  const out: { sha256: string; bytes: Buffer }[] = [];
  let total = 0;
  for (const sha256 of await keptMaterialHashes(tx, caseId)) {
    const uploaded = await bytesStore.read(sha256, budget - total).catch((error: unknown) => {
      throw error instanceof BytesOverLimit ? new MaterialOverBudget(`more than ${budget} bytes`) : error;
    });
    // Inline text is kept whole in material_content rather than in chunks.
    const bytes = uploaded.length > 0 ? uploaded : await readInlineContent(tx, sha256);
    if (bytes === null) continue;
    total += bytes.length;
    if (total > budget) throw new MaterialOverBudget(`more than ${budget} bytes`);
    out.push({ sha256, bytes });
  }
  return out;
}
