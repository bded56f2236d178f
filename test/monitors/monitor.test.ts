import { EventSource } from 'eventsource';
import type pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EventEnvelope } from '../../src/events/schemas.js';
import { MonitorOut } from '../../src/monitors/schemas.js';
import { json, providersFile, startProviderFixture, type ProviderFixture } from '../inquiries/support.js';
import { ownerClient } from '../support/database.js';
import { startTestService, type TestService } from '../support/service.js';
import { call, ledgerCount, POLICY, settled, startReceiver, WATCH, watchStream, type Received } from './support.js';

/**
 * A monitor end to end, everything real: a 1 s cadence on a BullMQ job
 * scheduler, rescans through an HTTP provider fixture whose answer the test
 * changes between rescans, MonitorTriggered on SSE (with a resume by
 * Last-Event-ID) and on a signed webhook, then DELETE.
 */
let ts: TestService;
let provider: ProviderFixture;
let owner: pg.Client;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let risk: 'low' | 'high' = 'low';
let alternate = false;
const open: EventSource[] = [];

beforeAll(async () => {
  provider = await startProviderFixture();
  provider.handler = (_req, res) => {
    json(res, 200, { risk });
    // Once alternating, every rescan sees the other answer, so every rescan moves the score.
    if (alternate) risk = risk === 'low' ? 'high' : 'low';
  };
  receiver = await startReceiver();
  ts = await startTestService({
    TAS_MIN_MONITOR_CADENCE_SECONDS: '1',
    TAS_PROVIDERS_FILE: providersFile(provider.url, 'Watchful Intel Ltd', 5000),
  });
  owner = await ownerClient(ts.dbUrl);
});

afterAll(async () => {
  for (const es of open) es.close();
  await owner?.end();
  await ts?.stop();
  await provider?.close();
  await receiver?.close();
});

