import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInquiry, prepareInquiry } from '../../src/inquiries/engine.js';
import { claimer, IdempotencyClash } from '../../src/inquiries/idempotency.js';
import { mayOpenInOneCall, openInOneCall } from '../../src/inquiries/oneCall.js';
import { InquiryRequest } from '../../src/inquiries/schemas.js';
import { askOf } from '../../src/inquiries/wire.js';
import { createStatementPool, type StatementPool } from '../../src/platform/db/namedStatements.js';
import { ownerClient } from '../support/database.js';
import { serviceLoginUrl, startTestService, type TestService } from '../support/service.js';
import { principalOf, SCOPES, sinkFor } from './openingSupport.js';
import type { AuditSink, Principal } from '../../src/auth/index.js';

/**
 * A new subject's inquiry in one database call (issue 37, sql/000110): the
 * rows it writes are the rows the long way writes for the same request, one
 * call on the pool writes them all, a known subject is written nothing (the
 * long way then opens it), the idempotency key is claimed in that call, and
 * the function widens no tenant's scope.
 */
let ts: TestService;
let owner: pg.Client;
let tenantB: string;
let statements: StatementPool;

beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
  statements = createStatementPool(serviceLoginUrl(ts.dbUrl));
  owner = await ownerClient(ts.dbUrl);
  tenantB = (await ts.provision('one-call-b')).tenant_id;
});
afterAll(async () => {
  await statements?.end();
  await owner?.end();
  await ts?.stop();
});

function requestFor(email: string) {
  const subject = {
    presentations: [
      { type: 'EMAIL', value: email },
      { type: 'PHONE', value: `+44 20 7946 ${String(Math.floor(Math.random() * 9000) + 1000)}` },
      { type: 'NAME', value: 'Jane Doe' },
    ],
    claim: { country: 'GB' },
  };
  return InquiryRequest.parse({
    subject,
    intent: 'pre_transaction',
    purpose: 'fraud_prevention',
    stake: { kind: 'payment', amount: 50, currency: 'GBP' },
    context: [
      {
        subject,
        provenance_class: 'tenant_supplied',
        summary: 'customer since last spring',
        observed_at: '2026-11-01T00:00:00Z',
        purpose: 'fraud_prevention',
      },
    ],
  });
}

const deadline = () => Date.now() + 3000;
const now = () => new Date();

async function oneCall(pool: StatementPool, principal: Principal, body: InquiryRequest, key: { key: string; hash: string } | null = null) {
  const prepared = prepareInquiry(ts.service.core.checks, askOf(body, SCOPES));
  expect(mayOpenInOneCall(askOf(body, SCOPES), prepared, undefined)).toBe(true);
  const opening = { ctx: sinkFor(principal), principal, ask: askOf(body, SCOPES), prepared, policy: null, deadlineAt: deadline() };
  return openInOneCall({ statements: pool, runtime: ts.service.core.runtime, now }, opening, key);
}

async function longWay(principal: Principal, body: InquiryRequest) {
  const prepared = prepareInquiry(ts.service.core.checks, askOf(body, SCOPES));
  const deps = { runtime: ts.service.core.runtime, checks: ts.service.core.checks, now };
  const opening = { ctx: sinkFor(principal), principal, ask: askOf(body, SCOPES), prepared, policy: null, deadlineAt: deadline() };
  return openInquiry(deps, opening, claimer(principal, null));
}

