/**
 * The Beta quantile of METHODOLOGY.md section 3, computed by the fixed
 * procedure the methodology prescribes so that a published interval can be
 * reconstructed bit for bit: Lanczos log-gamma, the regularised incomplete
 * beta by a modified-Lentz continued fraction (symmetric form above
 * x = (a+1)/(a+b+2)), inverted by plain bisection on [0, 1] until the midpoint
 * equals an end.
 *
 * Only IEEE-754 arithmetic and Math.log / Math.log1p / Math.exp are used (V8
 * ships its own fdlibm port of these, so the bits do not depend on the host's
 * libm). No Math.sin: the reflection formula is avoided on purpose.
 *
 * The methodology does not pin the constants below; they are part of
 * `trust-method/1` from now on and changing any of them is a new methodology
 * version, because it can move an interval bound across an integer.
 */

/** Lanczos approximation, g = 7, n = 9 (Godfrey): relative error about 1e-15. */
const LANCZOS_G = 7;
const LANCZOS_COEFFICIENTS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
  -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
] as const;
const HALF_LOG_TWO_PI = 0.9189385332046728;

/** Continued fraction stops when a full step changes the value by less than this. */
const CF_EPSILON = 1e-15;
/** Iteration cap: convergence needs O(sqrt(max(a, b))) steps; 1000 covers a, b up to ~1e5. */
const CF_MAX_ITERATIONS = 1000;
/** Lentz's guard against dividing by an exact zero. */
const CF_TINY = 1e-300;

/** ln Γ(x) for x > 0. Below 0.5 uses Γ(x) = Γ(x + 1) / x, where Lanczos is accurate. */
export function logGamma(x: number): number {
  if (x < 0.5) return logGamma(x + 1) - Math.log(x);
  const z = x - 1;
  let sum = LANCZOS_COEFFICIENTS[0];
  for (let i = 1; i < LANCZOS_COEFFICIENTS.length; i++) {
    sum += (LANCZOS_COEFFICIENTS[i] as number) / (z + i);
  }
  const t = z + LANCZOS_G + 0.5;
  return HALF_LOG_TWO_PI + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** Continued fraction for I_x(a, b) (Numerical Recipes `betacf`), modified Lentz. */
function betaContinuedFraction(x: number, a: number, b: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < CF_TINY) d = CF_TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= CF_MAX_ITERATIONS; m++) {
    const m2 = 2 * m;
    // Even step.
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < CF_TINY) d = CF_TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < CF_TINY) c = CF_TINY;
    d = 1 / d;
    h *= d * c;
    // Odd step.
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < CF_TINY) d = CF_TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < CF_TINY) c = CF_TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < CF_EPSILON) break;
  }
  return h;
}

/** Regularised incomplete beta I_x(a, b), for a, b > 0. */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const logFront = a * Math.log(x) + b * Math.log1p(-x) - (logGamma(a) + logGamma(b) - logGamma(a + b));
  const front = Math.exp(logFront);
  // The fraction converges fast only below the mean-ish point; above it, use
  // I_x(a, b) = 1 - I_{1-x}(b, a). "Above" is strict: the threshold itself stays direct.
  if (x <= (a + 1) / (a + b + 2)) {
    return (front * betaContinuedFraction(x, a, b)) / a;
  }
  return 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

/**
 * Q(p; a, b): the x in [0, 1] with I_x(a, b) = p, by bisection. The loop ends
 * when the midpoint of [lo, hi] equals one of its ends, i.e. the two ends are
 * adjacent doubles; that midpoint is the answer. No tolerance is involved, so
 * the result is the same on every platform.
 */
export function betaQuantile(p: number, a: number, b: number): number {
  if (!(a > 0) || !(b > 0) || !Number.isFinite(a) || !Number.isFinite(b)) {
    throw new RangeError(`betaQuantile: shape parameters must be finite and > 0 (a=${a}, b=${b})`);
  }
  if (!(p >= 0 && p <= 1)) {
    throw new RangeError(`betaQuantile: probability must be in [0, 1] (p=${p})`);
  }
  let lo = 0;
  let hi = 1;
  for (;;) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) return mid;
    if (incompleteBeta(mid, a, b) < p) lo = mid;
    else hi = mid;
  }
}
