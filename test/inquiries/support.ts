import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFixtureProvidersFile } from '../../scripts/lib/fixtureProvider.js';
import { bearer, type TestService } from '../support/service.js';

/** A provider fixture on loopback whose behaviour a test can change between calls. */
export interface ProviderFixture {
  url: string;
  calls: number;
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  close(): Promise<void>;
}

export async function startProviderFixture(): Promise<ProviderFixture> {
  const fixture: ProviderFixture = {
    url: '',
    calls: 0,
    handler: (_req, res) => json(res, 200, { risk: 'low' }),
    close: () => Promise.resolve(),
  };
  const server: Server = createServer((req, res) => {
    fixture.calls += 1;
    fixture.handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fixture.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fixture.close = () =>
    new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return fixture;
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Writes a providers file with one EMAIL provider pointing at the fixture, named `name`. */
export function providersFile(fixtureUrl: string, name: string, timeoutMs = 5000): string {
  return writeFixtureProvidersFile('tas-providers', fixtureUrl, name, timeoutMs);
}

export const EMAIL_AND_PHONE = {
  subject: {
    presentations: [
      { type: 'EMAIL', value: 'jane.doe@gmail.com' },
      { type: 'PHONE', value: '+44 20 7946 0958' },
    ],
    claim: { country: 'GB', name: 'Jane Doe' },
  },
  intent: 'pre_transaction',
  purpose: 'fraud_prevention',
  stake: { kind: 'payment', amount: 50, currency: 'GBP' },
};

export async function inquire(ts: TestService, body: unknown, key = ts.tenant.keys.test, headers: Record<string, string> = {}) {
  const started = Date.now();
  const res = await fetch(`${ts.base}/v1/inquiries`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), text, headers: res.headers, ms: Date.now() - started };
}
