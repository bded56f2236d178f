import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScoreCommand } from '../../src/cli/score.js';
import { InquiryResponse } from '../../src/inquiries/schemas.js';
import { unpackFindings, unpackInputs } from '../../src/scoring/index.js';
import { ownerClient } from '../support/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { EMAIL_AND_PHONE, inquire } from './support.js';
import { without } from '../support/objects.js';

let ts: TestService;
let owner: pg.Client;
beforeAll(async () => {
  ts = await startTestService();
  owner = await ownerClient(ts.dbUrl);
});
afterAll(async () => {
  await owner?.end();
  await ts?.stop();
});

describe('POST /v1/inquiries, fast tier', () => {
  it('an email and a phone: 200 with score, interval, evidence counts, readable findings and the audit id', async () => {
    const r = await inquire(ts, EMAIL_AND_PHONE);
    expect(r.status).toBe(200);
    const body = InquiryResponse.parse(r.body);
    expect(body.status).toBe('concluded');
    const a = body.assessment;
    expect(a.low).toBeLessThanOrEqual(a.score);
    expect(a.score).toBeLessThanOrEqual(a.high);
    expect(a.methodology_version).toBe('trust-method/3');
    expect(a.preliminary).toBe(false);
    expect(a.evidence.signals).toBeGreaterThan(5);
    expect(a.evidence.by_provenance_class.computed).toBeGreaterThan(0);
    expect(a.evidence.by_trust_band.high + a.evidence.by_trust_band.medium + a.evidence.by_trust_band.low).toBe(a.evidence.signals);
    const abouts = new Set(body.findings!.findings!.map((f) => f.about));
    expect(abouts).toEqual(new Set(['jane.doe@gmail.com', '+44 20 7946 0958']));
    expect(body.findings!.findings!.every((f) => f.statement.length > 10)).toBe(true);
    expect(body.events_url).toBeUndefined();
    const auditId = r.headers.get('x-service-audit-id');
    const audit = await owner.query('SELECT action, status, purpose, target_id FROM audit_log WHERE audit_id = $1', [auditId]);
    expect(audit.rows).toEqual([{ action: 'createInquiry', status: 200, purpose: 'fraud_prevention', target_id: body.inquiry_id }]);
  });

  it('a concluded inquiry keeps its evidence once, in its ledger entry, not again in its actor snapshot', async () => {
    const r = await inquire(ts, EMAIL_AND_PHONE);
    expect(r.body.status).toBe('concluded');
    const actor = await owner.query(
      "SELECT snapshot->'context'->'signals' AS signals, snapshot->'context'->'absences' AS absences, snapshot->>'value' AS state FROM actors WHERE id = $1",
      [r.body.inquiry_id],
    );
    expect(actor.rows).toEqual([{ signals: [], absences: [], state: 'concluded' }]);
    // The ledger entry holds every finding and every admitted signal (neutral ones included), of which some are scored.
    // Both are kept in their stored form (src/scoring/ledgerRecord.ts), read here as every read does.
    const ledger = await owner.query('SELECT id, findings, inputs FROM assessments WHERE inquiry_id = $1', [r.body.inquiry_id]);
    const stored = ledger.rows[0];
    expect(stored.findings.form).toBe('compact/1');
    const findings = unpackFindings(stored.findings, { inquiryId: r.body.inquiry_id, assessmentId: stored.id }) as { findings: unknown[] };
    const inputs = unpackInputs(stored.inputs) as { evidence: { disposition: string }[] };
    expect(findings).toEqual(r.body.findings);
    expect(findings.findings.length).toBe(r.body.findings.findings.length);
    expect(inputs.evidence.length).toBe(r.body.assessment.evidence.signals);
    const scored = inputs.evidence.filter((e) => e.disposition !== 'neutral').length;
    expect(scored).toBeGreaterThan(0);
    expect(scored).toBeLessThan(inputs.evidence.length);
  });

  it("a concluded inquiry's row is written concluded, with its conclusion time, in the transaction that writes its actor", async () => {
    const r = await inquire(ts, EMAIL_AND_PHONE);
    expect(r.body.status).toBe('concluded');
    const row = await owner.query(
      'SELECT status, concluded_at IS NOT NULL AS concluded, concluded_at >= created_at AS ordered, xmin = (SELECT xmin FROM actors WHERE id = $1) AS one_transaction FROM inquiries WHERE id = $1',
      [r.body.inquiry_id],
    );
    expect(row.rows).toEqual([{ status: 'concluded', concluded: true, ordered: true, one_transaction: true }]);
  });

  it('an inquiry whose last statement fails leaves nothing behind but one audit row, of the failure', async () => {
    // A refusal in the database itself, for one marked subject: the statement that writes the inquiry, its
    // actor, ledger entry and audit row together fails, and the call must be audited once all the same.
    await owner.query(`CREATE FUNCTION refuse_marked_inquiry() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused for the test'; END $$`);
    await owner.query(`CREATE TRIGGER refuse_marked_inquiry BEFORE INSERT ON inquiries FOR EACH ROW
      WHEN (NEW.request::text LIKE '%refuse-last-statement%') EXECUTE FUNCTION refuse_marked_inquiry()`);
    try {
      const marked = {
        ...EMAIL_AND_PHONE,
        subject: { ...EMAIL_AND_PHONE.subject, presentations: [{ type: 'EMAIL', value: 'refuse-last-statement@example.com' }] },
      };
      const r = await inquire(ts, marked);
      expect(r.status).toBeGreaterThanOrEqual(500);
      const auditId = r.headers.get('x-service-audit-id');
      const audit = await owner.query('SELECT action, status FROM audit_log WHERE audit_id = $1', [auditId]);
      expect(audit.rows).toEqual([{ action: 'createInquiry', status: r.status }]);
      const left = await owner.query(
        `SELECT (SELECT count(*)::int FROM inquiries WHERE request::text LIKE '%refuse-last-statement%') AS inquiries,
        (SELECT count(*)::int FROM audit_log WHERE request_id = $1 AND status = 200) AS acknowledged`,
        [r.headers.get('x-request-id')],
      );
      expect(left.rows).toEqual([{ inquiries: 0, acknowledged: 0 }]);
    } finally {
      await owner.query('DROP TRIGGER refuse_marked_inquiry ON inquiries');
      await owner.query('DROP FUNCTION refuse_marked_inquiry()');
    }
  });

  it('an inquiry whose transaction is retried (a serialization failure, once) writes each of its rows once', async () => {
    // The driver runs a transaction again on a class 40 error; the inquiry's rows built in the first
    // attempt (its new entity, its testimony) must not be sent a second time with the second's.
    await owner.query(`CREATE SEQUENCE retry_marked_inquiry`);
    await owner.query(`CREATE FUNCTION retry_marked_inquiry() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
      BEGIN
        IF nextval('retry_marked_inquiry') = 1 THEN RAISE EXCEPTION 'retry me' USING ERRCODE = '40001'; END IF;
        RETURN NEW;
      END $$`);
    await owner.query(`CREATE TRIGGER retry_marked_inquiry BEFORE INSERT ON inquiries FOR EACH ROW
      WHEN (NEW.request::text LIKE '%retried-once%') EXECUTE FUNCTION retry_marked_inquiry()`);
    try {
      const subject = { presentations: [{ type: 'EMAIL', value: 'retried-once@example.com' }] };
      const context = [
        {
          subject,
          provenance_class: 'tenant_supplied',
          summary: 'Refund abuse reported.',
          observed_at: new Date().toISOString(),
          purpose: 'fraud_prevention',
        },
      ];
      const r = await inquire(ts, { ...EMAIL_AND_PHONE, subject, context });
      expect(r.status).toBe(200);
      const rows = await owner.query(
        `SELECT
          (SELECT count(*)::int FROM entities WHERE id = $1::uuid) AS entities,
          (SELECT count(*)::int FROM entity_identifiers WHERE normalised = 'retried-once@example.com') AS identifiers,
          (SELECT count(*)::int FROM observations WHERE body->>'inquiry_id' = $2::text) AS testimony,
          (SELECT count(*)::int FROM assessments WHERE inquiry_id = $2::uuid) AS ledger,
          (SELECT nextval('retry_marked_inquiry')::int) AS attempts_before`,
        [r.body.assessment.entity_id, r.body.inquiry_id],
      );
      expect(rows.rows).toEqual([{ entities: 1, identifiers: 1, testimony: 1, ledger: 1, attempts_before: 3 }]);
    } finally {
      await owner.query('DROP TRIGGER retry_marked_inquiry ON inquiries');
      await owner.query('DROP FUNCTION retry_marked_inquiry()');
      await owner.query('DROP SEQUENCE retry_marked_inquiry');
    }
  });

  it('GET /v1/inquiries/{id} returns the same assessment; another tenant gets 404', async () => {
    const created = await inquire(ts, EMAIL_AND_PHONE);
    const res = await fetch(`${ts.base}/v1/inquiries/${created.body.inquiry_id}`, { headers: bearer(ts.tenant.keys.test) });
    expect(res.status).toBe(200);
    const got = (await res.json()) as any;
    expect(got.assessment).toEqual(created.body.assessment);
    const other = await ts.provision('other-inquirer');
    const foreign = await fetch(`${ts.base}/v1/inquiries/${created.body.inquiry_id}`, { headers: bearer(other.keys.test) });
    expect(foreign.status).toBe(404);
    const otherMode = await fetch(`${ts.base}/v1/inquiries/${created.body.inquiry_id}`, { headers: bearer(ts.tenant.keys.live) });
    expect(otherMode.status).toBe(404);
  });

  it('a key without the findings scope gets the assessment without findings', async () => {
    const mint = await fetch(`${ts.base}/v1/admin/keys`, {
      method: 'POST',
      headers: { ...bearer(ts.tenant.keys.test_admin), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'no-findings', scopes: ['inquiries'], mode: 'test' }),
    });
    const key = ((await mint.json()) as any).secret as string;
    const r = await inquire(ts, EMAIL_AND_PHONE, key);
    expect(r.status).toBe(200);
    expect(r.body.findings).toBeUndefined();
    expect(r.body.assessment.score).toBeGreaterThan(0);
  });

  it('the same subject resolves to the same entity, whose ledger tas score reproduces, evidence summary included', async () => {
    const first = await inquire(ts, EMAIL_AND_PHONE);
    const second = await inquire(ts, { ...EMAIL_AND_PHONE, subject: { presentations: [{ type: 'EMAIL', value: 'Jane.Doe@gmail.com ' }] } });
    expect(second.body.assessment.entity_id).toBe(first.body.assessment.entity_id);
    const ledger = await fetch(`${ts.base}/v1/entities/${first.body.assessment.entity_id}/ledger`, {
      headers: bearer(ts.tenant.keys.test),
    });
    expect(ledger.status).toBe(200);
    const entries = (await ledger.json()) as any[];
    expect(entries.length).toBeGreaterThanOrEqual(2);
    for (const entry of entries) {
      const out = JSON.parse(runScoreCommand(JSON.stringify(entry.inputs)));
      expect([out.score, out.low, out.high]).toEqual([entry.assessment.score, entry.assessment.low, entry.assessment.high]);
      // The summary counts neutral signals too: the entry carries them, so it is recomputed, not copied.
      expect(entry.assessment.evidence.signals).toBeGreaterThan(out.evidence_count);
      expect(out.evidence).toEqual(entry.assessment.evidence);
    }
    // The whole entry, exactly as served, through the command itself (one run: each start loads the service's sources):
    // every figure and summary field compared, none left out.
    const latest = entries.at(-1);
    const tas = fileURLToPath(new URL('../../bin/tas.js', import.meta.url));
    const whole = JSON.parse(execFileSync(process.execPath, [tas, 'score', '-'], { input: JSON.stringify(latest), encoding: 'utf8' }));
    expect(whole).toMatchObject({
      methodology_version: 'trust-method/3',
      reproduces: true,
      score: latest.assessment.score,
      low: latest.assessment.low,
      high: latest.assessment.high,
    });
    expect(whole).not.toHaveProperty('not_compared');
    expect(whole).not.toHaveProperty('differs');
    expect(whole.evidence).toEqual(latest.assessment.evidence);
  }, 60_000);
});

