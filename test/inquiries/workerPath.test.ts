import { EventSource } from 'eventsource';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InquiryResponse } from '../../src/inquiries/schemas.js';
import { ownerClient } from '../support/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { EMAIL_AND_PHONE, inquire, json, providersFile, startProviderFixture, type ProviderFixture } from './support.js';

/**
 * Inquiries that wait on a worker check: an operator-configured HTTP provider
 * on loopback, named distinctively so the test can prove the name and its raw
 * payload leave the service nowhere.
 */
const PROVIDER_NAME = 'ZebraSecretIntel Ltd';
const PAYLOAD_MARKER = 'raw-payload-marker-7f3a';

let ts: TestService;
let provider: ProviderFixture;
let owner: pg.Client;
const seen: string[] = [];

beforeAll(async () => {
  provider = await startProviderFixture();
  ts = await startTestService({ TAS_PROVIDERS_FILE: providersFile(provider.url, PROVIDER_NAME, 5000) });
  owner = await ownerClient(ts.dbUrl);
});
afterAll(async () => {
  await owner?.end();
  await ts?.stop();
  await provider?.close();
});

/** The provider answers `ms` late (the fixture's delay is the subject here); resolves once it has answered. */
function respondAfter(ms: number, body: unknown): Promise<void> {
  return new Promise((answered) => {
    provider.handler = (_req, res) => {
      setTimeout(() => {
        json(res, 200, body);
        answered();
      }, ms);
    };
  });
}

function collectEvents(url: string, key: string, until: string): Promise<{ type: string; id: string; data: any }[]> {
  return new Promise((resolve, reject) => {
    const got: { type: string; id: string; data: any }[] = [];
    const es = new EventSource(url, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...bearer(key) } }),
    });
    const timer = setTimeout(() => {
      es.close();
      reject(new Error(`no ${until} within 10 s; got ${got.map((g) => g.type).join(',')}`));
    }, 10_000);
    for (const type of ['AssessmentIssued', 'AssessmentRevised', 'InquiryConcluded']) {
      es.addEventListener(type, (e) => {
        seen.push(e.data);
        got.push({ type, id: e.lastEventId, data: JSON.parse(e.data) });
        if (type === until) {
          clearTimeout(timer);
          es.close();
          resolve(got);
        }
      });
    }
  });
}

