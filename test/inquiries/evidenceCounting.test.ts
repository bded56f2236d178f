import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { inquire } from './support.js';

/**
 * Evidence counted once and counted right, tried through the HTTP API as a
 * tenant would: distinct reports are distinct items, the same value presented
 * twice is one presentation, testimony has a direction, garbage phones fare
 * no better than invalid ones.
 */
let ts: TestService;
beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
});
afterAll(async () => {
  await ts?.stop();
});

async function post(path: string, body: unknown) {
  const res = await fetch(`${ts.base}${path}`, {
    method: 'POST',
    headers: { ...bearer(ts.tenant.keys.test), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const about = (presentations: { type: string; value: string }[], claim?: Record<string, string>) => ({
  subject: { presentations, ...(claim ? { claim } : {}) },
  intent: 'pre_transaction',
  purpose: 'fraud_prevention',
  stake: { kind: 'payment', amount: 50, currency: 'GBP' },
});

function items(body: any, kind: string): any[] {
  return body.findings.findings.filter((f: any) => f.kind === kind);
}

describe('distinct outcome reports', () => {
  it('three defaults on three decisions are three items; a retry of one decision counts once', async () => {
    const subject = about([{ type: 'EMAIL', value: 'three.defaults@example.org' }]);
    const first = await inquire(ts, subject);
    const assessmentId = first.body.assessment.assessment_id;
    const day = new Date().toISOString().slice(0, 10) + 'T00:00:00Z';
    for (const ref of ['loan-1', 'loan-2', 'loan-3', 'loan-3']) {
      expect(
        (await post('/v1/outcomes', { assessment_id: assessmentId, decision_ref: ref, kind: 'defaulted', observed_at: day })).status,
      ).toBe(201);
    }
    const after = await inquire(ts, subject);
    expect(items(after.body, 'tenant_outcome').filter((f) => f.disposition === 'weakens')).toHaveLength(3);
    expect(after.body.assessment.evidence.signals).toBeGreaterThanOrEqual(first.body.assessment.evidence.signals + 3);
  });
});

describe('normalised duplicates', () => {
  it('an email in two cases and a phone in two formats are checked once each', async () => {
    const once = await inquire(
      ts,
      about([
        { type: 'EMAIL', value: 'dup.once@example.org' },
        { type: 'PHONE', value: '+44 20 7946 0124' },
      ]),
    );
    const twice = await inquire(
      ts,
      about([
        { type: 'EMAIL', value: 'dup.twice@example.org' },
        { type: 'EMAIL', value: 'DUP.Twice@Example.org' },
        { type: 'PHONE', value: '+44 20 7946 0123' },
        { type: 'PHONE', value: '+442079460123' },
      ]),
    );
    expect(twice.status).toBe(200);
    expect(twice.body.assessment.evidence.signals).toBe(once.body.assessment.evidence.signals);
    expect([twice.body.assessment.low, twice.body.assessment.high]).toEqual([once.body.assessment.low, once.body.assessment.high]);
  });
});

describe('one host named by several presentations', () => {
  it("a domain and a web address on it score as the domain alone: the host's facts count once, and each presentation still shows them", async () => {
    const domain = await inquire(ts, about([{ type: 'DOMAIN', value: 'paypa1-login.com' }]));
    const both = await inquire(
      ts,
      about([
        { type: 'DOMAIN', value: 'paypa1-login.com' },
        { type: 'URL', value: 'https://paypa1-login.com/' },
      ]),
    );
    expect(both.status).toBe(200);
    expect(
      items(both.body, 'domain_lookalike')
        .map((f) => f.about_type)
        .sort(),
    ).toEqual(['DOMAIN', 'URL']);
    expect([both.body.assessment.score, both.body.assessment.low, both.body.assessment.high]).toEqual([
      domain.body.assessment.score,
      domain.body.assessment.low,
      domain.body.assessment.high,
    ]);
  });

  it("a domain and its www site are one site: what the site's name resembles counts once", async () => {
    const domain = await inquire(ts, about([{ type: 'DOMAIN', value: 'paypa1-secure.com' }]));
    const both = await inquire(
      ts,
      about([
        { type: 'DOMAIN', value: 'paypa1-secure.com' },
        { type: 'URL', value: 'https://www.paypa1-secure.com/' },
      ]),
    );
    expect(items(both.body, 'domain_lookalike')).toHaveLength(2);
    expect([both.body.assessment.score, both.body.assessment.low, both.body.assessment.high]).toEqual([
      domain.body.assessment.score,
      domain.body.assessment.low,
      domain.body.assessment.high,
    ]);
  });

  it('two mailboxes at one throw-away service are one disposable domain, not two', async () => {
    const one = await inquire(ts, about([{ type: 'EMAIL', value: 'jane@mailinator.com' }]));
    const two = await inquire(
      ts,
      about([
        { type: 'EMAIL', value: 'jane@mailinator.com' },
        { type: 'EMAIL', value: 'joe@eu.mailinator.com' },
      ]),
    );
    expect(items(two.body, 'disposable_email')).toHaveLength(2);
    // The second mailbox adds only what is its own (its syntax), so the answer cannot fall below the first's.
    expect(two.body.assessment.score).toBeGreaterThanOrEqual(one.body.assessment.score);
  });
});

describe('testimony with a direction', () => {
  const testimony = (email: string, summary: string, extra: Record<string, unknown> = {}) => ({
    subject: { presentations: [{ type: 'EMAIL', value: email }] },
    provenance_class: 'tenant_supplied',
    summary,
    observed_at: new Date().toISOString(),
    purpose: 'fraud_prevention',
    ...extra,
  });

  it('"chargeback: stolen card" weakens the next answer; a negated one does not', async () => {
    const bad = 'stance.bad@example.org';
    const clean = 'stance.clean@example.org';
    const before = await inquire(ts, about([{ type: 'EMAIL', value: bad }]));
    await inquire(ts, about([{ type: 'EMAIL', value: clean }]));
    expect((await post('/v1/observations', testimony(bad, 'chargeback: stolen card'))).status).toBe(201);
    expect((await post('/v1/observations', testimony(clean, 'No chargeback in three years.'))).status).toBe(201);
    const afterBad = await inquire(ts, about([{ type: 'EMAIL', value: bad }]));
    const afterClean = await inquire(ts, about([{ type: 'EMAIL', value: clean }]));
    expect(afterBad.body.assessment.score).toBeLessThan(before.body.assessment.score);
    expect(items(afterBad.body, 'tenant_observation')).toContainEqual(expect.objectContaining({ disposition: 'weakens' }));
    expect(items(afterClean.body, 'tenant_observation').every((f) => f.disposition === 'neutral')).toBe(true);
    expect(afterClean.body.assessment.score).toBe(before.body.assessment.score);
  });

  it('an explicit stance wins over the words, and a bad stance is a 422 naming the field', async () => {
    const email = 'stance.explicit@example.org';
    await inquire(ts, about([{ type: 'EMAIL', value: email }]));
    expect(
      (await post('/v1/observations', testimony(email, 'Reviewed the fraud alert: a false positive.', { stance: 'supports' }))).status,
    ).toBe(201);
    const after = await inquire(ts, about([{ type: 'EMAIL', value: email }]));
    expect(items(after.body, 'tenant_observation')).toContainEqual(expect.objectContaining({ disposition: 'supports' }));
    const refused = await post('/v1/observations', testimony(email, 'x', { stance: 'hostile' }));
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0].loc).toEqual(['body', 'stance']);
  });
});

describe('phones that cannot reach anyone', () => {
  it('"12345" scores no higher than a number known to be invalid', async () => {
    const garbage = await inquire(ts, about([{ type: 'PHONE', value: '12345' }]));
    const invalid = await inquire(ts, about([{ type: 'PHONE', value: '+44 20 1234' }]));
    expect(garbage.status).toBe(200);
    expect(garbage.body.assessment.score).toBeLessThanOrEqual(invalid.body.assessment.score);
    expect(items(garbage.body, 'malformed_value')).toContainEqual(expect.objectContaining({ disposition: 'weakens' }));
  });

  it('a mailbox on a free dynamic-DNS name weakens the answer; one at a registered domain does not (issue 11)', async () => {
    const platform = await inquire(ts, about([{ type: 'EMAIL', value: 'jane.doe@mail-box-7.dynv6.net' }]));
    expect(items(platform.body, 'shared_hosting').map((f) => f.disposition)).toEqual(['weakens']);
    const registered = await inquire(ts, about([{ type: 'EMAIL', value: 'jane.doe@example.co.uk' }]));
    expect(items(registered.body, 'shared_hosting').map((f) => f.disposition)).toEqual(['neutral']);
  });

  it('a premium-rate number weakens a payment', async () => {
    const premium = await inquire(ts, about([{ type: 'PHONE', value: '+44 909 879 0000' }]));
    expect(items(premium.body, 'phone_line_type')).toContainEqual(expect.objectContaining({ disposition: 'weakens' }));
  });
});

describe("an inquiry's context and material", () => {
  it('context testimony enters as evidence of this inquiry and is kept for the next', async () => {
    const subject = about([{ type: 'EMAIL', value: 'context.case@example.org' }]);
    const plain = await inquire(ts, subject);
    const context = [
      {
        subject: subject.subject,
        provenance_class: 'tenant_supplied',
        summary: 'Chargeback filed: card reported stolen.',
        observed_at: new Date().toISOString(),
        purpose: 'fraud_prevention',
      },
    ];
    const withContext = await inquire(ts, { ...subject, context });
    expect(withContext.status).toBe(200);
    expect(items(withContext.body, 'inquiry_context')).toContainEqual(expect.objectContaining({ disposition: 'weakens' }));
    expect(withContext.body.assessment.score).toBeLessThan(plain.body.assessment.score);
    const later = await inquire(ts, subject);
    expect(items(later.body, 'tenant_observation')).toContainEqual(expect.objectContaining({ disposition: 'weakens' }));
  });

  it('the same report attached to every inquiry is weighed once, from the record, not again as context', async () => {
    const subject = about([{ type: 'EMAIL', value: 'context.again@example.org' }]);
    const context = [
      {
        subject: subject.subject,
        provenance_class: 'tenant_supplied',
        summary: 'Chargeback filed: card reported stolen.',
        observed_at: '2026-11-20T10:00:00Z',
        purpose: 'fraud_prevention',
      },
    ];
    await inquire(ts, { ...subject, context });
    const again = await inquire(ts, { ...subject, context });
    const withoutIt = await inquire(ts, subject);
    expect(items(again.body, 'inquiry_context').map((f) => f.disposition)).toEqual(['neutral']);
    expect(items(again.body, 'tenant_observation')).toContainEqual(expect.objectContaining({ disposition: 'weakens' }));
    expect([again.body.assessment.score, again.body.assessment.low, again.body.assessment.high]).toEqual([
      withoutIt.body.assessment.score,
      withoutIt.body.assessment.low,
      withoutIt.body.assessment.high,
    ]);
  });

  it("a new subject's testimony is kept about its new entity, written with it in the inquiry's last statement", async () => {
    const subject = about([
      { type: 'EMAIL', value: 'new.with.context@example.org' },
      { type: 'PHONE', value: '+44 20 7946 0123' },
    ]);
    const testimony = (summary: string) => ({
      subject: subject.subject,
      provenance_class: 'tenant_supplied',
      summary,
      observed_at: new Date().toISOString(),
      purpose: 'fraud_prevention',
    });
    const first = await inquire(ts, {
      ...subject,
      context: [testimony('Chargeback filed: card reported stolen.'), testimony('Refund abuse reported by support.')],
    });
    expect(first.status).toBe(200);
    const entityId = first.body.assessment.entity_id;
    expect(entityId).toEqual(expect.any(String));
    expect(items(first.body, 'inquiry_context')).toHaveLength(2);
    // The next inquiry resolves to the same new entity, and finds both items in its history.
    const later = await inquire(ts, subject);
    expect(later.body.assessment.entity_id).toBe(entityId);
    expect(items(later.body, 'tenant_observation').length).toBeGreaterThan(0);
  });

  it('concurrent first inquiries about one new subject end with one entity', async () => {
    const subject = about([{ type: 'EMAIL', value: 'first.at.once@example.org' }]);
    const answers = await Promise.all(Array.from({ length: 8 }, () => inquire(ts, subject)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => a.body.assessment.entity_id)).size).toBe(1);
  });

  it('material_ids bring the extracted identifiers in as presented values', async () => {
    const declared = await post('/v1/material', {
      kind: 'text',
      media_type: 'text/plain',
      purpose: 'fraud_prevention',
      text: 'Reach me at someone@mailinator.com or +44 20 7946 0311.',
    });
    expect(declared.status).toBe(201);
    const r = await inquire(ts, {
      ...about([{ type: 'EMAIL', value: 'material.case@example.org' }]),
      material_ids: [declared.body.material_id],
    });
    expect(r.status).toBe(200);
    const abouts = new Set(r.body.findings.findings.map((f: any) => f.about));
    expect(abouts).toContain('someone@mailinator.com');
    expect([...abouts].some((a) => String(a).replace(/\D/g, '').endsWith('2079460311'))).toBe(true);
  });

  it('an unknown material id, or one of another tenant, is a 422 naming material_ids[i]', async () => {
    const other = await ts.provision('other-material');
    const res = await fetch(`${ts.base}/v1/material`, {
      method: 'POST',
      headers: { ...bearer(other.keys.test), 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'text', media_type: 'text/plain', purpose: 'fraud_prevention', text: 'x@example.com' }),
    });
    const theirs = ((await res.json()) as any).material_id;
    const r = await inquire(ts, {
      ...about([{ type: 'EMAIL', value: 'material.refused@example.org' }]),
      material_ids: ['mat_unknown', theirs],
    });
    expect(r.status).toBe(422);
    expect(r.body.detail.map((d: any) => d.loc)).toEqual([
      ['body', 'material_ids', 0],
      ['body', 'material_ids', 1],
    ]);
  });
});

