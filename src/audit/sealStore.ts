import { sql } from 'slonik';
import { z } from 'zod';
import type { Db, Tx } from '../platform/db/pool.js';
import type { ChainHead, Trail } from './chainStore.js';
import { signSeal, type SealFacts, type SealKey } from './sealSignature.js';

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

const hex = (b: Buffer) => b.toString('hex');

/** What a seal asserts, as its signature's statement names it. */
export function factsOf(seal: Seal, period: string): SealFacts {
  return {
    tenantId: seal.tenantId,
    mode: seal.mode,
    period,
    firstPosition: seal.firstPosition,
    lastPosition: seal.lastPosition,
    links: seal.links,
    firstPrev: hex(seal.firstPrev),
    lastHash: hex(seal.lastHash),
  };
}

/**
 * A pass's seals, one per chain it extended, into today's seal of each (made
 * or grown), signed when the pass has the key: today's seals as they stood
 * came with the chains' heads (chainHeads), so each seal is written whole,
 * its signature over what it now says, in one statement. The sealer's lock
 * makes the pass the only writer of its trail.
 */
export async function recordSeals(
  tx: Tx,
  trail: Trail,
  seals: readonly Seal[],
  today: string,
  todays: ReadonlyMap<string, ChainHead['today']>,
  key: SealKey | null,
): Promise<void> {
  if (seals.length === 0) return;
  const whole = seals.map((s) => {
    const before = todays.get(s.chainKey);
    return before ? { ...s, firstPosition: before.firstPosition, firstPrev: before.firstPrev, links: before.links + s.links } : s;
  });
  const signatures = whole.map((s) => (key === null ? null : signSeal(key, factsOf(s, today))));
  const column = <T>(values: T[], type: string) => sql.array(values as never[], type);
  const values = sql.fragment`${column(
    whole.map((s) => s.firstPosition),
    'int8',
  )}, ${column(
    whole.map((s) => s.lastPosition),
    'int8',
  )}, ${column(
    whole.map((s) => s.links),
    'int8',
  )}, ${column(
    whole.map((s) => hex(s.firstPrev)),
    'text',
  )}, ${column(
    whole.map((s) => hex(s.lastHash)),
    'text',
  )}, ${column(
    signatures.map((g) => g?.kid ?? null),
    'text',
  )}, ${column(
    signatures.map((g) => g?.signedAt ?? null),
    'timestamptz',
  )}, ${column(
    signatures.map((g) => (g === null ? null : g.signature.toString('hex'))),
    'text',
  )}`;
  const grow = sql.fragment`SET first_position = EXCLUDED.first_position, last_position = EXCLUDED.last_position,
    links = EXCLUDED.links, first_prev = EXCLUDED.first_prev, last_hash = EXCLUDED.last_hash, sealed_at = now(),
    kid = EXCLUDED.kid, signed_at = EXCLUDED.signed_at, signature = EXCLUDED.signature`;
  if (trail.kind === 'tenants') {
    await tx.query(sql.unsafe`
      INSERT INTO audit_seals (tenant_id, mode, period, first_position, last_position, links, first_prev, last_hash, kid, signed_at, signature)
      SELECT t, m, ${today}::date, f, l, n, decode(fp, 'hex'), decode(lh, 'hex'), k, sa, decode(sg, 'hex')
      FROM unnest(${column(
        whole.map((s) => s.tenantId),
        'uuid',
      )}, ${column(
        whole.map((s) => s.mode),
        'text',
      )}, ${values}) AS x(t, m, f, l, n, fp, lh, k, sa, sg)
      ON CONFLICT (tenant_id, mode, period) DO UPDATE ${grow}`);
    return;
  }
  await tx.query(sql.unsafe`
    INSERT INTO audit_refusal_seals (period, first_position, last_position, links, first_prev, last_hash, kid, signed_at, signature)
    SELECT ${today}::date, f, l, n, decode(fp, 'hex'), decode(lh, 'hex'), k, sa, decode(sg, 'hex')
    FROM unnest(${values}) AS x(f, l, n, fp, lh, k, sa, sg)
    ON CONFLICT (chain_key, period) DO UPDATE ${grow}`);
}

const Unsigned = z.object({
  tenant_id: z.string().nullable(),
  mode: z.string().nullable(),
  period: z.string(),
  first_position: z.number(),
  last_position: z.number(),
  links: z.number(),
  first_prev: z.instanceof(Buffer),
  last_hash: z.instanceof(Buffer),
});

