/** Exact percentiles (nearest rank) over every recorded sample; no histogram rounding. */
export interface Percentiles {
  count: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function percentiles(samples: ArrayLike<number>): Percentiles {
  const n = samples.length;
  if (n === 0) return { count: 0, mean: 0, p50: 0, p95: 0, p99: 0, max: 0 };
  const sorted = Float64Array.from(samples).sort();
  let sum = 0;
  for (let i = 0; i < n; i += 1) sum += sorted[i]!;
  const at = (p: number) => sorted[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))]!;
  return { count: n, mean: round(sum / n), p50: round(at(50)), p95: round(at(95)), p99: round(at(99)), max: round(sorted[n - 1]!) };
}

export function round(x: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** A growable Float64 sample store (a plain array of 10^6 numbers costs several times more). */
export class Samples {
  private buf = new Float64Array(1 << 16);
  length = 0;
  push(x: number): void {
    if (this.length === this.buf.length) {
      const next = new Float64Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.length++] = x;
  }
  view(): Float64Array {
    return this.buf.subarray(0, this.length);
  }
}
