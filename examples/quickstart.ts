/**
 * The README's quick start with the typed client: ask an inquiry, then
 * follow its events. Run against a local service (`npm start` prints a demo
 * test key):
 *
 *   TAS_KEY=tas_test_… npx tsx examples/quickstart.ts
 *
 * It finds the service as the service itself is told where to listen:
 * TAS_URL when set, otherwise http://HOST:PORT (127.0.0.1 and 8080 by
 * default), so `PORT=8391 npm start` and `PORT=8391 TAS_KEY=… npx tsx
 * examples/quickstart.ts` meet. A failure is one line and exit code 1.
 */
import { createTasClient, streamEvents } from '@tas/client';

/** The settings every example reads (examples/tour.sh the same): TAS_URL, else the service's own HOST and PORT. */
function serviceUrl(env: NodeJS.ProcessEnv): string {
  if (env.TAS_URL) return env.TAS_URL.replace(/\/+$/, '');
  // A service listening on every address is reached on this machine's loopback.
  const host = !env.HOST || env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${env.PORT || '8080'}`;
}

/** One line saying what went wrong and what to do, never a stack trace. */
function explain(error: unknown, baseUrl: string): string {
  const e = error as { message?: string; cause?: { code?: string; message?: string } };
  const code = e.cause?.code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'ECONNRESET' || code === 'ETIMEDOUT')
    return `cannot connect to the service at ${baseUrl} (${code}): start it with npm start, or set TAS_URL (or PORT) to where it listens`;
  return e.cause?.message ?? e.message ?? String(error);
}

function fail(line: string): never {
  console.error(`quickstart: ${line}`);
  process.exit(1);
}

const baseUrl = serviceUrl(process.env);
const key = process.env.TAS_KEY;
if (!key) fail('set TAS_KEY to a tenant key (npm start prints a demo test key)');

try {
  const client = createTasClient({ baseUrl, key });
  const { data, error } = await client.POST('/v1/inquiries', {
    body: {
      subject: { presentations: [{ type: 'EMAIL', value: 'jane.doe@example.org' }] },
      intent: 'counterparty_check',
      purpose: 'fraud_prevention',
      stake: { kind: 'payment', amount: 250, currency: 'EUR' },
    },
  });
  if (error) fail(`refused by ${baseUrl}: ${JSON.stringify(error)}`);
  const a = data.assessment;
  console.log(`score ${a.score} [${a.low}-${a.high}], label ${a.label?.value ?? 'none'}, status ${data.status}`);

  // An inquiry still reasoning at its deadline (worker checks out) gives an events_url: its revisions arrive there.
  // A concluded one (the usual case with the network checks off) has none.
  if (data.events_url) {
    const stream = streamEvents({ url: data.events_url, key, onEvent: (e) => console.log(e.type, e.sequence) });
    setTimeout(() => stream.close(), 5000);
    await stream.done;
  }
} catch (error) {
  fail(explain(error, baseUrl));
}
