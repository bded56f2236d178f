import { randomUUID } from 'node:crypto';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NormalisedPresentation } from '../../src/checks/types.js';
import { createDb, withTenant, type Db, type Mode } from '../../src/platform/db/pool.js';
import { loadEnvironment } from '../../src/entities/history.js';
import { EntityNotFoundError, resolveEntity, survivorOf, type Resolution } from '../../src/entities/resolve.js';
import { provisionTenant } from '../../src/tenancy/provision.js';
import { cloneDatabase } from '../support/database.js';

/**
 * Entity resolution against real Postgres, as the service role under
 * row-level security, exactly as the inquiry path calls it.
 */
let db: Db;
let drop: () => Promise<void>;
let tenantA: string;
let tenantB: string;

beforeAll(async () => {
  const clone = await cloneDatabase();
  drop = clone.drop;
  db = await createDb(clone.url);
  tenantA = (await provisionTenant(db, 'test-pepper', { name: 'tenant-a', investigative: false })).tenant_id;
  tenantB = (await provisionTenant(db, 'test-pepper', { name: 'tenant-b', investigative: false })).tenant_id;
});

afterAll(async () => {
  await db.end();
  await drop();
});

/**
 * Fixtures carry their canonical form explicitly (as src/checks/normalise.ts
 * would give it), so these tests exercise resolution and nothing else.
 */
function p(type: string, value: string, normalised?: string): NormalisedPresentation {
  const canonical = normalised ?? (type === 'PHONE' ? value.replace(/\s+/g, '') : value.trim().toLowerCase());
  return { type, value, normalised: canonical };
}

function resolve(tenantId: string, presentations: NormalisedPresentation[], entityId?: string, mode: Mode = 'live'): Promise<Resolution> {
  return withTenant(db, { tenantId, mode }, (tx) => resolveEntity(tx, { tenantId, mode }, presentations, { entityId }));
}

async function ownerOf(type: string, normalised: string): Promise<string | null> {
  return db.maybeOneFirst(sql.unsafe`SELECT entity_id FROM entity_identifiers WHERE type = ${type} AND normalised = ${normalised}`);
}

async function entityCount(): Promise<number> {
  return db.oneFirst(sql.unsafe`SELECT count(*)::int FROM entities`);
}

