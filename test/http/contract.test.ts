import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { OPERATIONS } from '../../src/schemas/operations.js';
import type { OperationSpec } from '../../src/schemas/operation.js';
import { ownerClient } from '../support/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

/**
 * Walks every operation of the published document: without a key 401, with a
 * key lacking the scope 403, with an unknown field 422 extra_forbidden; every
 * answer carries X-Service-Audit-Id; and the audit trail holds exactly one
 * row per call made.
 */
let ts: TestService;
let owner: pg.Client;
let calls = 0;
let auditBefore = 0;
// A tenant's calls are in its trail, the calls refused before any tenant was known in their own (issue 50).
const auditRows = async () =>
  Number((await owner.query('SELECT (SELECT count(*) FROM audit_log) + (SELECT count(*) FROM audit_refusals) AS count')).rows[0].count);

const SAMPLE_UUID = '0b0e0d2c-95a4-4d7c-9a53-4b7ad0c0ffee';

function urlFor(op: OperationSpec): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => (op.params?.[name] === 'uuid' ? SAMPLE_UUID : 'mat-1'));
  return `${ts.base}${path}`;
}

async function call(op: OperationSpec, init: { headers?: Record<string, string>; body?: unknown; query?: string }) {
  calls += 1;
  const headers: Record<string, string> = { ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(urlFor(op) + (init.query ?? ''), {
    method: op.method.toUpperCase(),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  expect(res.headers.get('x-service-audit-id'), `${op.method} ${op.path}`).toMatch(/^[0-9a-f-]{36}$/);
  return { status: res.status, text, headers: res.headers };
}

/** A key that lacks the operation's scope: the admin key for family scopes, the all-families key for admin ones. */
function keyWithoutScope(op: OperationSpec): string {
  return op.auth === 'admin' ? ts.tenant.keys.test : ts.tenant.keys.test_admin;
}

const keyed = OPERATIONS.filter((op) => op.auth !== 'open');
const scoped = OPERATIONS.filter((op) => op.auth !== 'open' && op.auth !== 'key');
const withBody = OPERATIONS.filter((op) => op.body && op.auth !== 'open');
const withQueryOnly = OPERATIONS.filter((op) => !op.body && op.query && op.auth !== 'open');

beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
  owner = await ownerClient(ts.dbUrl);
  auditBefore = await auditRows();
});

afterAll(async () => {
  await owner?.end();
  await ts?.stop();
});

describe('every operation of the contract', () => {
  it('lists the whole surface', () => {
    expect(OPERATIONS.length).toBeGreaterThanOrEqual(45);
  });

  it.each(keyed.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
    '%s without a key: 401 with WWW-Authenticate',
    async (_name, op) => {
      const r = await call(op, {});
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(r.headers.get('content-type')).toBe('application/problem+json');
    },
  );

  it.each(scoped.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
    '%s with a key lacking the scope: 403 naming it',
    async (_name, op) => {
      const r = await call(op, { headers: bearer(keyWithoutScope(op)) });
      expect(r.status).toBe(403);
      expect(JSON.parse(r.text).missing_scope).toBe(op.auth);
    },
  );

  it.each(withBody.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
    '%s with an unknown field: 422 extra_forbidden',
    async (_name, op) => {
      const body = op.path.endsWith('/batch') ? [{ unexpected_field: 1 }] : { unexpected_field: 1 };
      const r = await call(op, { headers: bearer(op.auth === 'admin' ? ts.tenant.keys.test_admin : ts.tenant.keys.test), body });
      expect(r.status).toBe(422);
      const detail = JSON.parse(r.text).detail as { loc: unknown[]; type: string }[];
      expect(detail.some((d) => d.type === 'extra_forbidden' && d.loc.includes('unexpected_field'))).toBe(true);
    },
  );

  it.each(withQueryOnly.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
    '%s with an unknown query parameter: 422 extra_forbidden',
    async (_name, op) => {
      const r = await call(op, {
        headers: bearer(op.auth === 'admin' ? ts.tenant.keys.test_admin : ts.tenant.keys.test),
        query: '?unexpected_param=1',
      });
      expect(r.status).toBe(422);
      // An operation with required parameters names them missing too; the unknown one is named either way.
      const detail = JSON.parse(r.text).detail as { loc: unknown[]; type: string }[];
      expect(detail).toContainEqual(expect.objectContaining({ loc: ['query', 'unexpected_param'], type: 'extra_forbidden' }));
    },
  );

  it('writes exactly one audit row per call made', async () => {
    // No wait: a call is answered only once its audit row is durable.
    const after = await auditRows();
    expect(calls).toBeGreaterThan(100);
    expect(after - auditBefore).toBe(calls);
  });
});
