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