describe('resolveEntity', () => {
  it('given a value never seen, then a new entity owns it', async () => {
    const r = await resolve(tenantA, [p('EMAIL', 'new.one@example.com')]);
    expect(r.merged).toEqual([]);
    expect(r.created).toBe(true);
    expect(await ownerOf('EMAIL', 'new.one@example.com')).toBe(r.entityId);
  });

  it('given a value seen before, written differently, then the same entity', async () => {
    const first = await resolve(tenantA, [p('EMAIL', 'same@example.com')]);
    const again = await resolve(tenantA, [p('EMAIL', '  SAME@Example.com ')]);
    expect(again).toEqual({ entityId: first.entityId, merged: [], created: false });
  });

  it('given a known anchor and a new anchor of its type, then the new one joins the known entity', async () => {
    const first = await resolve(tenantA, [p('EMAIL', 'grow@example.com')]);
    const again = await resolve(tenantA, [p('EMAIL', 'grow@example.com'), p('EMAIL', 'grow.too@example.com')]);
    expect(again.entityId).toBe(first.entityId);
    expect(await ownerOf('EMAIL', 'grow.too@example.com')).toBe(first.entityId);
  });

  it('given a phone beside an email, then the phone is linked to the entity, never owned or merged on', async () => {
    const phoneOnly = await resolve(tenantA, [p('PHONE', '+44 7400 100009')]);
    const first = await resolve(tenantA, [p('EMAIL', 'link.one@example.com'), p('PHONE', '+44 7400 100009')]);
    const second = await resolve(tenantA, [p('EMAIL', 'link.two@example.com'), p('PHONE', '+44 7400 100009')]);
    expect(new Set([phoneOnly.entityId, first.entityId, second.entityId]).size).toBe(3);
    expect([first.merged, second.merged]).toEqual([[], []]);
    expect(await ownerOf('PHONE', '+447400100009')).toBe(phoneOnly.entityId);
    const links = await db.anyFirst(
      sql.unsafe`SELECT entity_id FROM entity_links WHERE normalised = '+447400100009' ORDER BY first_seen_at`,
    );
    expect(links).toEqual([first.entityId, second.entityId]);
  });

  it('given anchors owned by two entities, then they merge into the oldest', async () => {
    const older = await resolve(tenantA, [p('EMAIL', 'merge.a@example.com')]);
    const newer = await resolve(tenantA, [p('EMAIL', 'merge.b@example.com')]);
    const both = await resolve(tenantA, [p('EMAIL', 'merge.b@example.com'), p('EMAIL', 'merge.a@example.com')]);
    expect(both).toEqual({ entityId: older.entityId, merged: [newer.entityId], created: false });
    expect(await ownerOf('EMAIL', 'merge.b@example.com')).toBe(older.entityId);
    const absorbed = await withTenant(db, { tenantId: tenantA, mode: 'live' }, (tx) => survivorOf(tx, newer.entityId));
    expect(absorbed?.id).toBe(older.entityId);
    // Presenting the absorbed entity's id now answers the survivor.
    expect((await resolve(tenantA, [], newer.entityId)).entityId).toBe(older.entityId);
  });

  it('given an explicit entity_id and a value of another entity, then they merge', async () => {
    const first = await resolve(tenantA, [p('ACCOUNT', 'seller-001')]);
    const second = await resolve(tenantA, [p('ACCOUNT', 'seller-002')]);
    const joined = await resolve(tenantA, [p('ACCOUNT', 'seller-002')], first.entityId);
    expect(joined).toEqual({ entityId: first.entityId, merged: [second.entityId], created: false });
  });

  it.each([
    ['an unknown uuid', randomUUID()],
    ['a value that is not a uuid', 'not-an-id'],
  ])('given %s as entity_id, then a typed not-found error', async (_given, id) => {
    await expect(resolve(tenantA, [p('EMAIL', 'whoever@example.com')], id)).rejects.toBeInstanceOf(EntityNotFoundError);
  });

  it('given names and IP addresses only, then nothing is merged on them', async () => {
    const a = await resolve(tenantA, [p('NAME', 'Jane Smith'), p('IP', '203.0.113.9')]);
    const b = await resolve(tenantA, [p('NAME', 'Jane Smith'), p('IP', '203.0.113.9')]);
    expect(a.entityId).not.toBe(b.entityId);
    expect(await ownerOf('NAME', 'Jane Smith')).toBeNull();
  });

  it('given a domain alone, then the site is the subject and resolves; beside an email it does not', async () => {
    const site = await resolve(tenantA, [p('DOMAIN', 'shop.example.org')]);
    expect((await resolve(tenantA, [p('DOMAIN', 'SHOP.example.org')])).entityId).toBe(site.entityId);
    const person = await resolve(tenantA, [p('EMAIL', 'owner@shop.example.org'), p('DOMAIN', 'shop.example.org')]);
    expect(person.entityId).not.toBe(site.entityId);
    expect(await ownerOf('DOMAIN', 'shop.example.org')).toBe(site.entityId);
    expect(await ownerOf('EMAIL', 'owner@shop.example.org')).toBe(person.entityId);
  });

  it('given the same new value presented concurrently, then exactly one entity owns it', async () => {
    const before = await entityCount();
    // Every transaction is open before any resolves, so they truly overlap.
    const racers = 8;
    let arrived = 0;
    let release!: () => void;
    const allOpen = new Promise<void>((r) => {
      release = r;
    });
    const results = await Promise.all(
      Array.from({ length: racers }, () =>
        withTenant(db, { tenantId: tenantA, mode: 'live' }, async (tx) => {
          arrived += 1;
          if (arrived === racers) release();
          await allOpen;
          return resolveEntity(tx, { tenantId: tenantA, mode: 'live' }, [p('EMAIL', 'race@example.com')]);
        }),
      ),
    );
    expect(new Set(results.map((r) => r.entityId)).size).toBe(1);
    expect(await entityCount()).toBe(before + 1);
  });

  it('given concurrent presentations that overlap pairwise, then they end as one survivor', async () => {
    const values = ['+44 7400 200001', '+44 7400 200002', '+44 7400 200003', '+44 7400 200004'];
    await Promise.all(values.map((v) => resolve(tenantA, [p('PHONE', v)])));
    await Promise.all(values.slice(1).map((v, i) => resolve(tenantA, [p('PHONE', values[i]!), p('PHONE', v)])));
    const final = await resolve(
      tenantA,
      values.map((v) => p('PHONE', v)),
    );
    const owners = await Promise.all(values.map((v) => ownerOf('PHONE', p('PHONE', v).normalised)));
    const survivors = await withTenant(db, { tenantId: tenantA, mode: 'live' }, async (tx) =>
      Promise.all(owners.map(async (o) => (await survivorOf(tx, o!))?.id)),
    );
    expect(new Set(survivors)).toEqual(new Set([final.entityId]));
  });
});