describe('a monitor with a 1 s cadence', () => {
  let monitorId = '';
  let eventsUrl = '';
  let secret = '';
  let first: Received;

  it('opens: 201 MonitorOut, active, with a next run and its events_url', async () => {
    expect((await call(ts, 'POST', '/v1/admin/policies', ts.tenant.keys.test_admin, POLICY)).status).toBe(201);
    const hook = await call(ts, 'POST', '/v1/admin/webhooks', ts.tenant.keys.test_admin, {
      url: receiver.url,
      event_types: ['MonitorTriggered'],
    });
    expect(hook.status).toBe(201);
    secret = hook.body.secret;

    const created = await call(ts, 'POST', '/v1/monitors', ts.tenant.keys.test, {
      ...WATCH,
      cadence_seconds: 1,
      triggers: { score_moves_by: 10, label_change: true },
    });
    expect(created.status).toBe(201);
    const out = MonitorOut.parse(created.body);
    monitorId = out.monitor_id;
    eventsUrl = out.events_url;
    expect(out).toMatchObject({ state: 'active', cadence_seconds: 1, case_id: null, last_assessment: null, purpose: 'fraud_prevention' });
    expect(eventsUrl).toBe(`${ts.base}/v1/monitors/${monitorId}/events`);
    expect(out.next_run_at).not.toBeNull();
    const { rows } = await owner.query('SELECT status, principal, target_kind, target_id FROM audit_log WHERE audit_id = $1', [
      created.headers.get('x-service-audit-id'),
    ]);
    expect(rows).toEqual([{ status: 201, principal: expect.stringMatching(/^key:/), target_kind: 'monitor', target_id: monitorId }]);
  });

  it('rescans: the first look is the baseline, a changed answer announces MonitorTriggered with both assessments', async () => {
    await vi.waitFor(
      async () => expect((await call(ts, 'GET', `/v1/monitors/${monitorId}`, ts.tenant.keys.test)).body.last_assessment).not.toBeNull(),
      { timeout: 10_000, interval: 100 },
    );
    const baseline = MonitorOut.parse((await call(ts, 'GET', `/v1/monitors/${monitorId}`, ts.tenant.keys.test)).body).last_assessment!;
    expect(baseline.label?.value).toBe('proceed');

    const stream = watchStream(eventsUrl, ts.tenant.keys.test);
    open.push(stream.es);
    risk = 'high';
    alternate = true;
    await vi.waitFor(() => expect(stream.events.length).toBeGreaterThanOrEqual(1), { timeout: 10_000, interval: 50 });
    stream.es.close();
    first = stream.events[0]!;
    const envelope = EventEnvelope.parse(first.data);
    expect(envelope).toMatchObject({ type: 'MonitorTriggered', stream: 'monitor', stream_id: monitorId, sequence: 1 });
    const data = first.data.data;
    expect(data.reasons).toEqual(['label_change', 'score_moves_by']);
    expect(data.previous_assessment.score - data.assessment.score).toBeGreaterThanOrEqual(10);
    expect(data.assessment.label.value).toBe('review');
    expect(data.previous_assessment.label.value).toBe('proceed');
  });

  it('resumes with Last-Event-ID: exactly the missed events, no gap and no duplicate', async () => {
    const tail = async () =>
      (await owner.query('SELECT max(seq)::int AS s FROM actor_events WHERE stream_id = $1', [monitorId])).rows[0].s as number;
    await vi.waitFor(async () => expect(await tail()).toBeGreaterThanOrEqual(3), { timeout: 15_000, interval: 100 });
    const resumed = watchStream(eventsUrl, ts.tenant.keys.test, first.id);
    open.push(resumed.es);
    const upTo = await tail();
    await vi.waitFor(() => expect(resumed.ids().at(-1)).toBeGreaterThanOrEqual(upTo), { timeout: 10_000, interval: 50 });
    const ids = resumed.ids();
    expect(ids[0]).toBe(2);
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => i + 2));
    // Every one alternated, so every one was announced for the move and the label.
    for (const e of resumed.events) expect(e.data.data.reasons).toEqual(['label_change', 'score_moves_by']);
    resumed.es.close();
  });

  it('delivers the same event to a webhook, signed per Standard Webhooks', async () => {
    await vi.waitFor(() => expect(receiver.received.length).toBeGreaterThanOrEqual(1), { timeout: 10_000, interval: 50 });
    const verified = receiver.received.map(
      (d) =>
        new Webhook(secret).verify(d.body, {
          'webhook-id': String(d.headers['webhook-id']),
          'webhook-timestamp': String(d.headers['webhook-timestamp']),
          'webhook-signature': String(d.headers['webhook-signature']),
        }) as any,
    );
    const same = verified.find((p) => p.sequence === 1);
    expect(same).toEqual(first.data);
    expect(same.type).toBe('MonitorTriggered');
    expect(same.data.monitor_id).toBe(monitorId);
  });

  it('runs every rescan as monitor:<id>, audited in the inquiry transaction, one ledger entry per run', async () => {
    const { rows } = await owner.query(
      `SELECT i.id, k.key, (SELECT count(*)::int FROM assessments a WHERE a.inquiry_id = i.id) AS ledger,
              (SELECT count(*)::int FROM audit_log l WHERE l.target_id = i.id::text AND l.principal = i.principal AND l.action = 'rescanMonitor') AS audits
       FROM inquiries i LEFT JOIN idempotency_keys k ON k.inquiry_id = i.id WHERE i.principal = $1`,
      [`monitor:${monitorId}`],
    );
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const r of rows) {
      expect(r.key).toMatch(new RegExp(`^repeat:${monitorId}:\\d+$`));
      expect(r.ledger).toBe(1);
      expect(r.audits).toBe(1);
    }
  });

  it('DELETE: 204, an open stream ends (and is told to stop reconnecting), no further rescans', async () => {
    const stream = watchStream(eventsUrl, ts.tenant.keys.test);
    open.push(stream.es);
    await vi.waitFor(() => expect(stream.events.length).toBeGreaterThanOrEqual(1), { timeout: 10_000, interval: 50 });
    const errors: { code?: number }[] = [];
    stream.es.addEventListener('error', (e) => errors.push(e as { code?: number }));

    const deleted = await call(ts, 'DELETE', `/v1/monitors/${monitorId}`, ts.tenant.keys.test);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeNull();
    // The server ends the response; the client reconnects and hears 204, which means stop.
    await vi.waitFor(() => expect(stream.es.readyState).toBe(EventSource.CLOSED), { timeout: 10_000, interval: 50 });
    expect(errors.at(-1)?.code).toBe(204);
    const ids = stream.ids();
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => i + 1));

    const view = MonitorOut.parse((await call(ts, 'GET', `/v1/monitors/${monitorId}`, ts.tenant.keys.test)).body);
    expect(view).toMatchObject({ state: 'closed', next_run_at: null });
    expect(await ts.service.core.queues.queue('monitors').getJobScheduler(monitorId)).toBeUndefined();
    // A rescan already under way when DELETE landed may still finish; after that, nothing: no schedule,
    // no job, no outbox row and no open inquiry is left that could add to the ledger.
    await settled(ts, owner, [monitorId]);
    const final = await ledgerCount(owner, monitorId);
    expect(await ts.service.core.queues.queue('monitors').getJobScheduler(monitorId)).toBeUndefined();
    expect(await ledgerCount(owner, monitorId)).toBe(final);
    // Deleting again is harmless.
    expect((await call(ts, 'DELETE', `/v1/monitors/${monitorId}`, ts.tenant.keys.test)).status).toBe(204);
  });
});