describe('refusals of POST /v1/inquiries', () => {
  const I13 = { detail: [{ loc: ['body', 'purpose'], msg: expect.any(String), type: 'I13' }] };

  it.each<[string, object, Record<string, string>]>([
    ['missing', without(EMAIL_AND_PHONE, 'purpose'), {}],
    ['unregistered', { ...EMAIL_AND_PHONE, purpose: 'marketing' }, {}],
    ['not granted to this tenant', { ...EMAIL_AND_PHONE, purpose: 'investigation' }, {}],
    ['contradicted by X-Purpose', EMAIL_AND_PHONE, { 'x-purpose': 'credit_risk' }],
  ])('a purpose %s: 422 I13, identical every time', async (_label, body, headers) => {
    const plain = await ts.provision(`plain-${Math.random().toString(36).slice(2, 8)}`);
    const r = await inquire(ts, body, plain.keys.test, headers);
    expect(r.status).toBe(422);
    expect(r.body).toEqual(I13);
    expect(r.text).toBe(JSON.stringify({ detail: [{ loc: ['body', 'purpose'], msg: r.body.detail[0].msg, type: 'I13' }] }));
    const audit = await owner.query('SELECT rule, status FROM audit_log WHERE audit_id = $1', [r.headers.get('x-service-audit-id')]);
    expect(audit.rows).toEqual([{ rule: 'I13', status: 422 }]);
  });

  it('a purpose the policy does not allow is refused the same way', async () => {
    const t = await ts.provision('policy-purpose');
    const publish = await fetch(`${ts.base}/v1/admin/policies`, {
      method: 'POST',
      headers: { ...bearer(t.keys.test_admin), 'content-type': 'application/json' },
      body: JSON.stringify({
        allowed_purposes: ['credit_risk'],
        allowed_intents: ['pre_transaction'],
        render_ceiling: 'template',
        show_findings: true,
        rules: [],
      }),
    });
    expect(publish.status).toBe(201);
    const r = await inquire(ts, EMAIL_AND_PHONE, t.keys.test);
    expect(r.status).toBe(422);
    // The refusal names the policy that refused, its version and what it allows (issue 51 item 3).
    expect(r.body).toEqual({
      detail: [
        {
          loc: ['body', 'purpose'],
          msg: expect.stringContaining('version 1'),
          type: 'I13',
          policy: { policy_version: 1, allowed: ['credit_risk'] },
        },
      ],
    });
  });

  it.each([
    ['async mode', { ...EMAIL_AND_PHONE, mode: 'async' }, 'I16', ['body', 'mode']],
    ['stream mode', { ...EMAIL_AND_PHONE, mode: 'stream' }, 'I16', ['body', 'mode']],
    ['an unregistered intent', { ...EMAIL_AND_PHONE, intent: 'hunting' }, 'I14', ['body', 'intent']],
    [
      'an unregistered artifact type',
      { ...EMAIL_AND_PHONE, subject: { presentations: [{ type: 'PASSPORT', value: 'X1' }] } },
      'I15',
      ['body', 'subject', 'presentations', 0, 'type'],
    ],
  ])('%s: 422 naming rule %s', async (_label, body, rule, loc) => {
    const r = await inquire(ts, body);
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ type: rule, loc });
  });

  it('an unknown entity_id is 404, and writes nothing', async () => {
    const before = (await owner.query('SELECT count(*)::int AS n FROM inquiries')).rows[0].n;
    const r = await inquire(ts, { ...EMAIL_AND_PHONE, subject: { entity_id: '6f1c1b4e-0000-4000-8000-000000000000' } });
    expect(r.status).toBe(404);
    expect((await owner.query('SELECT count(*)::int AS n FROM inquiries')).rows[0].n).toBe(before);
  });
});

