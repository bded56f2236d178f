import { randomUUID } from 'node:crypto';
import type pg from 'pg';

/**
 * One row per tenant-owned table, written as the owner: the fixtures of the
 * row-level security tests (test/db/rls.test.ts, test/db/rlsEscape.test.ts).
 * Every table with a tenant_id column must have one, so that a new table
 * cannot slip through untested.
 */
export type Fixture = (c: pg.Client, tenant: string, mode: 'live' | 'test') => Promise<void>;

export const FIXTURES: Record<string, Fixture> = {
  tenant_grants: async (c, t, m) => {
    await c.query(`INSERT INTO tenant_grants VALUES ($1, $2, 'purpose', 'fraud_prevention')`, [t, m]);
  },
  api_keys: async (c, t, m) => {
    await c.query(
      `INSERT INTO api_keys (id, tenant_id, mode, name, scopes, salt, hash) VALUES ($1, $2, $3, 'k', '{admin}', '\\x00', '\\x00')`,
      [randomUUID(), t, m],
    );
  },
  audit_log: async (c, t, m) => {
    await c.query(
      `INSERT INTO audit_log (audit_id, occurred_at, tenant_id, mode, principal, action, status) VALUES ($1, now(), $2, $3, 'p', 'a', 200)`,
      [randomUUID(), t, m],
    );
  },
  actors: async (c, t, m) => {
    await c.query(
      `INSERT INTO actors (id, tenant_id, mode, kind, machine_version, snapshot, version) VALUES ($1, $2, $3, 'inquiry', 1, '{}', 1)`,
      [randomUUID(), t, m],
    );
  },
  actor_events: async (c, t, m) => {
    await c.query(`INSERT INTO actor_events (stream_id, seq, tenant_id, mode, type, payload) VALUES ($1, 1, $2, $3, 'X', '{}')`, [
      randomUUID(),
      t,
      m,
    ]);
  },
  outbox: async (c, t, m) => {
    await c.query(`INSERT INTO outbox (tenant_id, mode, kind, payload, dispatched_at) VALUES ($1, $2, 'publish', '{}', now())`, [t, m]);
  },
  policies: async (c, t, m) => {
    await c.query(`INSERT INTO policies (tenant_id, mode, version, body, created_by) VALUES ($1, $2, 1, '{}', 'p')`, [t, m]);
  },
  entities: async (c, t, m) => {
    await c.query(`INSERT INTO entities (id, tenant_id, mode) VALUES ($1, $2, $3)`, [randomUUID(), t, m]);
  },
  entity_identifiers: async (c, t, m) => {
    const e = randomUUID();
    await c.query(`INSERT INTO entities (id, tenant_id, mode) VALUES ($1, $2, $3)`, [e, t, m]);
    await c.query(
      `INSERT INTO entity_identifiers (tenant_id, mode, type, normalised, value, entity_id) VALUES ($1, $2, 'EMAIL', $3, 'v', $4)`,
      [t, m, randomUUID(), e],
    );
  },
  entity_links: async (c, t, m) => {
    const e = randomUUID();
    await c.query(`INSERT INTO entities (id, tenant_id, mode) VALUES ($1, $2, $3)`, [e, t, m]);
    await c.query(`INSERT INTO entity_links (tenant_id, mode, type, normalised, value, entity_id) VALUES ($1, $2, 'PHONE', $3, 'v', $4)`, [
      t,
      m,
      randomUUID(),
      e,
    ]);
  },
  inquiries: async (c, t, m) => {
    await insertInquiry(c, t, m);
  },
  assessments: async (c, t, m) => {
    const i = await insertInquiry(c, t, m);
    await c.query(
      `INSERT INTO assessments (id, tenant_id, mode, inquiry_id, score, low, high, preliminary, as_of, methodology_version, evidence, inputs)
      VALUES ($1, $2, $3, $4, 50, 5, 95, false, now(), 'trust-method/1', '{}', '{}')`,
      [randomUUID(), t, m, i],
    );
  },
  idempotency_keys: async (c, t, m) => {
    await c.query(`INSERT INTO idempotency_keys (tenant_id, mode, key, request_hash, inquiry_id) VALUES ($1, $2, $3, 'h', $4)`, [
      t,
      m,
      randomUUID(),
      randomUUID(),
    ]);
  },
  webhook_endpoints: async (c, t, m) => {
    await insertWebhookEndpoint(c, t, m);
  },
  webhook_deliveries: async (c, t, m) => {
    const e = await insertWebhookEndpoint(c, t, m);
    await c.query(
      `INSERT INTO webhook_deliveries (tenant_id, mode, endpoint_id, webhook_id, event_id, event_type, attempt, status)
      VALUES ($1, $2, $3, 'msg_x', $4, 'InquiryConcluded', 1, 'succeeded')`,
      [t, m, e, randomUUID()],
    );
  },
  audit_chain: async (c, t, m) => {
    const id = randomUUID();
    await c.query(
      `INSERT INTO audit_log (audit_id, occurred_at, tenant_id, mode, principal, action, status) VALUES ($1, now(), $2, $3, 'p', 'a', 200)`,
      [id, t, m],
    );
    await c.query(
      `INSERT INTO audit_chain (audit_id, occurred_at, chain_key, tenant_id, mode, position, prev_hash, hash)
       SELECT $1::uuid, occurred_at, $2::text, $3::uuid, $4::text, 1, '\\x00', '\\x00' FROM audit_log WHERE audit_id = $1::uuid`,
      [id, `${t}:${m}`, t, m],
    );
  },
  // The sealer's work list: the audit_log row's trigger lists it (000021, 000120).
  audit_unsealed: async (c, t, m) => {
    await c.query(
      `INSERT INTO audit_log (audit_id, occurred_at, tenant_id, mode, principal, action, status) VALUES ($1, now(), $2, $3, 'p', 'a', 200)`,
      [randomUUID(), t, m],
    );
  },
  audit_chain_retained: async (c, t, m) => {
    await c.query(
      `INSERT INTO audit_chain_retained (chain_key, tenant_id, mode, first_position, last_position, first_prev, last_hash, month)
       VALUES ($1, $2, $3, 1, 1, '\\x00', '\\x00', '2020-01-01')`,
      [`${t}:${m}`, t, m],
    );
  },
  audit_seals: async (c, t, m) => {
    await c.query(
      `INSERT INTO audit_seals (tenant_id, mode, period, first_position, last_position, links, first_prev, last_hash)
       VALUES ($1, $2, '2020-01-01', 1, 1, 1, '\\x00', '\\x00')`,
      [t, m],
    );
  },
  monitors: async (c, t, m) => {
    await c.query(
      `INSERT INTO monitors (id, tenant_id, mode, subject, intent, purpose, stake, triggers, cadence_seconds, created_by, created_by_key_id, state)
      VALUES ($1, $2, $3, '{}', 'i', 'p', '{}', '{}', 60, 'key:k', $4, 'active')`,
      [randomUUID(), t, m, randomUUID()],
    );
  },
  observations: async (c, t, m) => {
    await c.query(
      `INSERT INTO observations (id, tenant_id, mode, kind, provenance_class, body, observed_at) VALUES ($1, $2, $3, 'observation', 'tenant_supplied', '{}', now())`,
      [randomUUID(), t, m],
    );
  },
  sessions: async (c, t, m) => {
    await insertSession(c, t, m);
  },
  session_frames: async (c, t, m) => {
    const s = await insertSession(c, t, m);
    await c.query(
      `INSERT INTO session_frames (session_id, seq, tenant_id, mode, type, size_bytes, content_sha256, outcome)
      VALUES ($1, 1, $2, $3, 'text', 10, repeat('0', 64), 'accepted')`,
      [s, t, m],
    );
  },
  material: async (c, t, m) => {
    await insertMaterial(c, t, m);
  },
  material_content: async (c, t, m) => {
    await c.query(`INSERT INTO material_content (tenant_id, mode, sha256, size, content) VALUES ($1, $2, repeat('0', 64), 1, 'x')`, [t, m]);
  },
  request_replays: async (c, t, m) => {
    await c.query(`INSERT INTO request_replays (tenant_id, mode, operation, key, request_hash) VALUES ($1, $2, 'createCase', 'k', 'h')`, [
      t,
      m,
    ]);
  },
  material_bytes: async (c, t, m) => {
    await c.query(`INSERT INTO material_bytes (tenant_id, mode, sha256, seq, chunk) VALUES ($1, $2, repeat('0', 64), 0, '\\x00')`, [t, m]);
  },
  material_extractions: async (c, t, m) => {
    const id = await insertMaterial(c, t, m);
    await c.query(
      `INSERT INTO material_extractions (binding_id, tenant_id, mode, material_id, seq, type, value, target_kind, target_id, locator_kind, locator, confidence)
      VALUES ($1, $2, $3, $4, 0, 'EMAIL', 'a@example.com', 'artifact', 'EMAIL:a@example.com', 'text', '{"start":0,"end":13}', 0.9)`,
      [randomUUID(), t, m, id],
    );
  },
  case_exports: async (c, t, m) => {
    await c.query(
      `INSERT INTO case_exports (id, tenant_id, mode, case_id, case_sequence, format, status, requested_by)
      VALUES ($1, $2, $3, $4, 1, 'bundle', 'queued', 'key:test')`,
      [randomUUID(), t, m, randomUUID()],
    );
  },
};