describe('an inquiry naming only an entity', () => {
  it("uses the entity's known values and its history", async () => {
    const subject = about([
      { type: 'EMAIL', value: 'entity.only@mailinator.com' },
      { type: 'PHONE', value: '+44 20 7946 0777' },
    ]);
    const first = await inquire(ts, subject);
    const entityId = first.body.assessment.entity_id;
    await post('/v1/outcomes', {
      assessment_id: first.body.assessment.assessment_id,
      decision_ref: 'eo-1',
      kind: 'defaulted',
      observed_at: new Date().toISOString(),
    });
    const byId = await inquire(ts, { ...subject, subject: { entity_id: entityId } });
    expect(byId.status).toBe(200);
    expect(byId.body.assessment.entity_id).toBe(entityId);
    expect(byId.body.assessment.evidence.signals).toBeGreaterThan(0);
    expect(items(byId.body, 'disposable_email').length).toBeGreaterThan(0);
    expect(items(byId.body, 'tenant_outcome')).toContainEqual(expect.objectContaining({ disposition: 'weakens' }));
  });
});

describe('linkage beside merging', () => {
  it('five emails presented with one phone stay five entities, and the phone weakens the fifth', async () => {
    const phone = { type: 'PHONE', value: '+44 20 7946 0555' };
    const answers = [];
    for (let i = 1; i <= 5; i++) answers.push(await inquire(ts, about([{ type: 'EMAIL', value: `farm.${i}@example.org` }, phone])));
    expect(new Set(answers.map((a) => a.body.assessment.entity_id)).size).toBe(5);
    const fifth = answers[4]!.body;
    expect(fifth.findings.findings).toContainEqual(
      expect.objectContaining({ kind: 'shared_value', about: phone.value, disposition: 'weakens' }),
    );
    expect(fifth.assessment.score).toBeLessThan(answers[0]!.body.assessment.score);
  });

  it('a value shared with an entity the tenant found bad is strong weakening evidence', async () => {
    const phone = { type: 'PHONE', value: '+44 20 7946 0666' };
    const bad = await inquire(ts, about([{ type: 'EMAIL', value: 'known.bad@example.org' }, phone]));
    await post('/v1/outcomes', {
      assessment_id: bad.body.assessment.assessment_id,
      decision_ref: 'kb-1',
      kind: 'defaulted',
      observed_at: new Date().toISOString(),
    });
    const stranger = await inquire(ts, about([{ type: 'EMAIL', value: 'new.face@example.org' }, phone]));
    expect(stranger.body.assessment.entity_id).not.toBe(bad.body.assessment.entity_id);
    expect(stranger.body.findings.findings).toContainEqual(
      expect.objectContaining({ kind: 'shared_with_adverse', about: phone.value, disposition: 'weakens' }),
    );
  });
});

describe('velocity', () => {
  it('the same email in more than ten inquiries within the hour weakens the next one; a few repeats do not', async () => {
    const subject = about([{ type: 'EMAIL', value: 'card.tester@example.org' }]);
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push(await inquire(ts, subject));
    expect(items(answers[3]!.body, 'velocity').every((f) => f.disposition === 'neutral')).toBe(true);
    expect(items(answers[10]!.body, 'velocity_hourly_burst')).toContainEqual(expect.objectContaining({ disposition: 'weakens' }));
    expect(answers[10]!.body.assessment.score).toBeLessThan(answers[3]!.body.assessment.score);
  });
});
