import type { EvidenceItem, Strength } from '../../src/scoring/index.js';
import { AS_OF } from './fixtures.js';

/**
 * METHODOLOGY.md section 8's worked examples, row for row (as_of
 * 2025-01-01T00:00:00Z; every item third_party, high, observed at as_of,
 * unless stated; k absences), shared by the table test and the independent
 * implementation's test.
 */

function v3(disposition: EvidenceItem['disposition'], strength: Strength, overrides: Partial<EvidenceItem> = {}): EvidenceItem {
  return { provenance_class: 'third_party', trust_band: 'high', observed_at: AS_OF, disposition, strength, ...overrides };
}
const many = (n: number, item: EvidenceItem) => Array.from({ length: n }, () => item);

export const SECTION_8_EXAMPLES: ReadonlyArray<{ name: string; evidence: EvidenceItem[]; k: number; expected: [number, number, number] }> =
  [
    { name: 'no evidence', evidence: [], k: 0, expected: [50, 5, 95] },
    { name: 'no evidence, four absences', evidence: [], k: 4, expected: [50, 4, 96] },
    { name: 'one moderate support', evidence: [v3('supports', 'moderate')], k: 0, expected: [80, 47, 99] },
    { name: 'one strong support', evidence: [v3('supports', 'strong')], k: 0, expected: [90, 71, 100] },
    { name: 'five moderate supports, two absences', evidence: many(5, v3('supports', 'moderate')), k: 2, expected: [94, 75, 100] },
    {
      name: 'disposable inbox',
      evidence: [
        v3('weakens', 'strong', { provenance_class: 'computed' }),
        v3('supports', 'weak', { provenance_class: 'computed', trust_band: 'low' }),
      ],
      k: 0,
      expected: [14, 1, 38],
    },
    {
      name: 'partial conflict',
      evidence: [...many(8, v3('supports', 'moderate')), ...many(2, v3('weakens', 'moderate'))],
      k: 0,
      expected: [78, 61, 92],
    },
  ];
