import { randomUUID } from 'node:crypto';
import { EventSource } from 'eventsource';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaseGraphOut, CaseOut, IntakeOut } from '../../src/cases/schemas.js';
import { EventEnvelope, EventEnvelopeList } from '../../src/events/schemas.js';
import { ObservationOut } from '../../src/observations/schemas.js';
import { ownerClient } from '../support/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

/**
 * The case endpoints over HTTP against the real service: the lifecycle, the
 * timeline as the fold's event log, the live stream, the tenancy rules (C01,
 * 404 across tenants and modes), closed request shapes and intake.
 */
let ts: TestService;
let owner: pg.Client;

beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
  owner = await ownerClient(ts.dbUrl);
});

afterAll(async () => {
  await owner.end();
  await ts.stop();
});

const json = (key: string) => ({ ...bearer(key), 'content-type': 'application/json' });

async function call(method: 'GET' | 'POST', path: string, body?: unknown, key = ts.tenant.keys.live) {
  const res = await fetch(`${ts.base}${path}`, {
    method,
    headers: json(key),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, auditId: res.headers.get('x-service-audit-id') };
}

const create = {
  title: 'Mule network',
  purpose: 'investigation',
  authorization: { kind: 'court_order', reference: 'CO-2026-17', issued_by: 'District Court' },
  subject: { presentations: [{ type: 'EMAIL', value: 'Suspect@Example.com' }] },
};

async function openCase(key = ts.tenant.keys.live): Promise<CaseOut> {
  const res = await call('POST', '/v1/cases', create, key);
  expect(res.status).toBe(201);
  return CaseOut.parse(res.body);
}

/** Resolves with the first `count` CaseChanged events the stream delivers. */
function listen(caseId: string, count: number, key = ts.tenant.keys.live): { ready: Promise<void>; events: Promise<EventEnvelope[]> } {
  let onOpen!: () => void;
  const ready = new Promise<void>((r) => (onOpen = r));
  const events = new Promise<EventEnvelope[]>((resolve, reject) => {
    const got: EventEnvelope[] = [];
    const es = new EventSource(`${ts.base}/v1/cases/${caseId}/events`, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...bearer(key) } }),
    });
    const timer = setTimeout(() => {
      es.close();
      reject(new Error(`got ${got.length} of ${count} events`));
    }, 10_000);
    es.onopen = () => onOpen();
    es.addEventListener('CaseChanged', (e) => {
      got.push(EventEnvelope.parse(JSON.parse(e.data)));
      if (got.length === count) {
        clearTimeout(timer);
        es.close();
        resolve(got);
      }
    });
  });
  return { ready, events };
}

type Audit = { status: number; action: string; target_kind: string | null; target_id: string | null };
async function auditOf(auditId: string | null): Promise<Audit[]> {
  const { rows } = await owner.query('SELECT status, action, target_kind, target_id FROM audit_log WHERE audit_id = $1', [auditId]);
  return rows as Audit[];
}

