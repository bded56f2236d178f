import { sql, type FragmentSqlToken } from 'slonik';
import { z } from 'zod';
import type { Tx } from '../platform/db/pool.js';
import { jsonb } from '../platform/db/jsonb.js';

/** One function per query on observations (testimony and outcomes) and the assessments they reference. */
export interface NewObservation {
  id: string;
  tenantId: string;
  mode: string;
  entityId: string | null;
  kind: 'observation' | 'outcome';
  provenanceClass: string;
  body: Record<string, unknown>;
  observedAt: string;
}

/** Several observations in one insert, as a statement fragment for a command's combined last statement. */
export function observationsInsert(rows: readonly NewObservation[]): FragmentSqlToken {
  const values = rows.map(
    (o) => sql.fragment`(${o.id}, ${o.tenantId}, ${o.mode}, ${o.entityId}, ${o.kind}, ${o.provenanceClass},
            ${jsonb(o.body)}, ${o.observedAt})`,
  );
  return sql.fragment`
    INSERT INTO observations (id, tenant_id, mode, entity_id, kind, provenance_class, body, observed_at)
    VALUES ${sql.join(values, sql.fragment`, `)}`;
}

export async function insertObservation(tx: Tx, o: NewObservation): Promise<{ created_at: string }> {
  return tx.one(sql.type(z.object({ created_at: z.string() }))`${observationsInsert([o])} RETURNING created_at`);
}

/** The assessment an outcome refers to, when it belongs to this tenant and mode (RLS decides). */
export async function assessmentEntity(tx: Tx, assessmentId: string): Promise<{ entity_id: string | null } | null> {
  return tx.maybeOne(sql.type(z.object({ entity_id: z.string().nullable() }))`
    SELECT entity_id FROM assessments WHERE id = ${assessmentId}`);
}
