import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerClient } from '../support/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { closeOverRest, connect, OPEN_BODY, openSession, upgradeStatus, type Message } from './support.js';
import { without } from '../support/objects.js';

/**
 * A live session end to end over a real socket: open over REST, connect with
 * the one-time token, stream a line with an email and a phone, contradict it
 * with a claim, close, and find the session's assessments in the ledger.
 */
let ts: TestService;

beforeAll(async () => {
  ts = await startTestService();
});

afterAll(async () => {
  await ts?.stop();
});

const LINE = "Hi, I'm jane.doe@gmail.com, call me on +44 20 7946 0958 please";
async function sessionRow(id: string): Promise<Message | undefined> {
  const owner = await ownerClient(ts.dbUrl);
  try {
    return (await owner.query(`SELECT state, close_reason FROM sessions WHERE id = $1`, [id])).rows[0];
  } finally {
    await owner.end();
  }
}

/** RFC 9562 version 7 (time-ordered), the id every appended row takes (src/platform/ids.ts). */
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const aboutsOf = (messages: Message[]) =>
  messages.filter((m) => m.type === 'findings.added').flatMap((m) => m.findings.map((f: Message) => f.about));

describe('a session', () => {
  it('opens with a ws_url and a one-time token, streams, revises on a contradiction, and closes with the final assessment', async () => {
    const opened = await openSession(ts);
    expect(opened.status).toBe(201);
    expect(opened.headers.get('x-service-audit-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(opened.body).toMatchObject({ state: 'open', retention_mode: 'standard' });
    expect(opened.body.ws_url).toBe(`${ts.base.replace('http', 'ws')}/v1/sessions/${opened.body.session_id}/ws`);
    expect(opened.body.token).toMatch(/^tas_wst_[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(opened.body.expires_at)).toBeGreaterThan(Date.now());

    const client = await connect(opened.body);
    expect(client.ws.protocol).toBe('tas.v1');
    const ready = await client.waitFor((m) => m.type === 'ready');
    expect(ready).toMatchObject({ session_id: opened.body.session_id, retention_mode: 'standard' });

    client.send({ type: 'text', line: LINE });
    const ack = await client.reply(1);
    expect(ack).toMatchObject({ type: 'ack', seq: 1, frame: 'text' });
    expect(ack.extracted.map((e: Message) => [e.type, LINE.slice(e.start, e.end), e.normalised])).toEqual([
      ['EMAIL', 'jane.doe@gmail.com', 'jane.doe@gmail.com'],
      ['PHONE', '+44 20 7946 0958', '+442079460958'],
    ]);
    const issued = await client.assessment(1);
    expect(issued.type).toBe('assessment.issued');
    expect(issued).toMatchObject({ session_id: opened.body.session_id, frame_seq: 1 });
    expect(Object.keys(issued.assessment).sort()).toEqual([
      'as_of',
      'assessment_id',
      'entity_id',
      'evidence',
      'high',
      'inquiry_id',
      'label',
      'low',
      'methodology_version',
      'preliminary',
      'score',
    ]);
    await client.waitFor((m) => m.type === 'findings.added');
    expect(aboutsOf(client.messages)).toEqual(expect.arrayContaining(['jane.doe@gmail.com', '+44 20 7946 0958']));

    // The phone is British; the subject now claims to be in the United States.
    client.send({ type: 'claim', claim: { country: 'US' } });
    expect(await client.reply(2)).toMatchObject({ type: 'ack', seq: 2, frame: 'claim', claim_fields: ['country'] });
    const revised = await client.assessment(2);
    expect(revised).toMatchObject({ type: 'assessment.revised', frame_seq: 2, previous_assessment_id: issued.assessment.assessment_id });
    expect(revised.assessment.score).toBeLessThan(issued.assessment.score);
    const contradiction = await client.waitFor(
      (m) => m.type === 'findings.added' && m.findings.some((f: Message) => f.kind === 'phone_country_consistency'),
    );
    expect(contradiction.findings.find((f: Message) => f.kind === 'phone_country_consistency')).toMatchObject({
      disposition: 'weakens',
      about: '+44 20 7946 0958',
    });

    client.send({ type: 'close', reason: 'user_left' });
    expect(await client.reply(3)).toMatchObject({ type: 'ack', seq: 3, frame: 'close' });
    const closed = await client.waitFor((m) => m.type === 'session.closed');
    expect(closed).toMatchObject({
      reason: 'user_left',
      retention_mode: 'standard',
      frames_accepted: 2,
      previous_assessment_id: revised.assessment.assessment_id,
    });
    expect(closed.assessment.score).toBe(revised.assessment.score);
    expect(await client.closed).toMatchObject({ code: 1000 });

    // The session's inquiry is concluded and its assessments are ledger entries, the final one last.
    const inquiry = (await fetch(`${ts.base}/v1/inquiries/${closed.inquiry_id}`, { headers: bearer(ts.tenant.keys.test) }).then((r) =>
      r.json(),
    )) as Message;
    expect(inquiry).toMatchObject({ status: 'concluded', assessment: { assessment_id: closed.assessment.assessment_id } });
    const ledger = (await fetch(`${ts.base}/v1/entities/${closed.assessment.entity_id}/ledger`, {
      headers: bearer(ts.tenant.keys.test),
    }).then((r) => r.json())) as Message[];
    expect(ledger.map((e) => e.assessment.assessment_id)).toEqual([issued, revised, closed].map((m) => m.assessment.assessment_id));
    // Assessments and the session's inquiry are appended rows: their ids are time-ordered UUIDv7s, not random v4s.
    for (const id of [...ledger.map((e) => e.assessment.assessment_id), closed.inquiry_id]) expect(id).toMatch(UUID_V7);
  });

  it('writes one audit row for the upgrade, with the purpose, and the frames only as hashes', async () => {
    const opened = await openSession(ts);
    const client = await connect(opened.body);
    client.send({ type: 'text', line: 'nothing to see here' });
    expect(await client.reply(1)).toMatchObject({ type: 'ack', extracted: [] });
    client.send({ type: 'close' });
    await client.closed;
    const owner = await ownerClient(ts.dbUrl);
    try {
      const audit = await owner.query(
        `SELECT status, action, purpose, principal FROM audit_log WHERE target_id = $1 AND action = 'connectSession'`,
        [opened.body.session_id],
      );
      expect(audit.rows).toEqual([
        { status: 101, action: 'connectSession', purpose: 'fraud_prevention', principal: expect.stringMatching(/^key:/) },
      ]);
      const frames = await owner.query(
        `SELECT seq, type, outcome, content_sha256, derived FROM session_frames WHERE session_id = $1 ORDER BY seq`,
        [opened.body.session_id],
      );
      expect(frames.rows).toEqual([
        { seq: 1, type: 'text', outcome: 'accepted', content_sha256: expect.stringMatching(/^[0-9a-f]{64}$/), derived: { extracted: [] } },
        {
          seq: 2,
          type: 'close',
          outcome: 'accepted',
          content_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
          derived: { reason: 'ended' },
        },
      ]);
    } finally {
      await owner.end();
    }
  });

  it('opens with only a claim about the subject and waits for frames to bring presentations (issue 18)', async () => {
    const opened = await openSession(ts, { ...OPEN_BODY, subject: { claim: { name: 'Jane Doe', country: 'GB' } } });
    expect(opened.status).toBe(201);
    const client = await connect(opened.body);
    await client.waitFor((m) => m.type === 'ready');
    client.send({ type: 'text', line: LINE });
    expect((await client.reply(1)).type).toBe('ack');
    expect((await client.assessment(1)).type).toBe('assessment.issued');
    client.ws.close();
    // An inquiry still needs something to ask about (rule I18); a session does not.
    const inquiry = await fetch(`${ts.base}/v1/inquiries`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ts.tenant.keys.test}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        subject: { claim: { name: 'Jane Doe' } },
        intent: 'onboarding',
        purpose: 'fraud_prevention',
        stake: { kind: 'account' },
      }),
    });
    expect(inquiry.status).toBe(422);
  });

  it('closes over REST: a connected socket drains, hears session.closing then session.closed, and ends with 1000', async () => {
    const opened = await openSession(ts, { ...OPEN_BODY, subject: { presentations: [{ type: 'EMAIL', value: 'omar@example.org' }] } });
    const client = await connect(opened.body);
    // Evidence given at opening is replayed to the socket when it attaches.
    expect(await client.assessment(1)).toMatchObject({ type: 'assessment.issued', frame_seq: 0 });
    const closing = await closeOverRest(ts, opened.body.session_id, 'case_closed');
    expect(closing).toMatchObject({ status: 202, body: { session_id: opened.body.session_id, state: 'closing', reason: 'case_closed' } });
    await client.waitFor((m) => m.type === 'session.closing');
    expect(await client.waitFor((m) => m.type === 'session.closed')).toMatchObject({ reason: 'case_closed' });
    expect((await client.closed).code).toBe(1000);
    expect(await closeOverRest(ts, opened.body.session_id, 'again')).toMatchObject({
      status: 202,
      body: { state: 'closed', reason: 'case_closed' },
    });
  });

  it('closes over REST at once when no socket is attached; a closed session refuses its unused token', async () => {
    const opened = await openSession(ts);
    expect(await closeOverRest(ts, opened.body.session_id)).toMatchObject({ status: 202, body: { state: 'closed', reason: 'ended' } });
    expect(await upgradeStatus(opened.body.ws_url, ['tas.v1', `tas.token.${opened.body.token}`])).toBe(401);
  });

  it('another tenant cannot close it: 404 like an unknown id', async () => {
    const other = await ts.provision('globex');
    const opened = await openSession(ts);
    expect((await closeOverRest(ts, opened.body.session_id, 'ended', other.keys.test)).status).toBe(404);
    expect((await closeOverRest(ts, opened.body.session_id, 'ended', ts.tenant.keys.live)).status).toBe(404);
  });

  it('refuses the upgrade with 401 before any 101: no token, a wrong token, a spent token, an expired one', async () => {
    const opened = await openSession(ts);
    const url = opened.body.ws_url;
    expect(await upgradeStatus(url, ['tas.v1'])).toBe(401);
    expect(await upgradeStatus(url, ['tas.v1', `tas.token.tas_wst_${'A'.repeat(43)}`])).toBe(401);
    expect(await upgradeStatus(url, [`tas.token.${opened.body.token}`])).toBe(401);
    const client = await connect(opened.body);
    expect(await upgradeStatus(url, ['tas.v1', `tas.token.${opened.body.token}`])).toBe(401);
    client.ws.close();

    const late = await openSession(ts);
    const owner = await ownerClient(ts.dbUrl);
    try {
      await owner.query(`UPDATE sessions SET token_expires_at = now() - interval '1 second' WHERE id = $1`, [late.body.session_id]);
      // A refusal before any tenant is known lands in the anonymous trail (audit_refusals, sql/000120), the others in audit_log.
      const count = async () =>
        (
          await owner.query(`SELECT ((SELECT count(*) FROM audit_log WHERE action = 'connectSession' AND status = 401)
            + (SELECT count(*) FROM audit_refusals WHERE action = 'connectSession' AND status = 401))::int AS n`)
        ).rows[0].n as number;
      const before = await count();
      expect(await upgradeStatus(late.body.ws_url, ['tas.v1', `tas.token.${late.body.token}`])).toBe(401);
      // Each refused attempt is audited too; the row is group-committed beside the answer, so wait for it, not for time.
      await expect.poll(count, { timeout: 5000, interval: 20 }).toBe(before + 1);
    } finally {
      await owner.end();
    }
  });

  it('refuses an undeclared or unregistered purpose with rule I13, and an intent with I14', async () => {
    for (const body of [without(OPEN_BODY, 'purpose'), { ...OPEN_BODY, purpose: 'curiosity' }]) {
      const res = await openSession(ts, body);
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([{ loc: ['body', 'purpose'], msg: expect.any(String), type: 'I13' }]);
    }
    const intent = await openSession(ts, { ...OPEN_BODY, intent: 'gossip' });
    expect(intent.status).toBe(422);
    expect((intent.body.detail as Message[])[0]).toMatchObject({ type: 'I14' });
    const header = await fetch(`${ts.base}/v1/sessions`, {
      method: 'POST',
      headers: { ...bearer(ts.tenant.keys.test), 'content-type': 'application/json', 'x-purpose': 'credit_risk' },
      body: JSON.stringify(OPEN_BODY),
    });
    expect(((await header.json()) as Message).detail).toEqual([{ loc: ['body', 'purpose'], msg: expect.any(String), type: 'I13' }]);
  });

  it('takes a case_id only from an investigative tenant (rule C01)', async () => {
    const caseId = '6f1c1d2e-0000-4000-8000-000000000001';
    expect((await openSession(ts, { ...OPEN_BODY, case_id: caseId })).status).toBe(201);
    const plain = await ts.provision('initech');
    const refused = await openSession(ts, { ...OPEN_BODY, case_id: caseId }, plain.keys.test);
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toEqual([{ loc: ['body', 'case_id'], msg: expect.any(String), type: 'C01' }]);
  });

  it('takes presentations and testimony frames, refusing rule breaches without closing', async () => {
    const opened = await openSession(ts);
    const client = await connect(opened.body);
    client.send({ type: 'presentation', presentation: { type: 'DOMAIN', value: 'WWW.Example.CO.UK' } });
    expect(await client.reply(1)).toMatchObject({ type: 'ack', identifiers: [{ type: 'DOMAIN', normalised: 'example.co.uk' }] });
    client.send({ type: 'presentation', presentation: { type: 'SHOE_SIZE', value: '42' } });
    const refused = await client.reply(2);
    expect(refused).toMatchObject({ type: 'refused', rule: 'I15', field: 'presentation.type' });
    // It names where the registered types are listed, never the type sent (issue 38).
    expect(JSON.stringify(refused)).toContain('GET /v1/registry/artifact-types');
    expect(JSON.stringify(refused)).not.toContain('SHOE_SIZE');
    client.send({ type: 'observation', summary: 'says they are the owner', provenance_class: 'self_attested' });
    expect(await client.reply(3)).toMatchObject({ type: 'refused', rule: 'D36', field: 'consent_ref' });
    client.send({ type: 'observation', summary: 'says they are the owner', provenance_class: 'self_attested', consent_ref: 'consent-1' });
    expect(await client.reply(4)).toMatchObject({ type: 'ack', provenance_class: 'self_attested', data_class: 'C1' });
    const revised = await client.assessment(2);
    expect(revised.assessment.evidence.by_provenance_class).toMatchObject({ self_attested: 1 });
    client.send({ type: 'close' });
    await client.waitFor((m) => m.type === 'session.closed');
  });
  it('a socket that drops without a close frame closes its session (its token cannot connect again)', async () => {
    const opened = await openSession(ts);
    const client = await connect(opened.body);
    client.send({ type: 'text', line: 'reach me at kofi@example.org' });
    await client.reply(1);
    client.ws.terminate();
    await expect
      .poll(() => sessionRow(opened.body.session_id), { timeout: 5000 })
      .toEqual({ state: 'closed', close_reason: 'disconnected' });
  });

  it('revoking the key that opened it ends the socket with 1008 and closes the session', async () => {
    const minted = (await fetch(`${ts.base}/v1/admin/keys`, {
      method: 'POST',
      headers: { ...bearer(ts.tenant.keys.test_admin), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'intake page', scopes: ['sessions'], mode: 'test' }),
    }).then((r) => r.json())) as Message;
    const opened = await openSession(ts, OPEN_BODY, minted.secret);
    expect(opened.status).toBe(201);
    const client = await connect(opened.body);
    await client.waitFor((m) => m.type === 'ready');
    const revoked = await fetch(`${ts.base}/v1/admin/keys/${minted.key_id}`, {
      method: 'DELETE',
      headers: bearer(ts.tenant.keys.test_admin),
    });
    expect(revoked.status).toBe(204);
    expect(await client.closed).toEqual({ code: 1008, reason: 'key revoked' });
    await expect
      .poll(() => sessionRow(opened.body.session_id), { timeout: 5000 })
      .toEqual({ state: 'closed', close_reason: 'key_revoked' });
  });

  it('closes after idle_timeout_seconds without frames, through its durable idle check', async () => {
    const opened = await openSession(ts, { ...OPEN_BODY, idle_timeout_seconds: 10 });
    const client = await connect(opened.body);
    await client.waitFor((m) => m.type === 'ready');
    const closed = await client.waitFor((m) => m.type === 'session.closed', 20_000);
    expect(closed).toMatchObject({ reason: 'idle', frames_accepted: 0 });
    expect((await client.closed).code).toBe(1000);
  }, 30_000);
});
