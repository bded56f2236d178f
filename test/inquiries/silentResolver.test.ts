import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsFixture, type DnsFixture } from '../checks/dnsFixture.js';
import { ownerClient } from '../support/database.js';
import { startTestService, type TestService } from '../support/service.js';
import { inquire } from './support.js';

/**
 * A DNS resolver that does not answer at all (down, or cut off from the
 * network): the DNS checks can ask nothing, so an inquiry that reaches their
 * tier must not wait on the queue to hear that. They are answered on the
 * request path with their absences; no job is queued for them.
 */
let silent: DnsFixture;
let ts: TestService;
let owner: pg.Client;
const asked: string[] = [];
beforeAll(async () => {
  silent = await startDnsFixture({}, { silent: true, onQuestion: (name) => asked.push(name) });
  ts = await startTestService({ TAS_DNS_SERVERS: silent.server, TAS_DNS_CANARY: 'canary.test', TAS_NETWORK_TIMEOUT_MS: '300' });
  owner = await ownerClient(ts.dbUrl);
});
afterAll(async () => {
  await owner?.end();
  await ts?.stop();
  await silent?.close();
});

const DOMAIN_AT_T1 = {
  subject: { presentations: [{ type: 'DOMAIN', value: 'quiet-resolver-shop.example' }] },
  intent: 'pre_transaction',
  purpose: 'fraud_prevention',
  stake: { kind: 'payment', amount: 500, currency: 'GBP' },
  tier_ceiling: 't1',
};

describe('an inquiry while the resolver is silent', () => {
  it('concludes at once with the DNS checks as absences, and queues no job for them', async () => {
    await expect
      .poll(async () => ((await (await fetch(`${ts.base}/healthz`)).json()) as any).resolver, { timeout: 5000, interval: 50 })
      .toBe('degraded');

    const r = await inquire(ts, DOMAIN_AT_T1);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('concluded');
    // dns_address and dns_ns apply to a DOMAIN: both unanswered, each saying why.
    expect(r.body.assessment.evidence.failed_signals).toBe(2);
    expect(JSON.stringify(r.body)).toContain('The resolver is not answering a known-good name');

    // Nothing waited on a worker: the inquiry's facts name no pending check, and no check job went out.
    const row = await owner.query(`SELECT request->'pendingIndex' AS pending FROM inquiries WHERE id = $1`, [r.body.inquiry_id]);
    expect(row.rows).toEqual([{ pending: {} }]);
    expect(asked.filter((name) => name.includes('quiet-resolver-shop'))).toEqual([]);
  });
});
