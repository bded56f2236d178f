import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startHttpFixture, type HttpFixture } from '../checks/httpFixture.js';
import { ownerClient } from '../support/database.js';
import { startTestService, type TestService } from '../support/service.js';
import { inquire } from './support.js';

/**
 * An RDAP service that answers its help query but keeps failing its look-ups
 * (503: one registry behind it is down). The first inquiries ask it and
 * record its failure; then its breaker opens, /healthz says so, and the next
 * inquiry neither queues the look-up nor asks the service: it concludes with
 * the check's absence.
 */
let registry: HttpFixture;
let ts: TestService;
let owner: pg.Client;
beforeAll(async () => {
  registry = await startHttpFixture((request, response) =>
    request.url === '/help' ? sendJson(response, 200, { rdapConformance: ['rdap_level_0'] }) : sendJson(response, 503, { errorCode: 503 }),
  );
  ts = await startTestService({ TAS_RDAP_BASE_URL: registry.baseUrl, TAS_NETWORK_TIMEOUT_MS: '300' });
  owner = await ownerClient(ts.dbUrl);
});
afterAll(async () => {
  await owner?.end();
  await ts?.stop();
  await registry?.close();
});

const domainAtT1 = (domain: string) => ({
  subject: { presentations: [{ type: 'DOMAIN', value: domain }] },
  intent: 'pre_transaction',
  purpose: 'fraud_prevention',
  stake: { kind: 'payment', amount: 500, currency: 'GBP' },
  tier_ceiling: 't1',
});

const lookups = () => registry.requests.filter((r) => r.url.startsWith('/domain/'));
const healthz = async () => (await (await fetch(`${ts.base}/healthz`)).json()) as { status: string; registry: string };
const pendingOf = async (inquiryId: string) =>
  (await owner.query(`SELECT request->'pendingIndex' AS pending FROM inquiries WHERE id = $1`, [inquiryId])).rows[0].pending;

describe('an RDAP service that keeps failing', () => {
  it('is asked until its breaker opens; then /healthz is degraded and inquiries conclude without a job or a request', async () => {
    expect((await healthz()).registry).toBe('ok');
    for (const domain of ['first-failing.com', 'second-failing.com']) {
      const r = await inquire(ts, domainAtT1(domain));
      expect(r.body.status).toBe('concluded');
      expect(Object.keys(await pendingOf(r.body.inquiry_id))).toHaveLength(1);
    }
    expect(lookups()).toHaveLength(2);
    expect(await healthz()).toMatchObject({ status: 'degraded', registry: 'degraded' });
    // The operator's log says so once, naming the check and the TLD, not the service's address.
    const warned = ts.logs.filter((line) => line.includes('dependency is failing'));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain('rdap_domain_age (.com)');
    expect(warned[0]).not.toContain(registry.baseUrl);

    const r = await inquire(ts, domainAtT1('third-failing.com'));
    expect(r.body.status).toBe('concluded');
    expect(await pendingOf(r.body.inquiry_id)).toEqual({});
    expect(JSON.stringify(r.body.findings.absences)).toContain('failing to answer, so it was not asked');
    expect(lookups()).toHaveLength(2);
  });
});
