import type { EvidenceItem, ScoringDisposition } from '../../src/scoring/index.js';

/** METHODOLOGY.md section 5 defaults: third_party, high, observed at as_of. */
export const AS_OF = '2025-01-01T00:00:00Z';
export const AS_OF_MS = Date.UTC(2025, 0, 1);
export const DAY_MS = 86_400_000;

export function item(disposition: ScoringDisposition, overrides: Partial<EvidenceItem> = {}): EvidenceItem {
  return { provenance_class: 'third_party', trust_band: 'high', observed_at: AS_OF, disposition, ...overrides };
}

export function items(count: number, disposition: ScoringDisposition): EvidenceItem[] {
  return Array.from({ length: count }, () => item(disposition));
}

/** An ISO instant `days` before AS_OF (negative: in the future). */
export function daysBefore(days: number): string {
  return new Date(AS_OF_MS - days * DAY_MS).toISOString();
}

/** Section 5 worked examples, as given. */
export const WORKED_EXAMPLES: ReadonlyArray<{
  name: string;
  evidence: EvidenceItem[];
  k: number;
  expected: { score: number; low: number; high: number };
}> = [
  { name: 'no evidence', evidence: [], k: 0, expected: { score: 50, low: 5, high: 95 } },
  { name: 'one support', evidence: items(1, 'supports'), k: 0, expected: { score: 67, low: 22, high: 98 } },
  { name: 'five supports', evidence: items(5, 'supports'), k: 0, expected: { score: 86, low: 60, high: 100 } },
  {
    name: 'five supports, two absences',
    evidence: items(5, 'supports'),
    k: 2,
    expected: { score: 86, low: 56, high: 100 },
  },
  {
    name: 'perfect conflict',
    evidence: [...items(6, 'supports'), ...items(6, 'weakens')],
    k: 0,
    expected: { score: 50, low: 5, high: 95 },
  },
  {
    name: 'partial conflict',
    evidence: [...items(8, 'supports'), ...items(2, 'weakens')],
    k: 0,
    expected: { score: 75, low: 47, high: 95 },
  },
  { name: 'half-point rounding (P = 0.125)', evidence: items(6, 'weakens'), k: 0, expected: { score: 13, low: 0, high: 35 } },
];
