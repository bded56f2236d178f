import { FLOOD_REFUSALS_TO_CLOSE, FLOOD_WINDOW_MS, FRAME_BURST, FRAMES_PER_SECOND } from './limits.js';

/**
 * Frames per second of one session: a token bucket (FRAMES_PER_SECOND
 * sustained, FRAME_BURST at once), in-process because a session's socket
 * lives in exactly one process. It also counts refusals in fixed windows, so
 * the socket can tell an honest overshoot (a few refusals) from a flood
 * (FLOOD_REFUSALS_TO_CLOSE within FLOOD_WINDOW_MS), which it closes with 1008.
 */
export interface FrameBucket {
  /** Takes one token; false means the frame is refused `rate_limited`. */
  take(): boolean;
  /** True once this window's refusals reach the flood threshold. */
  flooding(): boolean;
}

export function createFrameBucket(now: () => number = Date.now, opts = { perSecond: FRAMES_PER_SECOND, burst: FRAME_BURST }): FrameBucket {
  let tokens = opts.burst;
  let refilledAt = now();
  let windowStart = refilledAt;
  let refusals = 0;
  return {
    take() {
      const t = now();
      tokens = Math.min(opts.burst, tokens + ((t - refilledAt) / 1000) * opts.perSecond);
      refilledAt = t;
      if (tokens >= 1) {
        tokens -= 1;
        return true;
      }
      if (t - windowStart >= FLOOD_WINDOW_MS) {
        windowStart = t;
        refusals = 0;
      }
      refusals += 1;
      return false;
    },
    flooding: () => refusals >= FLOOD_REFUSALS_TO_CLOSE,
  };
}

// Tenants whose budget is tracked at once; a bucket left untouched refills to full, so dropping the oldest loses nothing.
const MAX_TENANT_BUCKETS = 10_000;

/**
 * The frame budget of one tenant's sessions together (issue 40): one session
 * keeps to FRAMES_PER_SECOND, but a tenant with many sessions could still
 * take the whole process, so every accepted frame also takes from its
 * tenant's bucket (`perSecond` sustained, bursts of twice as many). In-process,
 * like the session's own bucket: a tenant's sockets on another edge process
 * draw on that process's budget (docs/sessions.md).
 */
export function createTenantFrameBudget(perSecond: number, now: () => number = Date.now): (tenantId: string) => boolean {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const burst = perSecond * 2;
  return (tenantId) => {
    const t = now();
    let b = buckets.get(tenantId);
    if (!b) {
      if (buckets.size >= MAX_TENANT_BUCKETS) buckets.delete(buckets.keys().next().value!);
      b = { tokens: burst, at: t };
      buckets.set(tenantId, b);
    }
    b.tokens = Math.min(burst, b.tokens + ((t - b.at) / 1000) * perSecond);
    b.at = t;
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  };
}
