import { describe, it, expect } from 'vitest';
import { admitEvidence, score, summarizeEvidence } from '../../src/scoring/index.js';
import type { AdmittedSignal } from '../../src/scoring/index.js';
import { AS_OF, daysBefore } from './fixtures.js';

function signal(overrides: Partial<AdmittedSignal> = {}): AdmittedSignal {
  return { provenance_class: 'third_party', trust_band: 'high', observed_at: AS_OF, disposition: 'supports', ...overrides };
}

describe('summarizeEvidence: the EvidenceSummary fields', () => {
  it('given no signals, then counts are zero and both dates are the as_of passed in', () => {
    expect(summarizeEvidence({ as_of: AS_OF, signals: [], absences: 3 })).toEqual({
      signals: 0,
      failed_signals: 3,
      contradictions: 0,
      by_provenance_class: {},
      by_trust_band: { high: 0, medium: 0, low: 0 },
      oldest_observed_at: AS_OF,
      newest_observed_at: AS_OF,
    });
  });

  it('given mixed signals, then neutral ones count, contradictions is the smaller side', () => {
    // Given
    const signals = [
      signal({ observed_at: daysBefore(10) }),
      signal({ disposition: 'weakens', trust_band: 'low', provenance_class: 'computed', observed_at: daysBefore(400) }),
      signal({ disposition: 'neutral', trust_band: 'medium', provenance_class: 'computed', observed_at: daysBefore(-2) }),
      signal({ disposition: 'supports', provenance_class: 'self_attested' }),
      signal({ disposition: 'weakens', trust_band: 'medium', kind: 'domain_age' }),
    ];
    // When
    const summary = summarizeEvidence({ as_of: AS_OF, signals, absences: 1 });
    // Then
    expect(summary).toEqual({
      signals: 5,
      failed_signals: 1,
      contradictions: 2,
      by_provenance_class: { third_party: 2, computed: 2, self_attested: 1 },
      by_trust_band: { high: 2, medium: 2, low: 1 },
      oldest_observed_at: daysBefore(400),
      newest_observed_at: daysBefore(-2),
    });
  });

  it('given a provenance class named __proto__, then it is counted as a plain key', () => {
    const summary = summarizeEvidence({ as_of: AS_OF, signals: [signal({ provenance_class: '__proto__' })], absences: 0 });
    expect(Object.keys(summary.by_provenance_class)).toEqual(['__proto__']);
    expect(JSON.stringify(summary.by_provenance_class)).toBe('{"__proto__":1}');
  });

  it('given a negative absence count or a bad as_of, then it refuses', () => {
    expect(() => summarizeEvidence({ as_of: AS_OF, signals: [], absences: -1 })).toThrow(/absences/);
    expect(() => summarizeEvidence({ as_of: 'now', signals: [], absences: 0 })).toThrow(/as_of/);
  });
});

