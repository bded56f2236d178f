import pg from 'pg';
import { databaseUrl } from './service.js';

/**
 * `--seed-entities N` (issue 15): before the load starts, the bench tenant
 * already holds N entities, each with an email and a phone as identifiers
 * and one concluded inquiry with its ledger entry from a month ago, as a
 * tenant that has been using the service for a while would. The rows are
 * generated inside PostgreSQL (INSERT ... SELECT over generate_series, the
 * fastest bulk path there is: nothing crosses the socket), as the owner, in
 * batches, and the tables are then left unanalysed on purpose: the hot
 * queries must keep their plans before autovacuum gets to them.
 *
 * The seeded values (`seed-<n>@seed.example`, `+1555<n>`) never collide with
 * the load's own subjects, so every inquiry of the run is still about a new
 * subject; what changes is how much the tenant's tables hold around it.
 */
const BATCH = 200_000;

export async function seedEntities(dbName: string, tenantId: string, total: number, log: (line: string) => void, first = 1): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl(dbName) });
  await client.connect();
  try {
    await client.query('SET synchronous_commit = off');
    const started = Date.now();
    for (let from = first; from <= total; from += BATCH) {
      const to = Math.min(total, from + BATCH - 1);
      await seedBatch(client, tenantId, from, to);
      log(`seeded ${to} of ${total} entities (${Math.round((Date.now() - started) / 1000)} s)`);
    }
  } finally {
    await client.end();
  }
}

async function seedBatch(client: pg.Client, tenantId: string, from: number, to: number): Promise<void> {
  const range = [tenantId, from, to];
  await client.query('BEGIN');
  await client.query(
    `
    INSERT INTO entities (id, tenant_id, mode, created_at)
    SELECT md5('seed-entity-' || g)::uuid, $1, 'live', now() - interval '30 days'
    FROM generate_series($2::int, $3::int) g`,
    range,
  );
  await client.query(
    `
    INSERT INTO entity_identifiers (tenant_id, mode, type, normalised, value, entity_id, first_seen_at)
    SELECT $1, 'live', t.type, t.value, t.value, md5('seed-entity-' || g)::uuid, now() - interval '30 days'
    FROM generate_series($2::int, $3::int) g,
         LATERAL (VALUES ('EMAIL', 'seed-' || g || '@seed.example'), ('PHONE', '+1555' || lpad(g::text, 7, '0'))) AS t(type, value)`,
    range,
  );
  await client.query(
    `
    INSERT INTO inquiries (id, tenant_id, mode, entity_id, status, intent, purpose, request, principal, created_at, concluded_at)
    SELECT md5('seed-inquiry-' || g)::uuid, $1, 'live', md5('seed-entity-' || g)::uuid, 'concluded', 'onboarding', 'fraud_prevention',
      jsonb_build_object('presentations', jsonb_build_array(
        jsonb_build_object('type', 'EMAIL', 'value', 'seed-' || g || '@seed.example', 'normalised', 'seed-' || g || '@seed.example'))),
      'key:seed', now() - interval '30 days', now() - interval '30 days'
    FROM generate_series($2::int, $3::int) g`,
    range,
  );
  await client.query(
    `
    INSERT INTO assessments (id, tenant_id, mode, inquiry_id, entity_id, score, low, high, preliminary, as_of, methodology_version, evidence, inputs)
    SELECT md5('seed-assessment-' || g)::uuid, $1, 'live', md5('seed-inquiry-' || g)::uuid, md5('seed-entity-' || g)::uuid,
      50, 5, 95, false, now() - interval '30 days', 'trust-method/2',
      '{"signals": 0, "failed_signals": 0, "contradictions": 0}'::jsonb,
      jsonb_build_object('as_of', now() - interval '30 days', 'evidence', '[]'::jsonb, 'absences', 0)
    FROM generate_series($2::int, $3::int) g`,
    range,
  );
  await client.query('COMMIT');
}