describe('reports', () => {
  it('render=template in French gives a report and a share card without personal data', async () => {
    const r = await inquire(ts, { ...EMAIL_AND_PHONE, render: 'template', render_lang: 'fr-CA' });
    expect(r.status).toBe(200);
    const report = InquiryResponse.parse(r.body).report!;
    expect(report).toMatchObject({ rendered_by: 'template', lang: 'fr', assessment_id: r.body.assessment.assessment_id });
    expect(report.sections.map((s) => s.key)).toEqual(expect.arrayContaining(['summary', 'evidence', 'gaps', 'method']));
    expect(JSON.stringify(report.share)).not.toContain('jane.doe');
  });

  it('with the network checks switched off, coverage and the gaps section name exactly the checks not run, in English and in German', async () => {
    // This test service runs with TAS_DNS_SERVERS=off and TAS_RDAP_BASE_URL=off.
    const en = await inquire(ts, { ...EMAIL_AND_PHONE, render: 'template', render_lang: 'en' });
    const gaps = InquiryResponse.parse(en.body).findings!.coverage.gaps ?? [];
    const off = [...new Set(gaps.filter((g) => g.reason === 'switched_off').map((g) => g.kind))].sort();
    // Exactly the built-in checks this deployment does not run, of those that read an email or a phone.
    const { builtInCatalogue } = await import('../../src/checks/catalogue.js');
    const served = (await (await fetch(`${ts.base}/openapi.json`)).json()) as { 'x-check-catalogue': { id: string }[] };
    const running = new Set(served['x-check-catalogue'].map((c) => c.id));
    const expected = [
      ...new Set(
        (await builtInCatalogue())
          .filter((c) => !running.has(c.id) && c.artifact_types.some((t) => t === 'EMAIL' || t === 'PHONE'))
          .flatMap((c) => (c.answers.length > 0 ? [c.answers[0]!.kind] : [])),
      ),
    ].sort();
    expect(off.length).toBeGreaterThan(0);
    expect(off).toEqual(expected);
    const section = (r: typeof en, key: string) => InquiryResponse.parse(r.body).report!.sections.find((x) => x.key === key)!.body;
    const enGaps = section(en, 'gaps');
    expect(enGaps).toContain('switched off in this deployment');
    expect(enGaps).not.toContain('Every check that ran answered, and the tier ceiling put nothing out of reach');
    const de = await inquire(ts, { ...EMAIL_AND_PHONE, render: 'template', render_lang: 'de' });
    expect(section(de, 'gaps')).toContain('in dieser Installation abgeschaltet');
  });

  it('render=model with no model configured says the template renderer ran', async () => {
    const r = await inquire(ts, { ...EMAIL_AND_PHONE, render: 'model' });
    expect(r.body.report.rendered_by).toBe('template');
  });
});