describe('inquiries with a worker check', () => {
  it('a provider that answers in time: the inquiry concludes with its finding', async () => {
    const answered = respondAfter(20, { risk: 'low', vendor: PROVIDER_NAME, note: PAYLOAD_MARKER });
    const r = await inquire(ts, { ...EMAIL_AND_PHONE, stake: { ...EMAIL_AND_PHONE.stake, deadline_ms: 5000 } });
    await answered;
    seen.push(r.text);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('concluded');
    const finding = r.body.findings.findings.find((f: any) => f.kind === 'email_reputation');
    expect(finding).toMatchObject({
      disposition: 'supports',
      provenance_class: 'third_party',
      statement: 'The email address has a clean reputation.',
    });
  });

  it('pre_transaction, provider slower than the deadline: a preliminary answer in time, then the revision and the conclusion on SSE', async () => {
    const answered = respondAfter(1200, { risk: 'high', note: PAYLOAD_MARKER });
    const r = await inquire(ts, { ...EMAIL_AND_PHONE, stake: { ...EMAIL_AND_PHONE.stake, deadline_ms: 400 } });
    seen.push(r.text);
    expect(r.status).toBe(200);
    // A preliminary answer before the provider's (1200 ms); its latency is measured by the benchmarks.
    expect(r.ms).toBeLessThan(1200);
    const body = InquiryResponse.parse(r.body);
    expect(body.status).toBe('preliminary');
    expect(body.assessment.preliminary).toBe(true);
    expect(body.findings).toBeUndefined();
    expect(body.events_url).toBe(`${ts.base}/v1/inquiries/${body.inquiry_id}/events`);
    const events = await collectEvents(body.events_url!, ts.tenant.keys.test, 'InquiryConcluded');
    await answered;
    expect(events.map((e) => e.type)).toEqual(['AssessmentIssued', 'AssessmentRevised', 'InquiryConcluded']);
    expect(events.map((e) => Number(e.id))).toEqual([1, 2, 3]);
    const revised = events[1]!.data.data;
    expect(revised.assessment.preliminary).toBe(false);
    expect(revised.assessment.assessment_id).not.toBe(body.assessment.assessment_id);
    expect(revised.previous_assessment_id).toBe(body.assessment.assessment_id);
    const ledger = await owner.query('SELECT preliminary FROM assessments WHERE inquiry_id = $1 ORDER BY ledger_seq', [body.inquiry_id]);
    expect(ledger.rows.map((row) => row.preliminary)).toEqual([true, false]);
    const after = await fetch(`${ts.base}/v1/inquiries/${body.inquiry_id}`, { headers: bearer(ts.tenant.keys.test) });
    const final = (await after.json()) as any;
    seen.push(JSON.stringify(final));
    expect(final.status).toBe('concluded');
    expect(final.findings.findings.some((f: any) => f.kind === 'email_reputation' && f.disposition === 'weakens')).toBe(true);
    // Born preliminary beside its actor, the row was concluded by a later command, which set its conclusion time.
    const row = await owner.query('SELECT status, concluded_at > created_at AS concluded_later FROM inquiries WHERE id = $1', [
      body.inquiry_id,
    ]);
    expect(row.rows).toEqual([{ status: 'concluded', concluded_later: true }]);
  });

  it('another intent, provider slower than the deadline: concluded within the deadline with a timeout absence', async () => {
    const lateAnswer = respondAfter(1200, { risk: 'low' });
    const r = await inquire(ts, { ...EMAIL_AND_PHONE, intent: 'onboarding', stake: { ...EMAIL_AND_PHONE.stake, deadline_ms: 400 } });
    seen.push(r.text);
    expect(r.status).toBe(200);
    // The answer did not wait for the provider (1200 ms); how close to the 400 ms deadline it
    // comes is a latency figure for the benchmarks, not a timed test (it failed under load).
    expect(r.ms).toBeLessThan(1200);
    expect(r.body.status).toBe('concluded');
    expect(r.body.assessment.preliminary).toBe(false);
    expect(r.body.findings.absences).toContainEqual(expect.objectContaining({ about: 'jane.doe@gmail.com', kind: 'timeout' }));
    // The late answer changes nothing: once the provider has answered and its check job is done,
    // the inquiry stays concluded with one ledger entry.
    await lateAnswer;
    await vi.waitFor(
      async () => {
        const jobs = await ts.service.core.queues.queue('checks').getJobs(['active', 'waiting', 'delayed', 'prioritized']);
        expect(jobs.filter((j) => j?.data.actorId === r.body.inquiry_id)).toEqual([]);
      },
      { timeout: 10_000, interval: 50 },
    );
    const ledger = await owner.query('SELECT count(*)::int AS n FROM assessments WHERE inquiry_id = $1', [r.body.inquiry_id]);
    expect(ledger.rows[0].n).toBe(1);
  });

  it('a provider that fails becomes an absence, never an HTTP error', async () => {
    provider.handler = (_req, res) => json(res, 500, { error: `${PROVIDER_NAME} exploded`, note: PAYLOAD_MARKER });
    const r = await inquire(ts, { ...EMAIL_AND_PHONE, stake: { ...EMAIL_AND_PHONE.stake, deadline_ms: 3000 } });
    seen.push(r.text);
    expect(r.status).toBe(200);
    expect(r.body.findings.absences).toContainEqual(expect.objectContaining({ about: 'jane.doe@gmail.com', kind: 'error' }));
  });

  it("the provider's name and raw payload appear in no response, event or log line", async () => {
    expect(seen.length).toBeGreaterThan(4);
    const haystacks = [...seen, ...ts.logs];
    for (const needle of [PROVIDER_NAME, 'ZebraSecretIntel', PAYLOAD_MARKER]) {
      expect(haystacks.filter((h) => h.includes(needle))).toEqual([]);
    }
    const stored = await owner.query(
      `SELECT count(*)::int AS n FROM assessments WHERE findings::text LIKE '%ZebraSecret%' OR findings::text LIKE $1`,
      [`%${PAYLOAD_MARKER}%`],
    );
    expect(stored.rows[0].n).toBe(0);
  });
});
