import type { Assessment, Findings } from '../../src/assessment/schemas.js';

/** A subject whose values must never reach a share card or a model endpoint. */
export const EMAIL = 'Alice.Wonder@example-mail.test';
export const PHONE = '+44 20 7946 0958';
export const NAME = 'Alice Wonderland';
export const PRESENTED = [EMAIL, PHONE, NAME] as const;

export const NOW = new Date('2025-01-02T03:04:05.000Z');
export const AS_OF = '2025-01-01T12:00:00Z';
const INQUIRY = '11111111-1111-4111-8111-111111111111';
const ASSESSMENT = '22222222-2222-4222-8222-222222222222';
const ENTITY = '33333333-3333-4333-8333-333333333333';

export function assessment(overrides: Partial<Assessment> = {}): Assessment {
  return {
    assessment_id: ASSESSMENT,
    inquiry_id: INQUIRY,
    score: 72,
    low: 58,
    high: 83,
    preliminary: false,
    as_of: AS_OF,
    methodology_version: 'm-2025.1',
    label: { value: 'standard', policy_version: 3 },
    evidence: {
      signals: 5,
      failed_signals: 2,
      contradictions: 1,
      by_provenance_class: { third_party: 2, computed: 3 },
      by_trust_band: { high: 3, medium: 1, low: 1 },
      oldest_observed_at: '2024-06-01T00:00:00Z',
      newest_observed_at: AS_OF,
    },
    entity_id: ENTITY,
    ...overrides,
  };
}

export function findings(overrides: Partial<Findings> = {}): Findings {
  const base = { provenance_class: 'computed', trust_band: 'high' as const, observed_at: AS_OF, data_class: 'C1' as const };
  return {
    inquiry_id: INQUIRY,
    assessment_id: ASSESSMENT,
    subject: [
      { type: 'EMAIL', value: EMAIL },
      { type: 'PHONE', value: PHONE },
      { type: 'NAME', value: NAME },
    ],
    findings: [
      {
        ...base,
        finding_id: 'f-1',
        about: EMAIL,
        about_type: 'EMAIL',
        kind: 'established_site',
        disposition: 'supports',
        statement: `The address ${EMAIL.toLowerCase()} is at an established organisation's own domain.`,
      },
      {
        ...base,
        finding_id: 'f-2',
        about: EMAIL,
        about_type: 'EMAIL',
        kind: 'role_account',
        disposition: 'supports',
        statement: 'The mailbox alice.wonder is not a role account.',
      },
      {
        ...base,
        finding_id: 'f-3',
        about: PHONE,
        about_type: 'PHONE',
        kind: 'phone_real_line',
        disposition: 'supports',
        statement: 'The number +442079460958 is a fixed line valid in the claimed country.',
        provenance_class: 'third_party',
      },
      {
        ...base,
        finding_id: 'f-4',
        about: EMAIL,
        about_type: 'EMAIL',
        kind: 'free_mail',
        disposition: 'weakens',
        statement: 'The domain offers free mailboxes.',
        trust_band: 'low',
      },
      {
        ...base,
        finding_id: 'f-5',
        about: NAME,
        about_type: 'NAME',
        kind: 'claim_consistency',
        disposition: 'neutral',
        statement: `The name ${NAME} matches the claim.`,
        trust_band: 'medium',
      },
    ],
    absences: [
      { about: PHONE, about_type: 'PHONE', kind: 'timeout', reason: `No answer in time for ${PHONE}.` },
      { about: EMAIL, about_type: 'EMAIL', kind: 'no_data', reason: 'No data about the domain.' },
    ],
    connections: [
      {
        connection_id: 'c-1',
        relation: 'shares_value',
        from_label: EMAIL,
        from_type: 'EMAIL',
        to_label: 'EMAIL',
        to_type: 'EMAIL',
        weight: 0.4,
        reason: `Another subject of yours also presented ${EMAIL}.`,
      },
    ],
    coverage: {
      tier_ceiling: 't1',
      checks_run: 7,
      checks_answered: 5,
      checks_unanswered: 2,
      gaps: [{ tier: 't2', kind: 'domain_age', count: 1 }],
    },
    generated_at: AS_OF,
    ...overrides,
  };
}

/** Every form of a presented value that would identify the subject, for "contains none" assertions. */
export function presentedForms(): string[] {
  return [...PRESENTED.map((v) => v.toLowerCase()), 'alice.wonder', 'alice', 'wonderland', '2079460958', '7946 0958', '7946'];
}

export function expectNoPresentedValue(text: string): string[] {
  const lower = text.toLowerCase();
  return presentedForms().filter((form) => lower.includes(form));
}