describe('case lifecycle', () => {
  it('create -> member -> assertion -> hold -> close refused while held -> release -> sign off -> close', async () => {
    const opened = await openCase();
    expect(opened).toMatchObject({ state: 'open', legal_hold: false, sequence: 1, finding: null, closed_at: null, title: 'Mule network' });
    expect(opened.entity_ids).toHaveLength(1);
    expect(opened.members).toEqual([expect.objectContaining({ role: 'lead' })]);
    expect(opened.events_url).toBe(`${ts.base}/v1/cases/${opened.case_id}/events`);
    const id = opened.case_id;

    const member = await call('POST', `/v1/cases/${id}/members`, { principal: 'analyst-7', role: 'reviewer' });
    expect(member.status).toBe(200);
    expect(CaseOut.parse(member.body).members.map((m) => [m.principal, m.role])).toContainEqual(['analyst-7', 'reviewer']);
    expect(await auditOf(member.auditId)).toEqual([{ status: 200, action: 'changeCaseMembers', target_kind: 'case', target_id: id }]);

    const assertion = await call('POST', `/v1/cases/${id}/assertions`, {
      subject: { presentations: [{ type: 'EMAIL', value: 'suspect@example.com' }] },
      statement: 'The same person opened the three accounts.',
      disposition: 'supports',
      observed_at: '2026-01-01T00:00:00Z',
    });
    expect(assertion.status).toBe(201);
    const obs = ObservationOut.parse(assertion.body);
    expect(obs).toMatchObject({ kind: 'assertion', provenance_class: 'analyst_asserted', case_id: id, entity_id: opened.entity_ids[0] });
    const { rows: stored } = await owner.query('SELECT provenance_class, body FROM observations WHERE id = $1', [obs.observation_id]);
    expect(stored[0]).toMatchObject({ provenance_class: 'analyst_asserted', body: { case_id: id } });

    const held = await call('POST', `/v1/cases/${id}/hold`, { reason: 'Litigation pending', reference: 'LH-1' });
    expect(held.status).toBe(200);
    expect(CaseOut.parse(held.body)).toMatchObject({ legal_hold: true, state: 'open' });

    const refused = await call('POST', `/v1/cases/${id}/close?finding=confirmed`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ type: 'urn:tas:problem:conflict', status: 409, case_state: 'open', legal_hold: true });
    expect(refused.body.detail).toMatch(/legal hold/);
    expect(await auditOf(refused.auditId)).toEqual([{ status: 409, action: 'closeCase', target_kind: 'case', target_id: id }]);

    const released = await call('POST', `/v1/cases/${id}/release`, { reason: 'Settled' });
    expect(CaseOut.parse(released.body)).toMatchObject({ legal_hold: false });

    const signed = await call('POST', `/v1/cases/${id}/review`, { outcome: 'sign_off', note: 'Evidence complete.' });
    expect(CaseOut.parse(signed.body).state).toBe('signed_off');

    const closed = await call('POST', `/v1/cases/${id}/close?finding=confirmed`);
    expect(closed.status).toBe(200);
    const out = CaseOut.parse(closed.body);
    expect(out).toMatchObject({ state: 'closed', finding: 'confirmed', sequence: 7 });
    expect(out.closed_at).not.toBeNull();

    const again = await call('POST', `/v1/cases/${id}/review`, { outcome: 'request_changes' });
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/closed/);

    const read = await call('GET', `/v1/cases/${id}`);
    expect(read.status).toBe(200);
    expect(CaseOut.parse(read.body)).toEqual(out);

    const timeline = await call('GET', `/v1/cases/${id}/timeline`);
    expect(timeline.status).toBe(200);
    const events = EventEnvelopeList.parse(timeline.body);
    expect(events.map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(events.map((e) => (e.type === 'CaseChanged' ? [e.data.change, e.data.state, e.data.legal_hold] : null))).toEqual([
      ['opened', 'open', false],
      ['member_added', 'open', false],
      ['assertion', 'open', false],
      ['held', 'open', true],
      ['released', 'open', false],
      ['signed_off', 'signed_off', false],
      ['closed', 'closed', false],
    ]);
    expect(events.every((e) => e.stream === 'case' && e.stream_id === id)).toBe(true);
  });

  it('streams CaseChanged live on /v1/cases/{id}/events', async () => {
    const { case_id: id } = await openCase();
    const stream = listen(id, 3);
    await stream.ready;
    await call('POST', `/v1/cases/${id}/hold`, { reason: 'Preservation order' });
    await call('POST', `/v1/cases/${id}/release`, { reason: 'Lifted' });
    const events = await stream.events;
    expect(events.map((e) => [e.sequence, e.type === 'CaseChanged' ? e.data.change : null])).toEqual([
      [1, 'opened'],
      [2, 'held'],
      [3, 'released'],
    ]);
  });

  it('refuses an unknown field with 422 extra_forbidden and writes nothing', async () => {
    const res = await call('POST', '/v1/cases', { ...create, colour: 'red' });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContainEqual({ loc: ['body', 'colour'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' });
    const { case_id: id } = await openCase();
    const hold = await call('POST', `/v1/cases/${id}/hold`, { reason: 'x', until: 'tomorrow' });
    expect(hold.status).toBe(422);
    expect(hold.body.detail[0]).toMatchObject({ loc: ['body', 'until'], type: 'extra_forbidden' });
    expect(CaseOut.parse((await call('GET', `/v1/cases/${id}`)).body).legal_hold).toBe(false);
  });

  it('refuses a case to a non-investigative tenant with rule C01', async () => {
    const other = await ts.provision(`plain-${randomUUID().slice(0, 8)}`);
    const res = await call('POST', '/v1/cases', create, other.keys.live);
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ type: 'C01' })]);
    const { rows } = await owner.query('SELECT count(*)::int AS n FROM actors WHERE tenant_id = $1', [other.tenant_id]);
    expect(rows[0].n).toBe(0);
  });

  it('refuses a purpose the tenant was not granted with rule I13', async () => {
    const res = await call('POST', '/v1/cases', { ...create, purpose: 'nope' });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ type: 'I13' })]);
  });

  it("answers 404 for another tenant's case, another mode's case, an unknown id and a non-case actor", async () => {
    const { case_id: id } = await openCase();
    const other = await ts.provision(`inv-${randomUUID().slice(0, 8)}`, true);
    const inquiry = randomUUID();
    await owner.query(
      `INSERT INTO actors (id, tenant_id, mode, kind, machine_version, snapshot, version) VALUES ($1, $2, 'live', 'inquiry', 1, '{}', 1)`,
      [inquiry, ts.tenant.tenant_id],
    );
    const probes: [string, string, unknown, string][] = [
      ['GET', `/v1/cases/${id}`, undefined, other.keys.live],
      ['POST', `/v1/cases/${id}/hold`, { reason: 'x' }, other.keys.live],
      ['GET', `/v1/cases/${id}/timeline`, undefined, other.keys.live],
      ['GET', `/v1/cases/${id}`, undefined, ts.tenant.keys.test],
      ['POST', `/v1/cases/${id}/close`, undefined, ts.tenant.keys.test],
      ['GET', `/v1/cases/${randomUUID()}`, undefined, ts.tenant.keys.live],
      ['POST', `/v1/cases/${inquiry}/hold`, { reason: 'x' }, ts.tenant.keys.live],
      ['GET', `/v1/cases/${inquiry}`, undefined, ts.tenant.keys.live],
    ];
    for (const [method, path, body, key] of probes) {
      const res = await call(method as 'GET' | 'POST', path, body, key);
      expect([path, res.status, res.body.type]).toEqual([path, 404, 'urn:tas:problem:not-found']);
    }
    expect(CaseOut.parse((await call('GET', `/v1/cases/${id}`)).body).legal_hold).toBe(false);
  });

  it('takes an intake manifest item by item: accepted, duplicate, rejected, as one case event', async () => {
    const { case_id: id, entity_ids } = await openCase();
    const res = await call('POST', `/v1/cases/${id}/intake`, {
      items: [
        { kind: 'presentation', ref: 'a', presentation: { type: 'EMAIL', value: 'mule1@example.org' } },
        { kind: 'presentation', ref: 'b', presentation: { type: 'EMAIL', value: 'MULE1@example.org' } },
        { kind: 'presentation', ref: 'c', presentation: { type: 'NOT_A_TYPE', value: 'x' } },
        { kind: 'material', ref: 'd', material_kind: 'document', media_type: 'application/pdf', sha256: 'a'.repeat(64), size_bytes: 10 },
      ],
      note: 'Seized phone export',
    });
    expect(res.status).toBe(201);
    const out = IntakeOut.parse(res.body);
    expect(out).toMatchObject({ case_id: id, sequence: 2, accepted: 1, duplicate: 1, rejected: 2 });
    expect(out.items.map((i) => [i.ref, i.status, i.rule])).toEqual([
      ['a', 'accepted', null],
      ['b', 'duplicate', null],
      ['c', 'rejected', 'I15'],
      ['d', 'rejected', null],
    ]);
    expect(out.items[0]!.target_id).toMatch(/^[0-9a-f-]{36}$/);
    // The refusal names where the registered types are listed, never the type sent.
    expect(out.items[2]!.reason).toContain('GET /v1/registry/artifact-types');
    expect(out.items[2]!.reason).not.toContain('NOT_A_TYPE');

    // The same presentation in a later manifest is a duplicate of the case, and spends nothing.
    const later = IntakeOut.parse(
      (
        await call('POST', `/v1/cases/${id}/intake`, {
          items: [{ kind: 'presentation', ref: 'again', presentation: { type: 'EMAIL', value: 'mule1@example.org' } }],
        })
      ).body,
    );
    expect(later).toMatchObject({ sequence: 3, accepted: 0, duplicate: 1, rejected: 0 });

    const read = CaseOut.parse((await call('GET', `/v1/cases/${id}`)).body);
    expect(read.entity_ids).toEqual([...entity_ids, out.items[0]!.target_id]);
    expect(read.budget).toEqual({ limit: 1000, spent: 0, remaining: 1000 });
    const timeline = EventEnvelopeList.parse((await call('GET', `/v1/cases/${id}/timeline`)).body);
    expect(timeline.map((e) => (e.type === 'CaseChanged' ? e.data.change : null))).toEqual(['opened', 'intake', 'intake']);
  });

  it('refuses to export a case that is not signed off (C02)', async () => {
    const { case_id: id } = await openCase();
    const refused = await call('POST', `/v1/cases/${id}/export`);
    expect([refused.status, refused.body.rule, refused.body.case_state]).toEqual([409, 'C02', 'open']);
  });

  it('graph: the entities of the case, the values they are known by, and the assertions about them', async () => {
    const { case_id: id } = await openCase();
    await call('POST', `/v1/cases/${id}/intake`, {
      items: [{ kind: 'presentation', ref: 'g', presentation: { type: 'EMAIL', value: 'graph.node@example.org' } }],
    });
    const asserted = await call('POST', `/v1/cases/${id}/assertions`, {
      subject: { presentations: [{ type: 'EMAIL', value: 'graph.node@example.org' }] },
      statement: 'Seen running the scheme.',
      disposition: 'weakens',
      observed_at: '2026-01-01T00:00:00Z',
    });
    expect(asserted.status).toBe(201);
    const res = await call('GET', `/v1/cases/${id}/graph`);
    expect(res.status).toBe(200);
    const graph = CaseGraphOut.parse(res.body);
    const value = graph.nodes.find((n) => n.label === 'graph.node@example.org' && n.type !== 'entity');
    expect(value).toMatchObject({ type: 'EMAIL', provenance_class: 'tenant_supplied' });
    const identifies = graph.edges.find((e) => e.from === value!.node_id && e.relation === 'identifies');
    expect(identifies).toMatchObject({ weight: 1 });
    expect(graph.nodes.find((n) => n.node_id === identifies!.to)).toMatchObject({ type: 'entity' });
    expect(graph.edges).toContainEqual(
      expect.objectContaining({ to: identifies!.to, relation: 'asserts', provenance_class: 'analyst_asserted' }),
    );
    expect(graph.nodes.filter((n) => n.type === 'entity')).toHaveLength(2);
    // Named for a reader (issue 38): an entity by its main value, an assertion by its statement.
    expect(graph.nodes.find((n) => n.node_id === identifies!.to)!.label).toBe('graph.node@example.org');
    expect(graph.nodes).toContainEqual(expect.objectContaining({ type: 'assertion', label: 'weakens: Seen running the scheme.' }));
    const foreign = await call('GET', `/v1/cases/${id}/graph`, undefined, ts.tenant.keys.test);
    expect(foreign.status).toBe(404);
  });
});
