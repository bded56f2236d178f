import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { InquiryRequest } from '../../src/inquiries/schemas.js';
import { Assessment } from '../../src/assessment/schemas.js';
import { ObservationIn } from '../../src/observations/schemas.js';
import { PolicyIn } from '../../src/policies/schemas.js';
import { IntakeManifest } from '../../src/cases/schemas.js';
import { MonitorCreate } from '../../src/monitors/schemas.js';
import { AuditQuery, CloseSessionQuery } from '../../src/schemas/queries.js';
import { OPERATIONS } from '../../src/schemas/operations.js';
import { buildOpenApiDocument } from '../../src/openapi/document.js';
import { without } from '../support/objects.js';

/** A request as SPEC.md describes one: every required field, some optional ones. */
function sampleInquiry(): Record<string, any> {
  return {
    subject: {
      presentations: [
        { type: 'EMAIL', value: 'ana.silva@example.com' },
        { type: 'PHONE', value: '+351 912 345 678' },
      ],
      claim: { name: 'Ana Silva', country: 'PT' },
    },
    intent: 'pre_transaction',
    purpose: 'fraud_prevention',
    stake: { kind: 'payment', amount: 250, currency: 'EUR', reversible: false, deadline_ms: 3000 },
  };
}

function issues(schema: z.ZodType, input: unknown) {
  const r = schema.safeParse(input);
  expect(r.success, 'expected the input to be refused').toBe(false);
  return r.error!.issues;
}

function expectUnknownKey(schema: z.ZodType, input: unknown, path: (string | number)[], key: string): void {
  const found = issues(schema, input).find((i) => i.code === 'unrecognized_keys');
  expect(found, `unrecognized_keys at ${path.join('.')}`).toBeDefined();
  expect(found!.path).toEqual(path);
  expect((found as { keys: string[] }).keys).toEqual([key]);
}

