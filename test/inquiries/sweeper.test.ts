import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepOverdueInquiries } from '../../src/inquiries/sweeper.js';
import { createQueues, QUEUE_NAMES } from '../../actors/queues.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { EMAIL_AND_PHONE, inquire, json, providersFile, startProviderFixture, type ProviderFixture } from './support.js';

/**
 * After an outage, no inquiry stays preliminary for ever (issue 12 item 4):
 * every job is retried with backoff, and the sweeper concludes inquiries left
 * open past their bound. Here no worker runs at all (the worst case: every
 * check and timer job lost), and the sweeper alone concludes the inquiry.
 */
let ts: TestService;
let provider: ProviderFixture;
beforeAll(async () => {
  provider = await startProviderFixture();
  provider.handler = (_req, res) => json(res, 200, { risk: 'low' });
  ts = await startTestService({ TAS_PROVIDERS_FILE: providersFile(provider.url, 'Sweep Provider', 2000) }, { workers: false });
});
afterAll(async () => {
  await ts?.stop();
  await provider?.close();
});

describe('the deadline sweeper', () => {
  it('concludes an inquiry whose check and timer jobs were lost', async () => {
    const r = await inquire(ts, { ...EMAIL_AND_PHONE, stake: { ...EMAIL_AND_PHONE.stake, deadline_ms: 200 } });
    expect(r.status).toBe(200);
    expect(r.body.status).not.toBe('concluded');
    const fire = (scope: { tenantId: string; mode: 'live' | 'test' }, id: string) =>
      ts.service.core.inquiries.fireTimer(scope, id, 'reasoning.expired');
    expect(await sweepOverdueInquiries(ts.service.db, fire, 60_000)).toBe(0);
    expect(await sweepOverdueInquiries(ts.service.db, fire, 0)).toBeGreaterThanOrEqual(1);
    const after = (await (
      await fetch(`${ts.base}/v1/inquiries/${r.body.inquiry_id}`, { headers: bearer(ts.tenant.keys.test) })
    ).json()) as any;
    expect(after.status).toBe('concluded');
    expect(await sweepOverdueInquiries(ts.service.db, fire, 0)).toBe(0);
  });
});

describe('job retries', () => {
  it('every queue retries its jobs with backoff', async () => {
    const queues = createQueues({ connection: { host: '127.0.0.1', port: 6379 }, prefix: 'tastest:retries' });
    try {
      for (const name of QUEUE_NAMES.filter((n) => n !== 'webhooks')) {
        const defaults = queues.queue(name).defaultJobOptions;
        expect([name, (defaults.attempts ?? 1) > 1, defaults.backoff !== undefined]).toEqual([name, true, true]);
      }
    } finally {
      await queues.close();
    }
  });
});
