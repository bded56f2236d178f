import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/platform/config.js';
import { withTenant } from '../../src/platform/db/pool.js';
import { generateWebhookSecret, sealSecret } from '../../src/webhooks/secret.js';
import { insertEndpoint } from '../../src/webhooks/store.js';
import { ownerClient } from '../support/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { eventually } from '../support/wait.js';

/**
 * Issue 40, SSRF through test mode: on a deployment configured for
 * production, a tenant's test-mode admin key can neither register a loopback
 * or plain-http webhook target nor make the delivery worker send to one that
 * is already on record. A real HTTP server on loopback stands for whatever
 * listens on the workers' host, and must see no request at all.
 */
let ts: TestService;
let server: Server;
let hits = 0;
let port = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits += 1;
    req.resume();
    res.writeHead(200).end('internal service');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  ts = await startTestService({ NODE_ENV: 'production' }, { workers: true });
});
afterAll(async () => {
  await ts?.stop();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function register(key: string, url: string) {
  const res = await fetch(`${ts.base}/v1/admin/webhooks`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    body: JSON.stringify({ url, event_types: ['InquiryConcluded'] }),
  });
  return { status: res.status, body: (await res.json()) as { detail?: { type: string }[] } };
}

describe('the operator setting', () => {
  it.each([
    [{ NODE_ENV: 'production' }, false],
    [{ NODE_ENV: 'development' }, true],
    [{ NODE_ENV: 'test' }, true],
    [{ NODE_ENV: 'production', TAS_WEBHOOKS_ALLOW_LOOPBACK: 'true' }, true],
    [{ NODE_ENV: 'development', TAS_WEBHOOKS_ALLOW_LOOPBACK: 'false' }, false],
  ])('given %o, then loopback webhook targets allowed is %s', (env, allowed) => {
    expect(loadConfig({ ...env, TAS_KEY_PEPPER: 'p'.repeat(32) }).webhooksAllowLoopback).toBe(allowed);
  });
});

describe('a production deployment and a test-mode admin key', () => {
  it.each([
    ['plain http on loopback', () => `http://127.0.0.1:${port}/hooks`],
    ['https on loopback', () => `https://127.0.0.1:${port}/hooks`],
    ['plain http on IPv6 loopback', () => `http://[::1]:${port}/hooks`],
    ['plain http by the name localhost', () => `http://localhost:${port}/hooks`],
  ])('given %s, then registration is refused with W01', async (_name, url) => {
    const { status, body } = await register(ts.tenant.keys.test_admin, url());
    expect(status).toBe(422);
    expect(body.detail?.[0]?.type).toBe('W01');
  });

  it('given a loopback endpoint already on record (registered before the setting changed), then the worker refuses to send and the loopback server sees nothing', async () => {
    const scope = { tenantId: ts.tenant.tenant_id, mode: 'test' as const };
    const endpointId = randomUUID();
    await withTenant(ts.service.db, scope, (tx) =>
      insertEndpoint(tx, scope, {
        id: endpointId,
        url: `http://127.0.0.1:${port}/hooks`,
        eventTypes: ['InquiryConcluded'],
        description: null,
        secretSealed: sealSecret(ts.config.keyPepper, generateWebhookSecret(), { tenantId: scope.tenantId, endpointId }),
      }),
    );
    const inquiryId = randomUUID();
    await ts.service.core.redeliverWebhook({
      ...scope,
      endpointId,
      messageId: `msg_${randomUUID().replaceAll('-', '')}`,
      stream: 'inquiry',
      event: {
        stream_id: inquiryId,
        seq: 1,
        type: 'InquiryConcluded',
        payload: { inquiry_id: inquiryId },
        occurred_at: new Date().toISOString(),
      },
    });
    const c = await ownerClient(ts.dbUrl);
    try {
      const rows = await eventually(
        async () => {
          const { rows } = await c.query<{ status: string; error: string | null }>(
            'SELECT status, error FROM webhook_deliveries WHERE endpoint_id = $1',
            [endpointId],
          );
          return rows.length > 0 && rows;
        },
        { timeout: 10_000, interval: 50, what: 'the delivery row' },
      );
      expect(rows).toEqual([{ status: 'failed', error: 'target refused by the address guard' }]);
    } finally {
      await c.end();
    }
    expect(hits).toBe(0);
  });
});
