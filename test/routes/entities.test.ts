import { randomUUID } from 'node:crypto';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScoreCommand } from '../../src/cli/score.js';
import type { NormalisedPresentation } from '../../src/checks/types.js';
import { withSystem, withTenant, type Mode } from '../../src/platform/db/pool.js';
import { resolveEntity } from '../../src/entities/resolve.js';
import { EntityOut, LedgerEntryList } from '../../src/entities/schemas.js';
import type { ProvisionedTenant } from '../../src/tenancy/provision.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { without } from '../support/objects.js';

let ts: TestService;
let other: ProvisionedTenant;
beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
  other = await ts.provision('other-co', false);
});
afterAll(async () => ts?.stop());

function email(value: string): NormalisedPresentation {
  return { type: 'EMAIL', value, normalised: value.toLowerCase() };
}

async function resolve(presentations: NormalisedPresentation[], mode: Mode = 'test', tenantId = ts.tenant.tenant_id) {
  return withTenant(ts.service.db, { tenantId, mode }, (tx) => resolveEntity(tx, { tenantId, mode }, presentations));
}

/**
 * One ledger row written as the table owner (the inquiry engine is built
 * apart): the stored inputs carry a neutral item and descriptive fields, as
 * an engine may store them, and the score is what `tas score` makes of them.
 */
async function assess(entityId: string, supports: number, mode: Mode = 'test'): Promise<{ id: string; score: number }> {
  const inputs = {
    as_of: '2025-03-01T00:00:00Z',
    evidence: [
      ...Array.from({ length: supports }, (_, i) => ({
        provenance_class: 'computed',
        trust_band: 'high',
        observed_at: `2025-02-0${i + 1}T00:00:00Z`,
        disposition: 'supports',
        kind: 'email_syntax',
        statement: 'The address is well formed.',
      })),
      { provenance_class: 'third_party', trust_band: 'low', observed_at: '2025-02-20T00:00:00Z', disposition: 'weakens' },
      { provenance_class: 'computed', trust_band: 'medium', observed_at: '2025-02-21T00:00:00Z', disposition: 'neutral' },
    ],
    absences: [{ about: 'x', about_type: 'EMAIL', kind: 'timeout', reason: 'No answer in time.' }],
  };
  // Rows written before trust-method/2 store v1 inputs without a version field; they must keep reproducing.
  const scored = JSON.parse(runScoreCommand(JSON.stringify({ methodology_version: 'trust-method/1', ...inputs })));
  const inquiryId = randomUUID();
  const id = randomUUID();
  // Seeded behind the API, as the service's system role (the login role alone may touch nothing).
  await withSystem(ts.service.db, async (db) => {
    await db.query(sql.unsafe`
      INSERT INTO inquiries (id, tenant_id, mode, entity_id, status, intent, purpose, request, principal)
      VALUES (${inquiryId}, ${ts.tenant.tenant_id}, ${mode}, ${entityId}, 'concluded', 'onboarding', 'fraud_prevention', '{}', 'test')`);
    await db.query(sql.unsafe`
      INSERT INTO assessments (id, tenant_id, mode, inquiry_id, entity_id, score, low, high, preliminary, as_of,
                               methodology_version, label, evidence, inputs)
      VALUES (${id}, ${ts.tenant.tenant_id}, ${mode}, ${inquiryId}, ${entityId}, ${scored.score}, ${scored.low}, ${scored.high},
              false, ${inputs.as_of}, ${scored.methodology_version}, ${sql.jsonb({ value: 'review', policy_version: 1 })},
              ${sql.jsonb(scored.evidence)}, ${sql.jsonb(inputs as never)})`);
  });
  return { id, score: scored.score };
}

async function get(path: string, key: string) {
  const res = await fetch(`${ts.base}${path}`, { headers: bearer(key) });
  return { res, body: (await res.json()) as any };
}