/**
 * Signs up to `limit` seals not signed yet (made before 000140, or by a pass
 * without the key), one statement each: a look-up of the partial index of
 * unsigned seals, empty once every seal is signed. Each update names its
 * tenant, so on Citus it goes to the one shard that holds the seal.
 */
export async function signUnsignedSeals(tx: Tx, trail: Trail, key: SealKey, limit: number): Promise<number> {
  const rows =
    trail.kind === 'tenants'
      ? await tx.any(sql.type(Unsigned)`
          SELECT tenant_id, mode, period::text AS period, first_position, last_position, links, first_prev, last_hash
          FROM audit_seals WHERE signature IS NULL ORDER BY tenant_id, mode, period LIMIT ${limit}`)
      : await tx.any(sql.type(Unsigned)`
          SELECT NULL::uuid AS tenant_id, NULL::text AS mode, period::text AS period, first_position, last_position, links,
                 first_prev, last_hash
          FROM audit_refusal_seals WHERE signature IS NULL ORDER BY chain_key, period LIMIT ${limit}`);
  for (const r of rows) {
    const seal: Seal = {
      chainKey: r.tenant_id === null ? 'anonymous' : `${r.tenant_id}:${r.mode}`,
      tenantId: r.tenant_id,
      mode: r.mode,
      firstPosition: r.first_position,
      lastPosition: r.last_position,
      links: r.links,
      firstPrev: r.first_prev,
      lastHash: r.last_hash,
    };
    const g = signSeal(key, factsOf(seal, r.period));
    const set = sql.fragment`SET kid = ${g.kid}, signed_at = ${g.signedAt}::timestamptz, signature = ${sql.binary(g.signature)}`;
    await tx.query(
      r.tenant_id === null
        ? sql.unsafe`UPDATE audit_refusal_seals ${set} WHERE chain_key = 'anonymous' AND period = ${r.period}::date AND signature IS NULL`
        : sql.unsafe`UPDATE audit_seals ${set} WHERE tenant_id = ${r.tenant_id} AND mode = ${r.mode} AND period = ${r.period}::date
            AND signature IS NULL`,
    );
  }
  return rows.length;
}

const SealRow = z.object({
  period: z.string(),
  first_position: z.number(),
  last_position: z.number(),
  links: z.number(),
  first_prev: z.instanceof(Buffer),
  last_hash: z.instanceof(Buffer),
  sealed_at: z.string(),
  kid: z.string().nullable(),
  signed_at: z.string().nullable(),
  signature: z.instanceof(Buffer).nullable(),
});
export type SealRow = z.infer<typeof SealRow>;

/**
 * A tenant chain's seals whose period lies within [from, to] (dates, UTC),
 * in order; under the tenant's row-level security when tx is the tenant's.
 * The closing seal of what was sealed before 000120 (period -infinity)
 * belongs to the day it was made, the migration's: an export of a period
 * holding that day starts from the chain's first link, so the tenant
 * verifies its rows written before the migration too.
 */
export async function sealsOf(db: Db | Tx, tenantId: string, mode: string, from: string, to: string): Promise<readonly SealRow[]> {
  return db.any(sql.type(SealRow)`
    SELECT period::text AS period, first_position, last_position, links, first_prev, last_hash, sealed_at, kid, signed_at, signature
    FROM audit_seals WHERE tenant_id = ${tenantId} AND mode = ${mode}
      AND (period BETWEEN ${from}::date AND ${to}::date
           OR (period = '-infinity' AND (sealed_at AT TIME ZONE 'UTC')::date BETWEEN ${from}::date AND ${to}::date))
    ORDER BY period`);
}

/** Every seal of a chain of either trail, in order (the operator's verification). */
export async function chainSeals(db: Db | Tx, trail: Trail, chainKey: string): Promise<readonly SealRow[]> {
  if (trail.kind === 'refusals') {
    return db.any(sql.type(SealRow)`
      SELECT period::text AS period, first_position, last_position, links, first_prev, last_hash, sealed_at, kid, signed_at, signature
      FROM audit_refusal_seals WHERE chain_key = ${chainKey} ORDER BY period`);
  }
  const [tenantId, mode] = chainKey.split(':');
  return sealsOf(db, tenantId!, mode!, '-infinity', 'infinity');
}
