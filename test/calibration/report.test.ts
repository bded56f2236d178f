import { describe, expect, it } from 'vitest';
import { calibrationReports, outcomeValue, reliabilitySvg, type ScoredOutcome } from '../../src/calibration/report.js';

const at = (score: number, outcome: string, version = 'trust-method/1'): ScoredOutcome => ({
  methodology_version: version,
  score,
  low: Math.max(0, score - 20),
  high: Math.min(100, score + 20),
  outcome,
});

describe('calibration', () => {
  it.each([
    ['repaid', 1],
    ['settled', 1],
    ['confirmed', 1],
    ['defaulted', 0],
    ['reversed', 0],
    ['exposed', 0],
    ['closed_finding', null],
    ['other', null],
  ])('%s scores as %s', (kind, value) => {
    expect(outcomeValue(kind)).toBe(value);
  });

  it('given perfectly calibrated outcomes in one bin, then Brier is the variance and ECE is zero', () => {
    const rows = [at(80, 'repaid'), at(80, 'repaid'), at(80, 'repaid'), at(80, 'repaid'), at(80, 'defaulted')];
    const [r] = calibrationReports(rows);
    expect(r!.outcomes).toBe(5);
    expect(r!.brier).toBeCloseTo((4 * 0.04 + 0.64) / 5, 4);
    expect(r!.ece).toBe(0);
    expect(r!.bins[8]).toMatchObject({ bin: '80-89', count: 5, mean_score: 80, observed_rate: 0.8, inside_interval: true });
  });

  it('given confident scores that were wrong, then ECE is large and the bin says the rate is outside its interval', () => {
    const [r] = calibrationReports([at(95, 'defaulted'), at(95, 'defaulted'), at(95, 'reversed')]);
    expect(r!.ece).toBeCloseTo(0.95, 4);
    expect(r!.bins[9]).toMatchObject({ bin: '90-100', inside_interval: false });
  });

  it('reports each methodology version on its own and skips unscored outcomes', () => {
    const reports = calibrationReports([
      at(50, 'repaid', 'trust-method/1'),
      at(50, 'other', 'trust-method/1'),
      at(30, 'defaulted', 'trust-method/2'),
    ]);
    expect(reports.map((r) => [r.methodology_version, r.outcomes])).toEqual([
      ['trust-method/1', 1],
      ['trust-method/2', 1],
    ]);
  });

  it('draws a reliability plot with one dot per non-empty bin', () => {
    const [r] = calibrationReports([at(10, 'defaulted'), at(55, 'repaid'), at(90, 'repaid')]);
    const svg = reliabilitySvg(r!);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/<circle/g)).toHaveLength(3);
  });
});
