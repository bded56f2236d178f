import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishPolicy } from '../support/policies.js';
import { startTestService, type TestService } from '../support/service.js';
import { connect, OPEN_BODY, openSession, type Message } from './support.js';

/**
 * A session reads a phone written without its country code as an inquiry
 * does: in the tenant's default country (its policy's `default_region`), so
 * the same number gets the same reading whichever way the tenant asks.
 */
let ts: TestService;
beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
});
afterAll(async () => {
  await ts?.stop();
});

const phoneFindings = (messages: Message[]) =>
  messages.filter((m) => m.type === 'findings.added').flatMap((m) => m.findings.filter((f: Message) => f.kind?.startsWith('phone_')));

async function sessionReading(key: string) {
  const opened = await openSession(ts, OPEN_BODY, key);
  expect(opened.status).toBe(201);
  const client = await connect(opened.body);
  await client.waitFor((m) => m.type === 'ready');
  client.send({ type: 'presentation', presentation: { type: 'PHONE', value: '07911 123456' } });
  expect(await client.reply(1)).toMatchObject({ type: 'ack' });
  const issued = await client.assessment(1);
  client.send({ type: 'close' });
  await client.waitFor((m) => m.type === 'session.closed');
  return { issued, findings: phoneFindings(client.messages) };
}

describe("a session's phones and the tenant's default country", () => {
  it("given 07911 123456 and a policy's default_region GB, then the session reads it in GB: a real line that supports", async () => {
    const tenant = await ts.provision(`session-region-${Date.now()}`);
    const publish = await publishPolicy(ts.base, tenant.keys.live_admin, { default_region: 'GB' });
    expect(publish.status).toBe(201);
    const { findings } = await sessionReading(tenant.keys.live);
    expect(findings.filter((f: Message) => f.disposition === 'supports').map((f: Message) => f.kind)).toContain('phone_real_line');
    expect(findings.map((f: Message) => f.statement)).toContain(
      "The phone number, written without a country code, is valid read in the tenant's default country, United Kingdom (GB).",
    );
  });

  it('given the same number and no default country, then no phone fact is made up', async () => {
    const { findings } = await sessionReading(ts.tenant.keys.test);
    expect(findings.filter((f: Message) => f.disposition === 'supports')).toEqual([]);
  });
});