/** Every row an inquiry wrote, without what differs by nature between two inquiries (ids, times, hashes of them). */
async function rowsOf(inquiryId: string) {
  const one = async (q: string) => (await owner.query(q, [inquiryId])).rows;
  const inquiry = await one(
    `SELECT status, intent, purpose, principal, concluded_at IS NOT NULL AS concluded,
            request - 'inquiryId' - 'entityId' - 'deadlineAt' AS request FROM inquiries WHERE id = $1`,
  );
  const actor = await one(`SELECT kind, machine_version, version, snapshot->'value' AS state FROM actors WHERE id = $1`);
  const ledger = await one(
    `SELECT score, low, high, preliminary, methodology_version, label, evidence - 'newest_observed_at' - 'oldest_observed_at' AS evidence, jsonb_array_length(inputs->'evidence') AS inputs,
            jsonb_array_length(findings->'findings') AS findings, entity_id IS NOT NULL AS has_entity
     FROM assessments WHERE inquiry_id = $1 ORDER BY ledger_seq`,
  );
  const events = await one(`SELECT seq, type FROM actor_events WHERE stream_id = $1 ORDER BY seq`);
  const entity = await one(
    `SELECT (SELECT jsonb_agg(jsonb_build_array(type, normalised, value) ORDER BY type) FROM entity_identifiers i WHERE i.entity_id = q.entity_id) AS identifiers,
            (SELECT jsonb_agg(jsonb_build_array(type, normalised, value) ORDER BY type) FROM entity_links l WHERE l.entity_id = q.entity_id) AS links,
            (SELECT jsonb_agg(jsonb_build_array(kind, provenance_class, body->'summary', body->'stance')) FROM observations o WHERE o.entity_id = q.entity_id) AS observations
     FROM inquiries q WHERE q.id = $1`,
  );
  const audit = await one(`SELECT action, status, target_kind, cost_amount, cost_currency FROM audit_log WHERE target_id = $1::text`);
  return { inquiry, actor, ledger, events, entity, audit };
}

describe('a new subject in one call', () => {
  it('writes the rows the long way writes for the same request', async () => {
    const email = `parity.${randomUUID().slice(0, 8)}@example.org`;
    const body = requestFor(email);
    const fast = await oneCall(statements, principalOf(ts.tenant.tenant_id), body);
    expect(fast).not.toBeNull();
    // The same request in another tenant, where the subject is as new, opened the long way.
    const slow = await longWay(principalOf(tenantB), body);
    expect(fast!.state).toBe(slow.state);
    expect(fast!.issued).toMatchObject({ score: slow.issued!.score, low: slow.issued!.low, high: slow.issued!.high });
    const [a, b] = [await rowsOf(fast!.inquiryId), await rowsOf(slow.inquiryId)];
    expect(a.ledger).toHaveLength(1);
    expect(a.events.length).toBeGreaterThan(1);
    expect(a.entity[0].identifiers).toEqual([['EMAIL', email, email]]);
    expect(a.entity[0].observations).toHaveLength(1);
    expect(a.audit).toHaveLength(1);
    expect(a).toEqual(b);
  });

  it('is one statement, and nothing else reaches PostgreSQL', async () => {
    let calls = 0;
    const counted: StatementPool = {
      run: (statement, values) => {
        calls += 1;
        return statements.run(statement, values);
      },
      rehearse: () => Promise.resolve(0),
      end: () => Promise.resolve(),
    };
    const opened = await oneCall(counted, principalOf(ts.tenant.tenant_id), requestFor(`counted.${randomUUID().slice(0, 8)}@example.org`));
    expect(opened?.state).toBe('concluded');
    expect(calls).toBe(1);
  });

  it('writes nothing for a subject already known, which then opens the long way', async () => {
    const principal = principalOf(ts.tenant.tenant_id);
    const email = `known.${randomUUID().slice(0, 8)}@example.org`;
    expect(await oneCall(statements, principal, requestFor(email))).not.toBeNull();
    const count = async () => Number((await owner.query('SELECT count(*) FROM inquiries')).rows[0].count);
    const before = await count();
    const body = requestFor(email);
    expect(await oneCall(statements, principal, body)).toBeNull();
    expect(await count()).toBe(before);
    const slow = await longWay(principal, body);
    const ledger = await owner.query(
      'SELECT count(*)::int AS n FROM assessments WHERE entity_id = (SELECT entity_id FROM inquiries WHERE id = $1)',
      [slow.inquiryId],
    );
    expect(ledger.rows[0].n).toBe(2);
  });

  it('writes nothing when another inquiry presented one of its values in the last day (a velocity the empty history lacks)', async () => {
    const principal = principalOf(ts.tenant.tenant_id);
    const ip = `198.51.100.${String(Math.floor(Math.random() * 200) + 1)}`;
    const withIp = (email: string) =>
      InquiryRequest.parse({
        ...requestFor(email),
        subject: {
          presentations: [
            { type: 'EMAIL', value: email },
            { type: 'IP', value: ip },
          ],
        },
      });
    expect(await oneCall(statements, principal, withIp(`first.${randomUUID().slice(0, 8)}@example.org`))).not.toBeNull();
    expect(await oneCall(statements, principal, withIp(`second.${randomUUID().slice(0, 8)}@example.org`))).toBeNull();
  });

  it('claims the idempotency key in the same call: a second claim of the key is a clash and writes nothing', async () => {
    const principal = principalOf(ts.tenant.tenant_id);
    const key = { key: `one-call-${randomUUID()}`, hash: 'hash-1' };
    const first = await oneCall(statements, principal, requestFor(`idem.${randomUUID().slice(0, 8)}@example.org`), key);
    const claimed = await owner.query('SELECT inquiry_id FROM idempotency_keys WHERE key = $1', [key.key]);
    expect(claimed.rows).toEqual([{ inquiry_id: first!.inquiryId }]);
    const count = async () => Number((await owner.query('SELECT count(*) FROM inquiries')).rows[0].count);
    const before = await count();
    await expect(oneCall(statements, principal, requestFor(`idem2.${randomUUID().slice(0, 8)}@example.org`), key)).rejects.toBeInstanceOf(
      IdempotencyClash,
    );
    expect(await count()).toBe(before);
  });
});

