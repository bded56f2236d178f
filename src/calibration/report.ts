/**
 * Calibration (METHODOLOGY.md section 6), pure. Outcomes map to 1 (repaid,
 * settled, confirmed) or 0 (defaulted, reversed, exposed); others are not
 * scored. Per methodology version: Brier score, expected calibration error
 * over 10 bins, and a reliability table (mean score against observed rate per
 * bin, with counts, and whether the observed rate lies inside the bin's mean
 * interval). Calibration never edits an assessment.
 */
import type { ScoredOutcome } from './store.js';

export type { ScoredOutcome };

export interface ReliabilityBin {
  bin: string;
  count: number;
  mean_score: number | null;
  observed_rate: number | null;
  mean_low: number | null;
  mean_high: number | null;
  inside_interval: boolean | null;
}

export interface CalibrationReport {
  methodology_version: string;
  outcomes: number;
  brier: number | null;
  ece: number | null;
  bins: ReliabilityBin[];
}

const POSITIVE = new Set(['repaid', 'settled', 'confirmed']);
const NEGATIVE = new Set(['defaulted', 'reversed', 'exposed']);
const BINS = 10;

export function outcomeValue(kind: string): 0 | 1 | null {
  if (POSITIVE.has(kind)) return 1;
  if (NEGATIVE.has(kind)) return 0;
  return null;
}

export function calibrationReports(rows: readonly ScoredOutcome[]): CalibrationReport[] {
  const byVersion = new Map<string, { s: ScoredOutcome; y: 0 | 1 }[]>();
  for (const s of rows) {
    const y = outcomeValue(s.outcome);
    if (y === null) continue;
    byVersion.set(s.methodology_version, [...(byVersion.get(s.methodology_version) ?? []), { s, y }]);
  }
  return [...byVersion.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([version, items]) => report(version, items));
}

function report(version: string, items: { s: ScoredOutcome; y: 0 | 1 }[]): CalibrationReport {
  const n = items.length;
  const brier = items.reduce((acc, { s, y }) => acc + (s.score / 100 - y) ** 2, 0) / n;
  const bins = Array.from({ length: BINS }, (_, b) =>
    binOf(
      b,
      items.filter(({ s }) => Math.min(BINS - 1, Math.floor(s.score / 10)) === b),
    ),
  );
  const ece = bins.reduce((acc, b) => (b.count === 0 ? acc : acc + (b.count / n) * Math.abs(b.mean_score! / 100 - b.observed_rate!)), 0);
  return { methodology_version: version, outcomes: n, brier: round(brier), ece: round(ece), bins };
}

function binOf(b: number, items: { s: ScoredOutcome; y: 0 | 1 }[]): ReliabilityBin {
  const label = b === BINS - 1 ? '90-100' : `${b * 10}-${b * 10 + 9}`;
  if (items.length === 0)
    return { bin: label, count: 0, mean_score: null, observed_rate: null, mean_low: null, mean_high: null, inside_interval: null };
  const mean = (f: (x: { s: ScoredOutcome; y: 0 | 1 }) => number) => items.reduce((acc, x) => acc + f(x), 0) / items.length;
  const rate = mean((x) => x.y);
  const low = mean((x) => x.s.low);
  const high = mean((x) => x.s.high);
  return {
    bin: label,
    count: items.length,
    mean_score: round(mean((x) => x.s.score)),
    observed_rate: round(rate),
    mean_low: round(low),
    mean_high: round(high),
    inside_interval: rate * 100 >= low && rate * 100 <= high,
  };
}

function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

/** A reliability plot as SVG: mean score against observed rate per bin (dot area by count), with the diagonal. */
export function reliabilitySvg(r: CalibrationReport): string {
  const size = 320;
  const pad = 40;
  const span = size - 2 * pad;
  const x = (score: number) => pad + (score / 100) * span;
  const y = (rate: number) => size - pad - rate * span;
  const max = Math.max(1, ...r.bins.map((b) => b.count));
  const dots = r.bins
    .filter((b) => b.count > 0)
    .map(
      (b) =>
        `<circle cx="${x(b.mean_score!).toFixed(1)}" cy="${y(b.observed_rate!).toFixed(1)}" r="${(3 + 9 * Math.sqrt(b.count / max)).toFixed(1)}" fill="${b.inside_interval ? '#2b7' : '#d43'}"><title>${b.bin}: ${b.count} outcomes, rate ${b.observed_rate}</title></circle>`,
    );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">`,
    `<rect width="${size}" height="${size}" fill="white"/>`,
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(100)}" y2="${y(1)}" stroke="#999" stroke-dasharray="4 3"/>`,
    `<line x1="${pad}" y1="${size - pad}" x2="${size - pad}" y2="${size - pad}" stroke="black"/>`,
    `<line x1="${pad}" y1="${pad}" x2="${pad}" y2="${size - pad}" stroke="black"/>`,
    `<text x="${size / 2}" y="${size - 8}" text-anchor="middle" font-size="12">mean score</text>`,
    `<text x="12" y="${size / 2}" text-anchor="middle" font-size="12" transform="rotate(-90 12 ${size / 2})">observed rate</text>`,
    `<text x="${size / 2}" y="20" text-anchor="middle" font-size="13">${r.methodology_version}: Brier ${r.brier}, ECE ${r.ece}, n=${r.outcomes}</text>`,
    ...dots,
    '</svg>',
  ].join('\n');
}