describe('resolveEntity for an inquiry (deferWrites, whenNew)', () => {
  // Fails with a division by zero whenever it is evaluated: it must be only when there are no owners.
  const failsIfAsked = () => sql.fragment`(SELECT 1 / (count(*) - count(*))::int FROM entities)`;

  function resolveDeferred(
    presentations: NormalisedPresentation[],
    whenNew: (id: string) => ReturnType<typeof sql.fragment>,
    entityId?: string,
  ) {
    return withTenant(db, { tenantId: tenantA, mode: 'live' }, async (tx) => {
      const r = await resolveEntity(tx, { tenantId: tenantA, mode: 'live' }, presentations, { entityId, deferWrites: true, whenNew });
      // The caller sends the deferred rows in its last statement; here, as the inquiry does, in one.
      const writes = r.writes ?? [];
      if (writes.length > 0) {
        const ctes = writes.map((w, i) => sql.fragment`${sql.identifier([`w${i}`])} AS (${w.sql})`);
        await tx.query(sql.unsafe`WITH ${sql.join(ctes, sql.fragment`, `)} SELECT 1`);
      }
      return r;
    });
  }

  it("given a new value, then the new entity's question is answered with the owners, and its rows wait for the caller", async () => {
    const r = await resolveDeferred(
      [p('EMAIL', 'deferred.new@example.com')],
      (id) => sql.fragment`json_build_object('asked_for', ${id}::text)`,
    );
    expect(r.created).toBe(true);
    expect(r.alongside).toEqual({ asked_for: r.entityId });
    expect(r.writes?.map((w) => w.table)).toEqual(['entities', 'entity_identifiers', 'entity_links']);
    expect(await ownerOf('EMAIL', 'deferred.new@example.com')).toBe(r.entityId);
  });

  it('given a known value, then the question is never evaluated, and its new values wait for the caller', async () => {
    const first = await resolve(tenantA, [p('EMAIL', 'deferred.known@example.com')]);
    const again = await resolveDeferred(
      [p('EMAIL', 'deferred.known@example.com'), p('EMAIL', 'deferred.known.too@example.com'), p('PHONE', '+44 7400 500001')],
      failsIfAsked,
    );
    expect([again.entityId, again.merged, again.created, again.alongside]).toEqual([first.entityId, [], false, undefined]);
    expect(again.writes?.map((w) => w.table)).toEqual(['entity_identifiers', 'entity_links']);
    expect(await ownerOf('EMAIL', 'deferred.known.too@example.com')).toBe(first.entityId);
  });

  it('given values of two entities, then they merge at once and nothing is deferred', async () => {
    const older = await resolve(tenantA, [p('EMAIL', 'deferred.merge.a@example.com')]);
    const newer = await resolve(tenantA, [p('EMAIL', 'deferred.merge.b@example.com')]);
    const both = await resolveDeferred(
      [p('EMAIL', 'deferred.merge.a@example.com'), p('EMAIL', 'deferred.merge.b@example.com')],
      failsIfAsked,
    );
    expect(both).toEqual({ entityId: older.entityId, merged: [newer.entityId], created: false });
    expect(await ownerOf('EMAIL', 'deferred.merge.b@example.com')).toBe(older.entityId);
  });

  it('given an explicit entity and a value of another, then they merge into the oldest, as without the question', async () => {
    const first = await resolve(tenantA, [p('ACCOUNT', 'deferred-seller-001')]);
    const second = await resolve(tenantA, [p('ACCOUNT', 'deferred-seller-002')]);
    expect(await resolveDeferred([p('ACCOUNT', 'deferred-seller-002')], failsIfAsked, first.entityId)).toEqual({
      entityId: first.entityId,
      merged: [second.entityId],
      created: false,
    });
    const third = await resolve(tenantA, [p('ACCOUNT', 'deferred-seller-003')]);
    expect(await resolveDeferred([p('ACCOUNT', 'deferred-seller-001')], failsIfAsked, third.entityId)).toEqual({
      entityId: first.entityId,
      merged: [third.entityId],
      created: false,
    });
  });

  it('given no resolving value, then the question is asked on its own', async () => {
    const r = await resolveDeferred([p('NAME', 'Jane Smith')], () => sql.fragment`json_build_object('alone', true)`);
    expect([r.created, r.alongside]).toEqual([true, { alone: true }]);
  });

  it('given the same new value presented concurrently, then exactly one entity owns it', async () => {
    const before = await entityCount();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => resolveDeferred([p('EMAIL', 'deferred.race@example.com')], () => sql.fragment`json_build_object()`)),
    );
    expect(new Set(results.map((r) => r.entityId)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await entityCount()).toBe(before + 1);
  });
});