describe('InquiryRequest', () => {
  it('given a SPEC sample, parses it and fills the defaults', () => {
    const parsed = InquiryRequest.parse(sampleInquiry());
    expect(parsed).toMatchObject({ render: 'none', mode: 'sync', tier_ceiling: 't2' });
    expect(parsed.subject.presentations).toHaveLength(2);
  });

  it.each([
    [
      ['extra'],
      (b: any) => {
        b.extra = 1;
      },
      [],
    ],
    [
      ['subject', 'presentations', 0],
      (b: any) => {
        b.subject.presentations[0].extra = 1;
      },
      ['subject', 'presentations', 0],
    ],
    [
      ['stake'],
      (b: any) => {
        b.stake.extra = 1;
      },
      ['stake'],
    ],
    [
      ['subject', 'claim'],
      (b: any) => {
        b.subject.claim.extra = 1;
      },
      ['subject', 'claim'],
    ],
    [
      ['context', 0, 'subject'],
      (b: any) => {
        b.context = [
          {
            subject: { entity_id: 'e1', extra: 1 },
            provenance_class: 'tenant_supplied',
            summary: 's',
            observed_at: '2025-01-01T00:00:00Z',
            purpose: 'p',
          },
        ];
      },
      ['context', 0, 'subject'],
    ],
  ])('refuses an unknown field at %j with unrecognized_keys', (_where, mutate, path) => {
    const body = sampleInquiry();
    mutate(body);
    expectUnknownKey(InquiryRequest, body, path, 'extra');
  });

  it.each(['subject', 'intent', 'purpose', 'stake'])('refuses a request without %s', (field) => {
    const body = sampleInquiry();
    delete body[field];
    const found = issues(InquiryRequest, body);
    expect(found.map((i) => [i.code, i.path])).toContainEqual(['invalid_type', [field]]);
  });

  it('refuses a presentation without a value and a stake without a kind', () => {
    const body = sampleInquiry();
    delete body.subject.presentations[1].value;
    delete body.stake.kind;
    const paths = issues(InquiryRequest, body).map((i) => i.path);
    expect(paths).toContainEqual(['subject', 'presentations', 1, 'value']);
    expect(paths).toContainEqual(['stake', 'kind']);
  });

  it.each([
    [
      'deadline_ms below 50',
      (b: any) => {
        b.stake.deadline_ms = 49;
      },
    ],
    [
      'deadline_ms above 30000',
      (b: any) => {
        b.stake.deadline_ms = 30001;
      },
    ],
    [
      'a fractional deadline',
      (b: any) => {
        b.stake.deadline_ms = 100.5;
      },
    ],
    [
      'tier_ceiling t3',
      (b: any) => {
        b.tier_ceiling = 't3';
      },
    ],
    [
      'render html',
      (b: any) => {
        b.render = 'html';
      },
    ],
    [
      'render_lang not a language tag',
      (b: any) => {
        b.render_lang = 'english please';
      },
    ],
    [
      '33 presentations',
      (b: any) => {
        b.subject.presentations = Array.from({ length: 33 }, (_, i) => ({ type: 'EMAIL', value: `${i}@x.io` }));
      },
    ],
    [
      'a 513-character value',
      (b: any) => {
        b.subject.presentations[0].value = 'x'.repeat(513);
      },
    ],
    [
      '21 material ids',
      (b: any) => {
        b.material_ids = Array.from({ length: 21 }, (_, i) => `m${i}`);
      },
    ],
    [
      'a lower-case country claim',
      (b: any) => {
        b.subject.claim.country = 'pt';
      },
    ],
    [
      'an unknown stake kind',
      (b: any) => {
        b.stake.kind = 'loan';
      },
    ],
  ])('refuses %s', (_name, mutate) => {
    const body = sampleInquiry();
    mutate(body);
    expect(InquiryRequest.safeParse(body).success).toBe(false);
  });

  it('refuses an empty subject with rule I18', () => {
    const body = sampleInquiry();
    body.subject = {};
    const found = issues(InquiryRequest, body).find((i) => i.code === 'custom');
    expect(found).toMatchObject({ path: ['subject', 'presentations'], params: { rule: 'I18' } });
  });
});

describe('rules the schemas decide', () => {
  const base = { subject: { entity_id: 'e1' }, summary: 'paid late twice', observed_at: '2025-01-01T00:00:00Z', purpose: 'p' };

  it('self-attested testimony needs consent_ref (D36); analyst-asserted needs case_id (D37)', () => {
    expect(issues(ObservationIn, { ...base, provenance_class: 'self_attested' })[0]).toMatchObject({ params: { rule: 'D36' } });
    expect(issues(ObservationIn, { ...base, provenance_class: 'analyst_asserted' })[0]).toMatchObject({ params: { rule: 'D37' } });
    expect(ObservationIn.safeParse({ ...base, provenance_class: 'self_attested', consent_ref: 'c1' }).success).toBe(true);
  });

  it('intake audio needs consent_ref (D36), and a manifest is bounded at 500', () => {
    const audio = { kind: 'material', ref: 'a', material_kind: 'audio', media_type: 'audio/ogg', sha256: 'a'.repeat(64), size_bytes: 10 };
    expect(issues(IntakeManifest, { items: [audio] })[0]).toMatchObject({ params: { rule: 'D36' }, path: ['items', 0, 'consent_ref'] });
    const p = { kind: 'presentation', ref: 'r', presentation: { type: 'EMAIL', value: 'a@b.c' } };
    expect(IntakeManifest.safeParse({ items: Array(500).fill(p) }).success).toBe(true);
    expect(IntakeManifest.safeParse({ items: Array(501).fill(p) }).success).toBe(false);
    expectUnknownKey(
      IntakeManifest,
      { items: [{ ...p, presentation: { ...p.presentation, extra: 1 } }] },
      ['items', 0, 'presentation'],
      'extra',
    );
  });

  it('a monitor needs at least one trigger', () => {
    const m = { subject: { entity_id: 'e' }, intent: 'i', purpose: 'p', stake: { kind: 'account' }, cadence_seconds: 3600, triggers: {} };
    expect(MonitorCreate.safeParse(m).success).toBe(false);
    expect(MonitorCreate.safeParse({ ...m, triggers: { label_change: true } }).success).toBe(true);
  });
});

