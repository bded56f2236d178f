import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerClient } from '../support/database.js';
import { startTestService, type TestService } from '../support/service.js';
import { inquire } from './support.js';
import { eventually } from '../support/wait.js';

/**
 * An RDAP service that cannot be reached: a real loopback port that accepts
 * connections and never answers (as a dropped route or a stuck proxy does).
 * The start-up probe finds it down, /healthz says so, and the very first
 * inquiry does not wait for it: the look-up is answered on the request path
 * with its absence, no job is queued and no request is made.
 */
let blackhole: Server;
const connections: Socket[] = [];
let ts: TestService;
let owner: pg.Client;
beforeAll(async () => {
  blackhole = createServer((socket) => connections.push(socket));
  await new Promise<void>((resolve) => blackhole.listen(0, '127.0.0.1', resolve));
  const { port } = blackhole.address() as AddressInfo;
  // The default network timeout (2 s): without the probe, every inquiry would wait it out.
  ts = await startTestService({ TAS_RDAP_BASE_URL: `http://127.0.0.1:${port}`, TAS_NETWORK_TIMEOUT_MS: '2000' });
  owner = await ownerClient(ts.dbUrl);
});
afterAll(async () => {
  await owner?.end();
  await ts?.stop();
  for (const socket of connections) socket.destroy();
  await new Promise((resolve) => blackhole?.close(resolve));
});

const healthz = async () => (await (await fetch(`${ts.base}/healthz`)).json()) as { status: string; registry: string };

async function untilDegraded(withinMs: number): Promise<void> {
  await eventually(async () => (await healthz()).registry === 'degraded', {
    timeout: withinMs,
    interval: 100,
    what: 'the registry showing as degraded',
  });
}

describe('an RDAP service that cannot be reached', () => {
  it('is found down at start-up; the first inquiries conclude at once with its absence, queue nothing and ask nothing', async () => {
    // The probe gives up after the network timeout (2 s); both the edge's and the workers' checks probe once.
    await untilDegraded(5000);
    const probes = connections.length;
    expect(probes).toBeGreaterThanOrEqual(1);
    const warned = ts.logs.filter((line) => line.includes('dependency is failing'));
    expect(warned.some((line) => line.includes('"rdap_domain_age"'))).toBe(true);

    for (const domain of ['first-unreached.com', 'second-unreached.org']) {
      const r = await inquire(ts, {
        subject: { presentations: [{ type: 'DOMAIN', value: domain }] },
        intent: 'pre_transaction',
        purpose: 'fraud_prevention',
        stake: { kind: 'payment', amount: 500, currency: 'GBP' },
        tier_ceiling: 't1',
      });
      expect(r.body.status).toBe('concluded');
      // Nothing was waited for: no check was queued (pendingIndex) and no look-up sent (connections,
      // below). Asserted on what happened, not on a clock, which a loaded machine stretches.
      const pending = (await owner.query(`SELECT request->'pendingIndex' AS pending FROM inquiries WHERE id = $1`, [r.body.inquiry_id]))
        .rows[0].pending;
      expect(pending).toEqual({});
      expect(r.body.findings.absences).toContainEqual(
        expect.objectContaining({
          about: domain,
          kind: 'error',
          reason: 'rdap_domain_age: The registration registry cannot be reached, so it was not asked.',
        }),
      );
    }
    expect(connections.length).toBe(probes);
  });
});