describe('loadEnvironment in one statement', () => {
  it("given an absorbed entity's id, then the history is its survivor's, over every member, as the separate reads gave it", async () => {
    const older = await resolve(tenantA, [p('EMAIL', 'one.statement@example.com'), p('PHONE', '+44 7400 600001')]);
    const newer = await resolve(tenantA, [p('EMAIL', 'one.statement.alias@example.com'), p('PHONE', '+44 7400 600002')]);
    await resolve(tenantA, [p('EMAIL', 'one.statement@example.com'), p('EMAIL', 'one.statement.alias@example.com')]);
    const subject = [p('EMAIL', 'one.statement@example.com')];
    const env = await withTenant(db, { tenantId: tenantA, mode: 'live' }, (tx) => loadEnvironment(tx, newer.entityId, subject));
    expect(env.graph.coPresented.map((k) => k.normalised).sort()).toEqual([
      '+447400600001',
      '+447400600002',
      'one.statement.alias@example.com',
    ]);
    expect(env.graph.shared).toEqual([
      { type: 'EMAIL', value: 'one.statement@example.com', normalised: 'one.statement@example.com', otherEntities: 0, adverseEntities: 0 },
    ]);
    const bySurvivor = await withTenant(db, { tenantId: tenantA, mode: 'live' }, (tx) => loadEnvironment(tx, older.entityId, subject));
    expect(bySurvivor).toEqual(env);
  });

  it('given an unknown entity id, then an empty history', async () => {
    const env = await withTenant(db, { tenantId: tenantA, mode: 'live' }, (tx) => loadEnvironment(tx, randomUUID(), [p('NAME', 'Nobody')]));
    expect(env).toEqual({
      velocity: [],
      history: { assessments: [], observations: [], outcomes: [] },
      graph: { shared: [], coPresented: [] },
    });
  });
});

describe('tenancy', () => {
  it("given tenant A's entity, then tenant B cannot see it or present it", async () => {
    const a = await resolve(tenantA, [p('EMAIL', 'private@example.com')]);
    const seen = await withTenant(db, { tenantId: tenantB, mode: 'live' }, (tx) => survivorOf(tx, a.entityId));
    expect(seen).toBeNull();
    await expect(resolve(tenantB, [], a.entityId)).rejects.toBeInstanceOf(EntityNotFoundError);
    const b = await resolve(tenantB, [p('EMAIL', 'private@example.com')]);
    expect(b.entityId).not.toBe(a.entityId);
  });

  it('given the same value in test mode, then a separate entity from live', async () => {
    const live = await resolve(tenantA, [p('EMAIL', 'modes@example.com')]);
    const test = await resolve(tenantA, [p('EMAIL', 'modes@example.com')], undefined, 'test');
    expect(test.entityId).not.toBe(live.entityId);
    await expect(resolve(tenantA, [], live.entityId, 'test')).rejects.toBeInstanceOf(EntityNotFoundError);
  });
});