async function insertMaterial(c: pg.Client, t: string, m: string): Promise<string> {
  const id = `mat_${randomUUID()}`;
  await c.query(
    `INSERT INTO material (id, tenant_id, mode, kind, media_type, purpose, sha256, size, retention_mode, data_class, status)
    VALUES ($1, $2, $3, 'text', 'text/plain', 'p', repeat('0', 64), 1, 'standard', 'C1', 'extracted')`,
    [id, t, m],
  );
  return id;
}

async function insertSession(c: pg.Client, t: string, m: string): Promise<string> {
  const id = randomUUID();
  const key = randomUUID();
  await c.query(
    `INSERT INTO api_keys (id, tenant_id, mode, name, scopes, salt, hash) VALUES ($1, $2, $3, 'k', '{sessions}', '\\x00', '\\x00')`,
    [key, t, m],
  );
  await c.query(
    `INSERT INTO sessions (id, tenant_id, mode, inquiry_id, opened_by_key, principal, purpose, retention_mode, idle_timeout_seconds, token_sha256, token_expires_at)
    VALUES ($1, $2, $3, $4, $5, 'key:k', 'p', 'transient', 300, '\\x00', now())`,
    [id, t, m, await insertInquiry(c, t, m), key],
  );
  return id;
}

async function insertWebhookEndpoint(c: pg.Client, t: string, m: string): Promise<string> {
  const id = randomUUID();
  await c.query(
    `INSERT INTO webhook_endpoints (id, tenant_id, mode, url, event_types, secret_sealed)
    VALUES ($1, $2, $3, 'https://hooks.example.com/tas', '{InquiryConcluded}', '\\x00')`,
    [id, t, m],
  );
  return id;
}

export async function insertInquiry(c: pg.Client, t: string, m: string): Promise<string> {
  const id = randomUUID();
  await c.query(
    `INSERT INTO inquiries (id, tenant_id, mode, status, intent, purpose, request, principal) VALUES ($1, $2, $3, 'concluded', 'i', 'p', '{}', 'k')`,
    [id, t, m],
  );
  return id;
}