describe('the tenant boundary of tas_inquiry_open', () => {
  it('a subject known only to another tenant is new here, and that tenant keeps its own entity', async () => {
    const email = `boundary.${randomUUID().slice(0, 8)}@example.org`;
    const inB = await oneCall(statements, principalOf(tenantB), requestFor(email));
    const inA = await oneCall(statements, principalOf(ts.tenant.tenant_id), requestFor(email));
    expect(inA).not.toBeNull();
    expect(inA!.facts.entityId).not.toBe(inB!.facts.entityId);
    const owners = await owner.query('SELECT tenant_id::text FROM entity_identifiers WHERE normalised = $1 ORDER BY tenant_id', [email]);
    expect(owners.rows.map((r) => r.tenant_id).sort()).toEqual([ts.tenant.tenant_id, tenantB].sort());
  });

  it('refuses a call inside a transaction scoped to another tenant, and writes nothing', async () => {
    const service = await ownerClient(ts.dbUrl.replace('postgres@', 'tas_app@'));
    try {
      await service.query('BEGIN');
      await service.query(
        "SELECT set_config('role', 'tas_service', true), set_config('tas.tenant_id', $1, true), set_config('tas.mode', 'test', true)",
        [tenantB],
      );
      const forged = {
        tenant_id: ts.tenant.tenant_id,
        mode: 'test',
        entity: { id: randomUUID(), lock_keys: [], identifiers: [], links: [] },
      };
      await expect(service.query('SELECT tas_inquiry_open($1::jsonb)', [JSON.stringify(forged)])).rejects.toMatchObject({ code: '42501' });
      await service.query('ROLLBACK');
    } finally {
      await service.end();
    }
  });

  it('writes no row of another tenant even when the rows inside the argument name one', async () => {
    const principal = principalOf(ts.tenant.tenant_id);
    const ctx = sinkFor(principal);
    // The audit row is the one row whose tenant the argument carries itself: row-level security refuses it.
    const forgedAudit: AuditSink = { ...ctx, auditRecord: (o) => ({ ...(ctx.auditRecord(o) as object), tenant_id: tenantB }) };
    const body = requestFor(`forged.${randomUUID().slice(0, 8)}@example.org`);
    const prepared = prepareInquiry(ts.service.core.checks, askOf(body, SCOPES));
    const count = async () => Number((await owner.query('SELECT count(*) FROM inquiries')).rows[0].count);
    const before = await count();
    await expect(
      openInOneCall(
        { statements, runtime: ts.service.core.runtime, now },
        { ctx: forgedAudit, principal, ask: askOf(body, SCOPES), prepared, policy: null, deadlineAt: deadline() },
        null,
      ),
    ).rejects.toThrow(/row-level security/);
    expect(await count()).toBe(before);
  });
});
