import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventEnvelope } from '../../src/events/schemas.js';
import { EMAIL_AND_PHONE, inquire, json, providersFile, startProviderFixture, type ProviderFixture } from '../inquiries/support.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

/**
 * What is sent is what is documented (issue 16): every event of a real
 * inquiry's stream (issued preliminary, revised by a worker check,
 * concluded), read back over SSE, parses with the EventEnvelope schema the
 * OpenAPI document publishes for its type.
 */
let ts: TestService;
let provider: ProviderFixture;

beforeAll(async () => {
  provider = await startProviderFixture();
  ts = await startTestService({ TAS_PROVIDERS_FILE: providersFile(provider.url, 'Wire Events Provider', 5000) });
});
afterAll(async () => {
  await ts?.stop();
  await provider?.close();
});

/** Every event of a stream from its start, as an SSE client receives them, until `last` arrives. */
async function readStream(path: string, last: string): Promise<{ type: string; data: unknown }[]> {
  const res = await fetch(`${ts.base}${path}`, { headers: { ...bearer(ts.tenant.keys.test), accept: 'text/event-stream' } });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const events: { type: string; data: unknown }[] = [];
  let buffer = '';
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const type = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (type && data) events.push({ type, data: JSON.parse(data) });
      if (type === last) {
        await reader.cancel();
        return events;
      }
    }
  }
  await reader.cancel();
  return events;
}

describe('events on the wire', () => {
  it('every inquiry event parses with its documented schema', async () => {
    provider.handler = (_req, res) => setTimeout(() => json(res, 200, { risk: 'low' }), 400);
    const r = await inquire(ts, { ...EMAIL_AND_PHONE, stake: { ...EMAIL_AND_PHONE.stake, deadline_ms: 200 } });
    expect(r.body.status).toBe('preliminary');
    const events = await readStream(`/v1/inquiries/${r.body.inquiry_id}/events`, 'InquiryConcluded');
    expect(events.map((e) => e.type)).toEqual(['AssessmentIssued', 'AssessmentRevised', 'InquiryConcluded']);
    const violations = events.flatMap((e) => {
      const parsed = EventEnvelope.safeParse(e.data);
      return parsed.success ? [] : parsed.error.issues.map((i) => `${e.type} ${i.path.join('.')}: ${i.message}`);
    });
    expect(violations).toEqual([]);
  });
});
