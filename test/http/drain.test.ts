import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_AND_PHONE, inquire, json, providersFile, startProviderFixture, type ProviderFixture } from '../inquiries/support.js';
import { startTestService, type TestService } from '../support/service.js';

/**
 * Graceful drain (issue 16): on stop, a call in flight finishes on open pools
 * and gets its answer; only then do the pools, queues and Redis close.
 */
let ts: TestService;
let provider: ProviderFixture;
beforeAll(async () => {
  provider = await startProviderFixture();
  provider.handler = (_req, res) => setTimeout(() => json(res, 200, { risk: 'low' }), 800);
  ts = await startTestService({ TAS_PROVIDERS_FILE: providersFile(provider.url, 'Drain Provider', 5000) });
});
afterAll(async () => {
  await provider?.close();
});

describe('stopping the service', () => {
  it('lets a call in flight finish with its answer before closing anything', async () => {
    // In flight for sure once its check has reached the provider (which answers 800 ms later).
    const reached = new Promise<void>((resolve) => {
      provider.handler = (_req, res) => {
        resolve();
        setTimeout(() => json(res, 200, { risk: 'low' }), 800);
      };
    });
    const inFlight = inquire(ts, { ...EMAIL_AND_PHONE, stake: { ...EMAIL_AND_PHONE.stake, deadline_ms: 5000 } });
    await reached;
    const stopped = ts.stop();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe('concluded');
    await stopped;
  });
});
