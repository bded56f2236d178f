import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventSource } from 'eventsource';
import type pg from 'pg';
import { vi, expect } from 'vitest';
import type { QueueName } from '../../actors/queues.js';
import { bearer, type TestService } from '../support/service.js';

/** Shared by the monitor tests: the watched subject, HTTP helpers, an SSE collector, a webhook receiver. */
export const WATCH = {
  subject: { presentations: [{ type: 'EMAIL', value: 'watch.me@example.org' }] },
  intent: 'counterparty_check',
  purpose: 'fraud_prevention',
  stake: { kind: 'account', deadline_ms: 3000 },
};

/** Labels by score; with the fixture provider, `risk: low` scores about 69 and `risk: high` about 38. */
export const POLICY = {
  allowed_purposes: ['fraud_prevention'],
  allowed_intents: ['counterparty_check'],
  render_ceiling: 'template',
  show_findings: true,
  rules: [
    { label: 'proceed', when: { score_gte: 60 } },
    { label: 'review', when: {} },
  ],
};

export async function call(ts: TestService, method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`${ts.base}${path}`, {
    method,
    headers: { ...bearer(key), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

export interface Received {
  id: string;
  type: string;
  data: any;
}

/** An EventSource on a monitor stream that records every MonitorTriggered it gets. */
export function watchStream(url: string, key: string, lastEventId?: string) {
  const events: Received[] = [];
  const es = new EventSource(url, {
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        headers: { ...(init?.headers as Record<string, string>), ...bearer(key), ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}) },
      }),
  });
  es.addEventListener('MonitorTriggered', (e) => events.push({ id: e.lastEventId, type: e.type, data: JSON.parse(e.data) }));
  return { es, events, ids: () => events.map((e) => Number(e.id)) };
}

/** A loopback webhook receiver that keeps every delivery as it arrived. */
export async function startReceiver() {
  const received: { headers: IncomingMessage['headers']; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Ledger rows (assessments) of every inquiry a monitor's rescans asked. */
export async function ledgerCount(owner: pg.Client, monitorId: string): Promise<number> {
  const { rows } = await owner.query(
    `SELECT count(*)::int AS n FROM assessments a JOIN inquiries i ON i.id = a.inquiry_id WHERE i.principal = $1`,
    [`monitor:${monitorId}`],
  );
  return rows[0].n as number;
}

/**
 * Resolves once nothing is left that could still write for these streams: no
 * outbox row of theirs waits for the relay, no job of theirs is queued,
 * delayed or running on `queues`, and no inquiry a monitor's rescan opened is
 * still reasoning. What a test counts after this is final; no sleep guesses it.
 */
export async function settled(
  ts: TestService,
  owner: pg.Client,
  streamIds: string[],
  queues: readonly QueueName[] = ['monitors'],
): Promise<void> {
  const monitorPrincipals = streamIds.map((id) => `monitor:${id}`);
  await vi.waitFor(
    async () => {
      const { rows } = await owner.query(
        `SELECT (SELECT count(*)::int FROM outbox WHERE actor_id::text = ANY($1::text[])) AS outbox,
              (SELECT count(*)::int FROM inquiries WHERE principal = ANY($2::text[]) AND status IN ('accepted', 'reasoning')) AS open`,
        [streamIds, monitorPrincipals],
      );
      expect(rows[0]).toEqual({ outbox: 0, open: 0 });
      for (const name of queues) {
        const jobs = await ts.service.core.queues.named(name).getJobs(['active', 'waiting', 'delayed', 'prioritized']);
        expect(jobs.filter((j) => j !== undefined && streamIds.some((id) => JSON.stringify(j.data).includes(id)))).toEqual([]);
      }
    },
    { timeout: 20_000, interval: 100 },
  );
}