describe('other shapes', () => {
  it('PolicyIn: a sample parses; an unknown condition is unrecognized_keys', () => {
    const policy = {
      allowed_purposes: ['fraud_prevention'],
      allowed_intents: ['pre_transaction'],
      render_ceiling: 'template',
      show_findings: true,
      rules: [
        { label: 'review', when: { width_gte: 40, stake_kinds: ['payment'] } },
        { label: 'ok', when: {} },
      ],
    };
    expect(PolicyIn.safeParse(policy).success).toBe(true);
    policy.rules[1]!.when = { score_gt: 3 } as never;
    expectUnknownKey(PolicyIn, policy, ['rules', 1, 'when'], 'score_gt');
  });

  it('Assessment: the label may be null but not absent; scores are integers 0..100', () => {
    const a = {
      assessment_id: '0193a5b0-7c1e-7d2a-9b3c-4d5e6f708192',
      inquiry_id: '0193a5b0-7c1e-7d2a-9b3c-4d5e6f708193',
      score: 67,
      low: 22,
      high: 98,
      preliminary: false,
      as_of: '2025-01-01T00:00:00Z',
      methodology_version: 'trust-method/1',
      label: null,
      entity_id: null,
      evidence: {
        signals: 1,
        failed_signals: 0,
        contradictions: 0,
        by_provenance_class: { third_party: 1 },
        by_trust_band: { high: 1, medium: 0, low: 0 },
        oldest_observed_at: '2025-01-01T00:00:00Z',
        newest_observed_at: '2025-01-01T00:00:00Z',
      },
    };
    expect(Assessment.safeParse(a).success).toBe(true);
    expect(Assessment.safeParse(without(a, 'label')).success).toBe(false);
    expect(Assessment.safeParse({ ...a, score: 101 }).success).toBe(false);
    expect(Assessment.safeParse({ ...a, score: 0.67 }).success).toBe(false);
  });

  it('query strings coerce and default, and are closed', () => {
    expect(AuditQuery.parse({})).toEqual({ limit: 100 });
    expect(AuditQuery.parse({ limit: '50', after: 'x' })).toEqual({ limit: 50, after: 'x' });
    expect(AuditQuery.safeParse({ limit: '0' }).success).toBe(false);
    expect(AuditQuery.safeParse({ limit: '1001' }).success).toBe(false);
    expect(CloseSessionQuery.parse({})).toEqual({ reason: 'ended' });
    expectUnknownKey(AuditQuery, { limt: '5' }, [], 'limt');
  });

  it('every request body refuses an unknown top-level field', () => {
    for (const op of OPERATIONS) {
      if (!op.body) continue;
      const isArray = op.body.def.type === 'array';
      const input = isArray ? [{ zz_unknown: 1 }] : { zz_unknown: 1 };
      const found = issues(op.body, input).filter((i) => i.code === 'unrecognized_keys');
      expect(found.length, op.operationId).toBeGreaterThan(0);
    }
  });

  it('every object in the document is closed, except free-form maps', () => {
    const doc = buildOpenApiDocument(OPERATIONS, { build: 't' }) as { components: { schemas: unknown } };
    const open: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
      if (node === null || typeof node !== 'object') return;
      const o = node as Record<string, unknown>;
      if (o.type === 'object' && o.properties !== undefined && o.additionalProperties !== false) open.push(at);
      for (const [k, v] of Object.entries(o)) walk(v, `${at}/${k}`);
    };
    walk(doc.components.schemas, '#/components/schemas');
    expect(open).toEqual([]);
  });
});