describe('GET /v1/entities/{entity_id}', () => {
  it('given a resolved entity with assessments, then EntityOut with its values and latest assessment', async () => {
    const { entityId } = await resolve([email('Read.Me@example.com')]);
    await assess(entityId, 1);
    const latest = await assess(entityId, 3);
    const { res, body } = await get(`/v1/entities/${entityId}`, ts.tenant.keys.test);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-service-audit-id')).toMatch(/^[0-9a-f-]{36}$/);
    const entity = EntityOut.parse(body);
    expect(entity).toMatchObject({
      entity_id: entityId,
      presentations: [{ type: 'EMAIL', value: 'read.me@example.com' }],
      ledger_url: `/v1/entities/${entityId}/ledger`,
    });
    expect(entity.latest_assessment).toMatchObject({ assessment_id: latest.id, score: latest.score, entity_id: entityId });
  });

  it('given an entity without assessments, then latest_assessment is null', async () => {
    const { entityId } = await resolve([email('quiet@example.com')]);
    const { body } = await get(`/v1/entities/${entityId}`, ts.tenant.keys.test);
    expect(EntityOut.parse(body).latest_assessment).toBeNull();
  });

  it('given a merged id, then the survivor answers, with both entities\u2019 values', async () => {
    const older = await resolve([email('older@example.com')]);
    const newer = await resolve([email('newer@example.com')]);
    await resolve([email('older@example.com'), email('newer@example.com')]);
    const { res, body } = await get(`/v1/entities/${newer.entityId}`, ts.tenant.keys.test);
    expect(res.status).toBe(200);
    expect(body.entity_id).toBe(older.entityId);
    expect(body.presentations.map((p: any) => p.value).sort()).toEqual(['newer@example.com', 'older@example.com']);
  });
});

describe('not found', () => {
  async function notFound(path: string, key: string) {
    const { res, body } = await get(path, key);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(body.audit_id).toBe(res.headers.get('x-service-audit-id'));
    return without(body, 'audit_id');
  }

  it("given an unknown id, another tenant's id or another mode's id, then the same 404, for entity and ledger", async () => {
    const { entityId } = await resolve([email('mine@example.com')]);
    const unknown = await notFound(`/v1/entities/${randomUUID()}`, ts.tenant.keys.test);
    expect(unknown.type).toBe('urn:tas:problem:not-found');
    expect(await notFound(`/v1/entities/${entityId}`, other.keys.test)).toEqual(unknown);
    expect(await notFound(`/v1/entities/${entityId}`, ts.tenant.keys.live)).toEqual(unknown);
    expect(await notFound(`/v1/entities/${randomUUID()}/ledger`, ts.tenant.keys.test)).toEqual(unknown);
    expect(await notFound(`/v1/entities/${entityId}/ledger`, other.keys.test)).toEqual(unknown);
  });

  it('given an id that is not a uuid, then 422', async () => {
    const { res } = await get('/v1/entities/not-a-uuid', ts.tenant.keys.test);
    expect(res.status).toBe(422);
  });
});

