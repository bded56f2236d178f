import { describe, expect, it } from 'vitest';
import { builtInCatalogue } from '../../src/checks/catalogue.js';
import { measurementOf, measurements, nameMeasurements } from '../../src/checks/measuredStrengths.js';

/**
 * METHODOLOGY.md section 8, rule 2: a declared strength is at most what its
 * measured likelihood ratio supports (the lower end of its 90 % interval),
 * and a fact no corpus here measured is at most `moderate` unless a cited
 * measurement (or section 8's rule for the tenant's own outcomes) says more.
 * The measurements are src/checks/data/likelihoodRatios.json, written by
 * `npm run bench:quality -- --write`, and src/checks/data/nameLikelihoodRatios.json,
 * written by `npx tsx bench/names.ts --write`.
 */
const RANK = { neutral: 0, weak: 1, moderate: 2, strong: 3 } as const;

describe('declared strengths against their measurements', () => {
  it('given the committed measurements, then they come from a real run of the bench', () => {
    const file = measurements();
    expect(file.per_class).toBeGreaterThanOrEqual(100);
    expect(file.corpora.length).toBeGreaterThanOrEqual(3);
    expect(file.measurements.filter((m) => m.lr !== null).length).toBeGreaterThanOrEqual(10);
  });

  it('given the committed name measurements, then they come from a real run of the names bench, one row per grade', () => {
    const file = nameMeasurements();
    expect(file.per_class).toBeGreaterThanOrEqual(1000);
    expect(file.generated_by).toBe('npx tsx bench/names.ts --write');
    for (const grade of ['exact', 'strong', 'weak']) {
      expect(measurementOf(`sanctions_match_${grade}`, 'weakens')).not.toBeNull();
    }
  });

  it('given every scored (kind, disposition) a built-in check declares, then its strength is no more than its measurement supports', async () => {
    const over: string[] = [];
    for (const row of await builtInCatalogue()) {
      for (const answer of row.answers) {
        if (answer.disposition === 'neutral' || !answer.strength) continue;
        const m = measurementOf(answer.kind, answer.disposition);
        const ceiling = m?.supports_strength ?? (answer.cited ? 'strong' : 'moderate');
        if (RANK[answer.strength] > RANK[ceiling]) {
          over.push(
            `${row.id} ${answer.kind}:${answer.disposition} declares ${answer.strength}, ${m ? `measured LR ${m.lr} [${m.lr_low}-${m.lr_high}] supports ${ceiling}` : 'unmeasured and uncited: at most moderate'}`,
          );
        }
      }
    }
    expect(over).toEqual([]);
  });
});