describe('a monitor opened in a case (issue 18)', () => {
  it("carries its MonitorTriggered onto the case's stream and timeline, delivered to webhooks once", async () => {
    alternate = true;
    const opened = await call(ts, 'POST', '/v1/cases', ts.tenant.keys.test, {
      title: 'Watched',
      purpose: 'fraud_prevention',
      authorization: { kind: 'court_order', reference: 'CO-M1', issued_by: 'Court' },
    });
    expect(opened.status).toBe(201);
    const caseId = opened.body.case_id as string;
    const created = await call(ts, 'POST', '/v1/monitors', ts.tenant.keys.test, {
      ...WATCH,
      cadence_seconds: 1,
      triggers: { score_moves_by: 10, label_change: true },
      case_id: caseId,
    });
    expect(created.status).toBe(201);
    const monitorId = created.body.monitor_id as string;
    const deliveriesBefore = receiver.received.length;
    await vi.waitFor(
      async () => {
        const timeline = (await call(ts, 'GET', `/v1/cases/${caseId}/timeline`, ts.tenant.keys.test)).body as {
          type: string;
          data: { monitor_id?: string };
        }[];
        expect(timeline.some((e) => e.type === 'MonitorTriggered' && e.data.monitor_id === monitorId)).toBe(true);
      },
      { timeout: 15_000, interval: 200 },
    );
    const timeline = (await call(ts, 'GET', `/v1/cases/${caseId}/timeline`, ts.tenant.keys.test)).body as unknown[];
    for (const e of timeline) EventEnvelope.parse(e);
    const onMonitor = (
      await owner.query(`SELECT count(*)::int AS n FROM actor_events WHERE stream_id = $1 AND type = 'MonitorTriggered'`, [monitorId])
    ).rows[0].n as number;
    const onCase = (
      await owner.query(`SELECT count(*)::int AS n FROM actor_events WHERE stream_id = $1 AND type = 'MonitorTriggered'`, [caseId])
    ).rows[0].n as number;
    expect(onCase).toBeGreaterThanOrEqual(1);
    expect(onCase).toBeLessThanOrEqual(onMonitor);
    await call(ts, 'DELETE', `/v1/monitors/${monitorId}`, ts.tenant.keys.test);
    // One webhook delivery per event of the monitor's own stream, none for the copies: counted once the relay
    // has sent every event of both streams and the webhook jobs are done.
    await settled(ts, owner, [monitorId, caseId], ['monitors', 'webhooks']);
    const fromThisMonitor = receiver.received.slice(deliveriesBefore).filter((d) => JSON.parse(d.body).data.monitor_id === monitorId);
    const finalOnMonitor = (
      await owner.query(`SELECT count(*)::int AS n FROM actor_events WHERE stream_id = $1 AND type = 'MonitorTriggered'`, [monitorId])
    ).rows[0].n as number;
    expect(fromThisMonitor.length).toBeLessThanOrEqual(finalOnMonitor);
  });
});
