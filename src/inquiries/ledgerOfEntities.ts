import { sql } from 'slonik';
import { z } from 'zod';
import type { Tx } from '../platform/db/pool.js';
import { unpackInputs } from '../scoring/index.js';

/**
 * The ledger's rows of some entities, in ledger order, with the inputs as
 * recorded whatever form they are stored in (src/scoring/ledgerRecord.ts):
 * what a case's export carries as assessments.json. Inquiries owns the
 * ledger (docs/architecture.md), so the export asks for it here. Runs in the
 * caller's tenant transaction.
 */
export async function ledgerOfEntities(tx: Tx, entityIds: readonly string[]): Promise<readonly Record<string, unknown>[]> {
  if (entityIds.length === 0) return [];
  const rows = await tx.any(sql.type(z.record(z.string(), z.unknown()))`
    SELECT id AS assessment_id, inquiry_id, entity_id, ledger_seq::int AS ledger_seq, score, low, high, preliminary,
           as_of, methodology_version, label, evidence, inputs
    FROM assessments WHERE entity_id = ANY(${sql.array([...entityIds], 'uuid')}) ORDER BY ledger_seq`);
  return rows.map((row) => ({ ...row, inputs: unpackInputs(row.inputs) }));
}