describe('admitEvidence: malformed items and exact duplicates are dropped', () => {
  it('given malformed items, then they are dropped and counted', () => {
    const candidates: unknown[] = [
      signal(),
      null,
      'supports',
      { ...signal(), trust_band: 'certain' },
      { ...signal(), disposition: 'maybe' },
      { ...signal(), observed_at: '2025-02-30T00:00:00Z' },
      { ...signal(), provenance_class: '' },
      { ...signal(), kind: 42 },
      { trust_band: 'high', observed_at: AS_OF, disposition: 'supports' },
    ];
    const admission = admitEvidence(candidates);
    expect(admission).toMatchObject({ malformed: 8, duplicates: 0 });
    expect(admission.signals).toHaveLength(1);
  });

  it('given exact duplicates, then the first is kept in stored order', () => {
    const candidates = [
      signal({ kind: 'email_syntax', about: 'a@example.com' }),
      signal({ kind: 'email_syntax', about: 'a@example.com', observed_at: '2025-01-01T00:00:00.000Z' }), // same instant
      signal({ kind: 'email_syntax', about: 'b@example.com' }), // another value: distinct
      signal({ kind: 'mx_record', about: 'a@example.com' }), // another question: distinct
      signal({ disposition: 'weakens' }),
      signal({ disposition: 'weakens' }), // identical, no kind/about
      signal({ disposition: 'neutral', kind: 'free_mail' }),
    ];
    const admission = admitEvidence(candidates);
    expect(admission.duplicates).toBe(2);
    expect(admission.signals.map((s) => [s.kind, s.about, s.disposition])).toEqual([
      ['email_syntax', 'a@example.com', 'supports'],
      ['email_syntax', 'b@example.com', 'supports'],
      ['mx_record', 'a@example.com', 'supports'],
      [undefined, undefined, 'weakens'],
      ['free_mail', undefined, 'neutral'],
    ]);
  });

  it('given fields whose text runs across their boundaries alike, then the items stay distinct', () => {
    const candidates = [
      signal({ kind: 'ab', about: 'c' }),
      signal({ kind: 'a', about: 'bc' }),
      signal({ kind: '1:a', about: '-' }),
      signal({ kind: '1', about: 'a-' }),
      signal({ kind: 'x', ref: 'y' }),
      signal({ kind: 'x', about: 'y' }),
      signal({ kind: 'x', strength: 'weak' }),
      signal({ kind: 'x', about: 'weak' }),
    ];
    expect(admitEvidence(candidates)).toMatchObject({ duplicates: 0 });
  });

  it('given one fact about a host reached through two presentations, then it is counted once', () => {
    const candidates = [
      signal({ kind: 'domain_lookalike', about: 'jane@paypa1.example', fact: 'host:paypa1.example', disposition: 'weakens' }),
      signal({ kind: 'domain_lookalike', about: 'https://paypa1.example/', fact: 'host:paypa1.example', disposition: 'weakens' }),
      signal({
        kind: 'domain_lookalike',
        about: 'https://login.paypa1.example/',
        fact: 'host:login.paypa1.example',
        disposition: 'weakens',
      }), // another host
      signal({ kind: 'email_syntax', about: 'jane@paypa1.example' }), // a fact about the value itself
      signal({ kind: 'email_syntax', about: 'joe@paypa1.example' }),
    ];
    const admission = admitEvidence(candidates);
    expect(admission.duplicates).toBe(1);
    expect(admission.signals.map((s) => s.about)).toEqual([
      'jane@paypa1.example',
      'https://login.paypa1.example/',
      'jane@paypa1.example',
      'joe@paypa1.example',
    ]);
  });

  it('given one host looked up for two presentations a moment apart, then it is one fact; a value observed twice is not', () => {
    const later = '2025-01-01T00:00:01.250Z';
    const candidates = [
      signal({ kind: 'domain_delegation', about: 'jane@example.org', fact: 'domain:example.org' }),
      signal({ kind: 'domain_delegation', about: 'example.org', fact: 'domain:example.org', observed_at: later }),
      signal({ kind: 'email_syntax', about: 'jane@example.org' }),
      signal({ kind: 'email_syntax', about: 'jane@example.org', observed_at: later }),
    ];
    const admission = admitEvidence(candidates);
    expect(admission.duplicates).toBe(1);
    expect(admission.signals.map((s) => [s.kind, s.about])).toEqual([
      ['domain_delegation', 'jane@example.org'],
      ['email_syntax', 'jane@example.org'],
      ['email_syntax', 'jane@example.org'],
    ]);
  });

  it('given admitted signals, then the scoring inputs are the non-neutral ones, four fields each, in order', () => {
    const statement = { statement: 'domain registered 3 days ago', data_class: 'C0' };
    const admission = admitEvidence([
      { ...signal({ disposition: 'weakens', kind: 'domain_age' }), ...statement },
      signal({ disposition: 'neutral', kind: 'free_mail' }),
      signal({ kind: 'email_syntax', trust_band: 'medium' }),
    ]);
    expect(admission.signals[0]).toMatchObject(statement); // extra fields pass through
    expect(admission.evidence).toEqual([
      { provenance_class: 'third_party', trust_band: 'high', observed_at: AS_OF, disposition: 'weakens' },
      { provenance_class: 'third_party', trust_band: 'medium', observed_at: AS_OF, disposition: 'supports' },
    ]);
    expect(score({ methodology_version: 'trust-method/1', as_of: AS_OF, evidence: admission.evidence, absences: 0 })).toMatchObject({
      R: 0.6,
      S: 1,
    });
  });
});
