import type { Assessment } from '../../machines/types.js';

/**
 * A whole Assessment (machines/types.ts) for tests that drive machines: the
 * id a test names, plausible values for the rest, any of which it may set.
 */
export function anAssessment(assessmentId: string, over: Partial<Assessment> = {}): Assessment {
  const asOf = over.as_of ?? '2026-11-25T10:00:00.000Z';
  return {
    assessment_id: assessmentId,
    inquiry_id: '00000000-0000-4000-8000-0000000000aa',
    score: 50,
    low: 30,
    high: 70,
    preliminary: false,
    as_of: asOf,
    methodology_version: 'trust-method/3',
    label: null,
    evidence: {
      signals: 0,
      failed_signals: 0,
      contradictions: 0,
      by_provenance_class: {},
      by_trust_band: { high: 0, medium: 0, low: 0 },
      oldest_observed_at: asOf,
      newest_observed_at: asOf,
    },
    entity_id: null,
    ...over,
  };
}
