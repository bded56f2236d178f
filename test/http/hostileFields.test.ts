import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { ownerClient } from '../support/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { startReceiver } from '../monitors/support.js';

/**
 * Every field of every documented request body, one at a time, replaced by a
 * hostile value (wrong type, huge, empty, NUL, a lone surrogate, deep or long
 * containers), every query parameter given the same, and every body sent
 * malformed: the answer is always a 2xx or a 4xx in the contract's shape,
 * within a bound, never a 5xx or a hang. The inquiries stored are exactly
 * the ones answered 2xx (a refused call wrote nothing), and the audit trail
 * holds one row per call. The bodies come from the served document's
 * own examples, so an operation added to the document is swept too.
 */
let ts: TestService;
let owner: pg.Client;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

const HOSTILE: readonly unknown[] = [
  null,
  -1,
  1e308,
  2 ** 63,
  true,
  '',
  'x'.repeat(70_000),
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\u202e',
  '9999-12-31T23:59:59Z',
  {},
  [],
  Array.from({ length: 2_000 }, () => 'x'),
  { a: { b: { c: { d: {} } } } },
];
const RAW_BODIES: readonly string[] = [
  '',
  'null',
  '[]',
  '{',
  '"x"',
  '1',
  '['.repeat(50_000),
  '{"a":'.repeat(5_000),
  '\u0000',
  '{"__proto__":{"polluted":1}}',
];
const QUERY_VALUES: readonly string[] = ['', '-1', '1e308', 'x'.repeat(4_000), '%00', '%ED%A0%80', 'null', '[]', '9999-12-31T23:59:59Z'];
// A call that takes longer than this is a hang for this sweep's purposes (the edge answers these in milliseconds).
const HANG_MS = 10_000;
const SAMPLE_UUID = '0b0e0d2c-95a4-4d7c-9a53-4b7ad0c0ffee';

interface Operation {
  method: string;
  path: string;
  example?: unknown;
  query: string[];
  admin: boolean;
}
interface Answer {
  status: number;
  contentType: string;
  text: string;
}

let calls = 0;