describe('loadEnvironment', () => {
  async function assess(entityId: string, score: number, asOf: string): Promise<void> {
    const inquiryId = randomUUID();
    await db.query(sql.unsafe`
      INSERT INTO inquiries (id, tenant_id, mode, entity_id, status, intent, purpose, request, principal)
      VALUES (${inquiryId}, ${tenantA}, 'live', ${entityId}, 'concluded', 'onboarding', 'fraud_prevention', '{}', 'test')`);
    await db.query(sql.unsafe`
      INSERT INTO assessments (id, tenant_id, mode, inquiry_id, entity_id, score, low, high, preliminary, as_of,
                               methodology_version, evidence, inputs)
      VALUES (${randomUUID()}, ${tenantA}, 'live', ${inquiryId}, ${entityId}, ${score}, ${score - 10}, ${score + 10},
              false, ${asOf}, 'test', '{}', '{}')`);
  }

  async function testify(entityId: string, kind: 'observation' | 'outcome', body: Record<string, unknown>, at: string) {
    await db.query(sql.unsafe`
      INSERT INTO observations (id, tenant_id, mode, entity_id, kind, provenance_class, body, observed_at)
      VALUES (${randomUUID()}, ${tenantA}, 'live', ${entityId}, ${kind}, 'tenant_supplied', ${sql.jsonb(body as never)}, ${at})`);
  }

  it('given a merged entity, then history spans its members, oldest first', async () => {
    const older = await resolve(tenantA, [p('EMAIL', 'history@example.com')]);
    const newer = await resolve(tenantA, [p('EMAIL', 'history.alias@example.com')]);
    await assess(newer.entityId, 40, '2025-01-01T00:00:00.000Z');
    await assess(older.entityId, 60, '2025-02-01T00:00:00.000Z');
    await testify(newer.entityId, 'observation', { summary: 'Paid on time.' }, '2025-01-05T00:00:00.000Z');
    await testify(older.entityId, 'outcome', { kind: 'defaulted' }, '2025-02-05T00:00:00.000Z');
    const subject = [p('EMAIL', 'history@example.com'), p('EMAIL', 'history.alias@example.com')];
    const merged = await resolve(tenantA, subject);
    const env = await withTenant(db, { tenantId: tenantA, mode: 'live' }, (tx) => loadEnvironment(tx, merged.entityId, subject));
    expect(env.history.assessments.map((a) => a.score)).toEqual([40, 60]);
    expect(env.history.assessments[0]).toEqual({ score: 40, low: 30, high: 50, as_of: '2025-01-01T00:00:00.000Z' });
    expect(env.history.observations).toEqual([
      {
        id: expect.any(String),
        provenance_class: 'tenant_supplied',
        summary: 'Paid on time.',
        observed_at: '2025-01-05T00:00:00.000Z',
        stance: 'neutral',
      },
    ]);
    expect(env.history.outcomes).toEqual([{ kind: 'defaulted', observed_at: '2025-02-05T00:00:00.000Z' }]);
  });

  it('given a value owned by another entity, then the graph counts it; names are never counted', async () => {
    await resolve(tenantA, [p('DOMAIN', 'graph-shop.example.net')]);
    const subject = [p('EMAIL', 'buyer@example.com'), p('DOMAIN', 'graph-shop.example.net'), p('NAME', 'Jane Smith')];
    const person = await resolve(tenantA, subject);
    await resolve(tenantA, [p('EMAIL', 'buyer@example.com'), p('PHONE', '+44 7400 400001')]);
    const env = await withTenant(db, { tenantId: tenantA, mode: 'live' }, (tx) => loadEnvironment(tx, person.entityId, subject));
    expect(env.graph.shared).toEqual([
      { type: 'EMAIL', value: 'buyer@example.com', normalised: 'buyer@example.com', otherEntities: 0, adverseEntities: 0 },
      { type: 'DOMAIN', value: 'graph-shop.example.net', normalised: 'graph-shop.example.net', otherEntities: 1, adverseEntities: 0 },
    ]);
    expect(env.graph.coPresented).toEqual([{ type: 'PHONE', value: '+44 7400 400001', normalised: '+447400400001' }]);
  });

  it('given an entity with no past, then empty history', async () => {
    const fresh = await resolve(tenantA, [p('EMAIL', 'fresh@example.com')]);
    const env = await withTenant(db, { tenantId: tenantA, mode: 'live' }, (tx) =>
      loadEnvironment(tx, fresh.entityId, [p('EMAIL', 'fresh@example.com')]),
    );
    expect(env.history).toEqual({ assessments: [], observations: [], outcomes: [] });
  });
});
