import { sql } from 'slonik';
import { z } from 'zod';
import type { Db } from '../platform/db/pool.js';

/** One outcome with the assessment it judged, as calibration reads it (src/calibration/report.ts). */
export interface ScoredOutcome {
  methodology_version: string;
  score: number;
  low: number;
  high: number;
  outcome: string;
}

/** Every outcome joined to the assessment it refers to; as the owner, optionally for one tenant and mode. */
export async function scoredOutcomes(db: Db, scope: { tenantId?: string; mode?: string }): Promise<readonly ScoredOutcome[]> {
  const tenant = scope.tenantId ? sql.fragment`AND o.tenant_id = ${scope.tenantId}` : sql.fragment``;
  const mode = scope.mode ? sql.fragment`AND o.mode = ${scope.mode}` : sql.fragment``;
  return db.any(sql.type(
    z.object({ methodology_version: z.string(), score: z.number(), low: z.number(), high: z.number(), outcome: z.string() }),
  )`
    SELECT a.methodology_version, a.score, a.low, a.high, o.body->>'kind' AS outcome
    FROM observations o JOIN assessments a ON a.id = (o.body->>'assessment_id')::uuid AND a.tenant_id = o.tenant_id AND a.mode = o.mode
    WHERE o.kind = 'outcome' ${tenant} ${mode}`);
}
