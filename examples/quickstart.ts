/**
 * The README's quick start with the typed client: ask an inquiry, then
 * follow its events. Run against a local service (`npm start` prints a demo
 * test key):
 *
 *   TAS_URL=http://127.0.0.1:8080 TAS_KEY=tas_test_… npx tsx examples/quickstart.ts
 */
import { createTasClient, streamEvents } from '@tas/client';

const baseUrl = process.env.TAS_URL ?? 'http://127.0.0.1:8080';
const key = process.env.TAS_KEY;
if (!key) throw new Error('set TAS_KEY to a tenant key (npm start prints a demo one)');

const client = createTasClient({ baseUrl, key });
const { data, error } = await client.POST('/v1/inquiries', {
  body: {
    subject: { presentations: [{ type: 'EMAIL', value: 'jane.doe@example.org' }] },
    intent: 'counterparty_check',
    purpose: 'fraud_prevention',
    stake: { kind: 'payment', amount: 250, currency: 'EUR' },
  },
});
if (error) throw new Error(`refused: ${JSON.stringify(error)}`);
const a = data.assessment;
console.log(`score ${a.score} [${a.low}-${a.high}], label ${a.label?.value ?? 'none'}, status ${data.status}`);

// An inquiry still reasoning at its deadline (worker checks out) gives an events_url: its revisions arrive there.
// A concluded one (the usual case with the network checks off) has none.
if (data.events_url) {
  const stream = streamEvents({ url: data.events_url, key, onEvent: (e) => console.log(e.type, e.sequence) });
  setTimeout(() => stream.close(), 5000);
  await stream.done;
}