async function send(method: string, path: string, key: string, body?: string, contentType = 'application/json'): Promise<Answer> {
  calls += 1;
  const res = await fetch(`${ts.base}${path}`, {
    method,
    headers: { ...bearer(key), ...(body === undefined ? {} : { 'content-type': contentType }) },
    body,
    signal: AbortSignal.timeout(HANG_MS),
  });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** Every path to a value inside `value`, the root included. */
function leaves(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return [at, ...value.flatMap((v, i) => leaves(v, [...at, i]))];
  if (value !== null && typeof value === 'object') return [at, ...Object.entries(value).flatMap(([k, v]) => leaves(v, [...at, k]))];
  return [at];
}

function replaced(value: unknown, at: readonly (string | number)[], by: unknown): unknown {
  if (at.length === 0) return by;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  copy[at[0]!] = replaced(copy[at[0]!], at.slice(1), by);
  return copy;
}

function expectContractShape(answer: Answer, what: string): void {
  expect(answer.status, `${what}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  if (answer.status < 400) return;
  // Validation failures carry the HTTPValidationError body (SPEC.md, Errors, rule 2); every other refusal a problem document.
  if (answer.status === 422) {
    expect(answer.contentType, what).toBe('application/json');
    const { detail } = JSON.parse(answer.text) as { detail: { loc: unknown; type: unknown }[] };
    expect(detail.length, what).toBeGreaterThan(0);
    for (const d of detail) expect(Array.isArray(d.loc) && typeof d.type === 'string', what).toBe(true);
    return;
  }
  expect(answer.contentType, what).toBe('application/problem+json');
  expect((JSON.parse(answer.text) as { status: unknown }).status, what).toBe(answer.status);
}

/** Runs `tasks` a few at a time: the sweep is thousands of calls. */
async function inBatches(tasks: (() => Promise<void>)[], width = 8): Promise<void> {
  for (let i = 0; i < tasks.length; i += width) await Promise.all(tasks.slice(i, i + width).map((t) => t()));
}

let operations: Operation[] = [];
const ids: Record<string, string> = {};

beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
  owner = await ownerClient(ts.dbUrl);
  // The document's own call is audited like any other.
  calls += 1;
  const doc = (await (await fetch(`${ts.base}/openapi.json`)).json()) as {
    paths: Record<
      string,
      Record<string, { requestBody?: { content?: Record<string, { example?: unknown }> }; parameters?: { in: string; name: string }[] }>
    >;
  };
  operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        example: op.requestBody?.content?.['application/json']?.example,
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        admin: path.startsWith('/v1/admin'),
      })),
  );
  // Real resources, so operations on them get past the look-up and validate their bodies.
  const create = async (path: string, field: string, idName: string, key: string, change: Record<string, unknown> = {}) => {
    const op = operations.find((o) => o.method === 'POST' && o.path === path)!;
    const answer = await send('POST', path, key, JSON.stringify({ ...(op.example as object), ...change }));
    expect(answer.status, `${path}: ${answer.text.slice(0, 300)}`).toBeLessThan(300);
    ids[idName] = (JSON.parse(answer.text) as Record<string, string>)[field]!;
  };
  await create('/v1/cases', 'case_id', 'case_id', ts.tenant.keys.test);
  await create('/v1/monitors', 'monitor_id', 'monitor_id', ts.tenant.keys.test);
  // The documented example's target is a public host this machine may not reach; tests deliver to loopback.
  receiver = await startReceiver();
  await create('/v1/admin/webhooks', 'webhook_id', 'webhook_id', ts.tenant.keys.test_admin, { url: receiver.url });
}, 60_000);

afterAll(async () => {
  await receiver?.close();
  await owner?.end();
  await ts?.stop();
});

const pathOf = (op: Operation) => op.path.replace(/\{(\w+)\}/g, (_m, name: string) => ids[name] ?? SAMPLE_UUID);
const keyOf = (op: Operation) => (op.admin ? ts.tenant.keys.test_admin : ts.tenant.keys.test);
// Event streams stay open by design, and material bytes are not JSON (test/material covers both).
const swept = (op: Operation) => !op.path.endsWith('/events') && !op.path.endsWith('/content');

const storedInquiries = async () => Number((await owner.query('SELECT count(*) FROM inquiries')).rows[0].count);

describe('hostile values in every field of every operation', () => {
  it('stores exactly the inquiries it answered 2xx: a refused inquiry writes nothing', async () => {
    const op = operations.find((o) => o.method === 'POST' && o.path === '/v1/inquiries')!;
    const before = await storedInquiries();
    let accepted = 0;
    const tasks = leaves(op.example).flatMap((at) =>
      HOSTILE.map((value) => async () => {
        const answer = await send(op.method, op.path, keyOf(op), JSON.stringify(replaced(op.example, at, value)));
        expectContractShape(answer, `${op.method} ${op.path} with ${JSON.stringify(at)} = ${JSON.stringify(value)?.slice(0, 40)}`);
        if (answer.status < 300) accepted += 1;
      }),
    );
    await inBatches(tasks);
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(tasks.length);
    expect((await storedInquiries()) - before).toBe(accepted);
  }, 120_000);

  it('answers each replaced body field with a 2xx or a 4xx in the contract shape', async () => {
    const tasks: (() => Promise<void>)[] = [];
    for (const op of operations.filter((o) => swept(o) && o.example !== undefined)) {
      for (const at of leaves(op.example)) {
        for (const value of HOSTILE) {
          tasks.push(async () => {
            const answer = await send(op.method, pathOf(op), keyOf(op), JSON.stringify(replaced(op.example, at, value)));
            expectContractShape(answer, `${op.method} ${op.path} with ${JSON.stringify(at)} = ${JSON.stringify(value)?.slice(0, 40)}`);
          });
        }
      }
    }
    expect(tasks.length).toBeGreaterThan(1_000);
    await inBatches(tasks);
  }, 240_000);

  it('answers malformed bodies, and a JSON body sent as text, with a 4xx', async () => {
    const tasks: (() => Promise<void>)[] = [];
    for (const op of operations.filter((o) => swept(o) && o.example !== undefined)) {
      for (const raw of RAW_BODIES) {
        tasks.push(async () => {
          const answer = await send(op.method, pathOf(op), keyOf(op), raw);
          expectContractShape(answer, `${op.method} ${op.path} with body ${JSON.stringify(raw.slice(0, 20))}`);
          expect(answer.status).toBeGreaterThanOrEqual(400);
        });
      }
      tasks.push(async () => {
        const answer = await send(op.method, pathOf(op), keyOf(op), JSON.stringify(op.example), 'text/plain');
        expectContractShape(answer, `${op.method} ${op.path} as text/plain`);
        expect(answer.status).toBe(415);
      });
    }
    await inBatches(tasks);
  }, 120_000);

  it('answers hostile query values and path segments with a 2xx or a 4xx in the contract shape', async () => {
    const tasks: (() => Promise<void>)[] = [];
    for (const op of operations.filter(swept)) {
      const body = op.example === undefined ? undefined : JSON.stringify(op.example);
      for (const name of op.query) {
        for (const value of QUERY_VALUES) {
          tasks.push(async () =>
            expectContractShape(
              await send(op.method, `${pathOf(op)}?${name}=${value}`, keyOf(op), body),
              `${op.method} ${op.path}?${name}=${value.slice(0, 20)}`,
            ),
          );
        }
      }
      if (!op.path.includes('{')) continue;
      for (const segment of ['%00', '..', 'x'.repeat(300), '%ZZ', '%F0%9F%98%80']) {
        const path = op.path.replace(/\{\w+\}/, segment).replace(/\{(\w+)\}/g, (_m, name: string) => ids[name] ?? SAMPLE_UUID);
        tasks.push(async () => expectContractShape(await send(op.method, path, keyOf(op), body), `${op.method} ${path.slice(0, 80)}`));
      }
    }
    await inBatches(tasks);
  }, 120_000);

  it('wrote one audit row per call', async () => {
    // No wait: a call is answered only once its audit row is durable.
    // A tenant's calls are in its trail, the calls refused before any tenant was known in their own (issue 50).
    const audit = Number(
      (await owner.query('SELECT (SELECT count(*) FROM audit_log) + (SELECT count(*) FROM audit_refusals) AS count')).rows[0].count,
    );
    expect(calls).toBeGreaterThan(2_000);
    expect(audit).toBe(calls);
  });
});
