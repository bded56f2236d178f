import { sql } from 'slonik';
import { z } from 'zod';
import type { Db, Tx } from '../platform/db/pool.js';
import type { Trail } from './chainStore.js';

/**
 * A chain's seals (000120): one per chain and UTC day of sealing, naming the
 * positions the sealer linked that day, the link before the first
 * (first_prev) and the last link (last_hash). A day's seal grows with each
 * pass of its day and is final once the day is over (a trigger refuses any
 * other change). Period -infinity is the closing seal of what was sealed
 * before 000120. The seals of consecutive periods meet: each one's first_prev
 * is the last_hash of the one before.
 */
export interface Seal {
  chainKey: string;
  tenantId: string | null;
  mode: string | null;
  firstPosition: number;
  lastPosition: number;
  links: number;
  firstPrev: Buffer;
  lastHash: Buffer;
}

/** A pass's seals, one per chain it extended, into today's seal of each (made or grown), in one statement. */
export async function recordSeals(tx: Tx, trail: Trail, seals: readonly Seal[]): Promise<void> {
  if (seals.length === 0) return;
  const firsts = sql.array(
    seals.map((s) => s.firstPosition),
    'int8',
  );
  const lasts = sql.array(
    seals.map((s) => s.lastPosition),
    'int8',
  );
  const links = sql.array(
    seals.map((s) => s.links),
    'int8',
  );
  const prevs = sql.array(
    seals.map((s) => s.firstPrev.toString('hex')),
    'text',
  );
  const hashes = sql.array(
    seals.map((s) => s.lastHash.toString('hex')),
    'text',
  );
  if (trail.kind === 'tenants') {
    const tenants = sql.array(
      seals.map((s) => s.tenantId),
      'uuid',
    );
    const modes = sql.array(
      seals.map((s) => s.mode),
      'text',
    );
    await tx.query(sql.unsafe`
      INSERT INTO audit_seals AS s (tenant_id, mode, period, first_position, last_position, links, first_prev, last_hash)
      SELECT t, m, (now() AT TIME ZONE 'UTC')::date, f, l, n, decode(fp, 'hex'), decode(lh, 'hex')
      FROM unnest(${tenants}, ${modes}, ${firsts}, ${lasts}, ${links}, ${prevs}, ${hashes}) AS x(t, m, f, l, n, fp, lh)
      ON CONFLICT (tenant_id, mode, period) DO UPDATE
        SET last_position = EXCLUDED.last_position, last_hash = EXCLUDED.last_hash, links = s.links + EXCLUDED.links, sealed_at = now()`);
    return;
  }
  await tx.query(sql.unsafe`
    INSERT INTO audit_refusal_seals AS s (period, first_position, last_position, links, first_prev, last_hash)
    SELECT (now() AT TIME ZONE 'UTC')::date, f, l, n, decode(fp, 'hex'), decode(lh, 'hex')
    FROM unnest(${firsts}, ${lasts}, ${links}, ${prevs}, ${hashes}) AS x(f, l, n, fp, lh)
    ON CONFLICT (chain_key, period) DO UPDATE
      SET last_position = EXCLUDED.last_position, last_hash = EXCLUDED.last_hash, links = s.links + EXCLUDED.links, sealed_at = now()`);
}

const SealRow = z.object({
  period: z.string(),
  first_position: z.number(),
  last_position: z.number(),
  links: z.number(),
  first_prev: z.instanceof(Buffer),
  last_hash: z.instanceof(Buffer),
  sealed_at: z.string(),
});
export type SealRow = z.infer<typeof SealRow>;

/**
 * A tenant chain's seals whose period lies within [from, to] (dates, UTC),
 * in order; under the tenant's row-level security when tx is the tenant's.
 * The closing seal (-infinity) is taken when `from` is -infinity.
 */
export async function sealsOf(db: Db | Tx, tenantId: string, mode: string, from: string, to: string): Promise<readonly SealRow[]> {
  return db.any(sql.type(SealRow)`
    SELECT period::text AS period, first_position, last_position, links, first_prev, last_hash, sealed_at
    FROM audit_seals WHERE tenant_id = ${tenantId} AND mode = ${mode} AND period BETWEEN ${from}::date AND ${to}::date
    ORDER BY period`);
}

/** Every seal of a chain of either trail, in order (the operator's verification). */
export async function chainSeals(db: Db | Tx, trail: Trail, chainKey: string): Promise<readonly SealRow[]> {
  if (trail.kind === 'refusals') {
    return db.any(sql.type(SealRow)`
      SELECT period::text AS period, first_position, last_position, links, first_prev, last_hash, sealed_at
      FROM audit_refusal_seals WHERE chain_key = ${chainKey} ORDER BY period`);
  }
  const [tenantId, mode] = chainKey.split(':');
  return sealsOf(db, tenantId!, mode!, '-infinity', 'infinity');
}