describe('GET /v1/entities/{entity_id}/ledger', () => {
  it('given assessments of an entity and of one merged into it, then all of them in ledger order', async () => {
    const older = await resolve([email('ledger.a@example.com')]);
    const newer = await resolve([email('ledger.b@example.com')]);
    const issued = [await assess(newer.entityId, 1), await assess(older.entityId, 2), await assess(newer.entityId, 3)];
    await resolve([email('ledger.a@example.com'), email('ledger.b@example.com')]);
    issued.push(await assess(older.entityId, 4));

    for (const asked of [older.entityId, newer.entityId]) {
      const { res, body } = await get(`/v1/entities/${asked}/ledger`, ts.tenant.keys.test);
      expect(res.status).toBe(200);
      const ledger = LedgerEntryList.parse(body);
      expect(ledger.map((e) => e.entry_id)).toEqual(issued.map((a) => a.id));
      expect(ledger.map((e) => e.sequence)).toEqual([1, 2, 3, 4]);
      // Each entry as published: under the entity it was issued to.
      expect(ledger.map((e) => e.assessment.entity_id)).toEqual([newer.entityId, older.entityId, newer.entityId, older.entityId]);
    }
  });

  it('given a ledger entry, then `tas score` over its inputs reproduces its score and interval', async () => {
    const { entityId } = await resolve([email('reproduce@example.com')]);
    await assess(entityId, 2);
    const { body } = await get(`/v1/entities/${entityId}/ledger`, ts.tenant.keys.test);
    const [entry] = LedgerEntryList.parse(body);
    // Two supports, one weakening item and the neutral one the summary counts.
    expect(entry!.inputs.evidence).toHaveLength(4);
    expect(entry!.inputs.absences).toBe(1);
    const again = JSON.parse(runScoreCommand(JSON.stringify(entry!.inputs)));
    expect([again.score, again.low, again.high]).toEqual([entry!.assessment.score, entry!.assessment.low, entry!.assessment.high]);
    expect(again.methodology_version).toBe(entry!.assessment.methodology_version);
    // The whole entry, exactly as served, is accepted too.
    const whole = JSON.parse(runScoreCommand(JSON.stringify(entry)));
    expect(whole).toMatchObject({ methodology_version: 'trust-method/1', reproduces: true, evidence: { signals: 4, contradictions: 1 } });
    expect(whole).not.toHaveProperty('not_compared');
  });

  it('given a v2 entry stored before the ledger kept neutral signals, then it still reproduces, and says which summary fields it cannot recompute', async () => {
    const { entityId } = await resolve([email('old.v2.entry@example.com')]);
    // As the engine stored v2 entries: the scored items only, while the summary counted 7 neutral signals more.
    const at = '2026-11-20T09:30:00Z';
    const inputs = {
      methodology_version: 'trust-method/2',
      as_of: at,
      absences: 0,
      evidence: [
        { provenance_class: 'computed', trust_band: 'high', observed_at: at, disposition: 'weakens', strength: 'strong' },
        { provenance_class: 'computed', trust_band: 'low', observed_at: at, disposition: 'supports', strength: 'weak' },
      ],
    };
    const summary = {
      signals: 9,
      failed_signals: 0,
      contradictions: 1,
      by_provenance_class: { computed: 9 },
      by_trust_band: { high: 5, medium: 3, low: 1 },
      oldest_observed_at: at,
      newest_observed_at: at,
    };
    const inquiryId = randomUUID();
    await withSystem(ts.service.db, async (db) => {
      await db.query(sql.unsafe`
        INSERT INTO inquiries (id, tenant_id, mode, entity_id, status, intent, purpose, request, principal)
        VALUES (${inquiryId}, ${ts.tenant.tenant_id}, 'test', ${entityId}, 'concluded', 'onboarding', 'fraud_prevention', '{}', 'test')`);
      await db.query(sql.unsafe`
        INSERT INTO assessments (id, tenant_id, mode, inquiry_id, entity_id, score, low, high, preliminary, as_of,
                                 methodology_version, label, evidence, inputs)
        VALUES (${randomUUID()}, ${ts.tenant.tenant_id}, 'test', ${inquiryId}, ${entityId}, 30, 2, 72, false, ${at},
                'trust-method/2', NULL, ${sql.jsonb(summary)}, ${sql.jsonb(inputs)})`);
    });
    const { body } = await get(`/v1/entities/${entityId}/ledger`, ts.tenant.keys.test);
    const [entry] = LedgerEntryList.parse(body);
    expect(entry!.inputs.methodology_version).toBe('trust-method/2');
    const whole = JSON.parse(runScoreCommand(JSON.stringify(entry)));
    expect(whole).toMatchObject({
      methodology_version: 'trust-method/2',
      reproduces: true,
      score: 30,
      low: 2,
      high: 72,
      unrecorded_signals: 7,
      not_compared: [
        'evidence.signals',
        'evidence.by_provenance_class',
        'evidence.by_trust_band',
        'evidence.oldest_observed_at',
        'evidence.newest_observed_at',
      ],
    });
  });

  it('given an entity without assessments, then an empty ledger', async () => {
    const { entityId } = await resolve([email('empty.ledger@example.com')]);
    const { res, body } = await get(`/v1/entities/${entityId}/ledger`, ts.tenant.keys.test);
    expect(res.status).toBe(200);
    expect(body).toEqual([]);
  });
});
