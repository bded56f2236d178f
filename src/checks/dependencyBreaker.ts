import CircuitBreaker from 'opossum';

/**
 * A circuit breaker (opossum) around one network dependency of the checks,
 * such as the RDAP service. When the dependency stops answering (refused
 * connections, timeouts, server errors), every inquiry that asked it would
 * wait out the network timeout, 2 s by default, on a payment's path, only to
 * record an absence. When at least half of the calls of the last WINDOW_MS
 * failed, and at least two did, the breaker opens (opossum's rule): for
 * BREAK_MS the dependency is not asked, its checks answer
 * their absence at once, and the plan answers them on the request path
 * (`unreachableReason`). Then one call is let through to try it again; a
 * success closes the breaker, a failure opens it for another BREAK_MS.
 *
 * Failures of the caller's own making (its deadline passed) are not counted.
 */
export const BREAK_MS = 30_000;
const WINDOW_MS = 10_000;
const FAILURES_TO_OPEN = 2;
const FAILED_SHARE_TO_OPEN = 50;

export const SKIPPED = Symbol('skipped: the dependency is not answering');

export interface DependencyBreaker {
  /** Runs `attempt` unless the breaker is open; `failed` says which results count against the dependency. */
  call<T>(attempt: () => Promise<T>, failed: (result: T) => boolean, caller: AbortSignal): Promise<T | typeof SKIPPED>;
  /** Whether calls are being skipped now. */
  open(): boolean;
}

class Failed<T> extends Error {
  constructor(readonly result: T) {
    super('the dependency failed');
  }
}

/** Told when calls start being skipped ('open') and when the dependency answers again ('closed'). */
export type BreakerListener = (state: 'open' | 'closed') => void;

export function createDependencyBreaker(opts: { breakMs?: number; onChange?: BreakerListener } = {}): DependencyBreaker {
  const breaker = new CircuitBreaker(
    async (attempt: () => Promise<unknown>, failed: (result: unknown) => boolean, caller: AbortSignal) => {
      const result = await attempt();
      if (failed(result) && !caller.aborted) throw new Failed(result);
      return result;
    },
    {
      // The attempt carries its own timeout; the breaker only counts.
      timeout: false,
      resetTimeout: opts.breakMs ?? BREAK_MS,
      volumeThreshold: FAILURES_TO_OPEN,
      errorThresholdPercentage: FAILED_SHARE_TO_OPEN,
      rollingCountTimeout: WINDOW_MS,
    },
  );
  if (opts.onChange) {
    const onChange = opts.onChange;
    breaker.on('open', () => onChange('open'));
    breaker.on('close', () => onChange('closed'));
  }
  return {
    async call<T>(attempt: () => Promise<T>, failed: (result: T) => boolean, caller: AbortSignal) {
      try {
        return (await breaker.fire(attempt, failed as (result: unknown) => boolean, caller)) as T;
      } catch (error) {
        if (error instanceof Failed) return error.result as T;
        if ((error as { code?: string }).code === 'EOPENBREAKER') return SKIPPED;
        throw error;
      }
    },
    open: () => breaker.opened,
  };
}

/**
 * Whether a dependency answers at all, asked before anyone needs it. A
 * breaker learns only from calls, so after a start with the dependency
 * unreachable the first inquiries would each wait out the network timeout
 * before it opened, while /healthz already knew. The probe is asked once when
 * it is made and then again, in the background, whenever its answer is older
 * than PROBE_TTL_MS and someone reads it; reading never waits. Like the DNS
 * resolver's canary (src/checks/resolverCanary.ts), a dependency the probe
 * found down is not asked: its checks answer their absence on the request
 * path (`unreachableReason`).
 */
export const PROBE_TTL_MS = 30_000;

export type ProbeAnswer = 'up' | 'down';

export interface ReachabilityProbe {
  /** The last answer, or null before the first; a stale one is kept while a fresh one is asked. */
  lastAnswer(): ProbeAnswer | null;
  /** Resolves with the answer being asked now (for tests and start-up). */
  settled(): Promise<ProbeAnswer>;
}

export function createReachabilityProbe(opts: {
  ask: () => Promise<ProbeAnswer>;
  ttlMs?: number;
  now?: () => number;
  /** Told when the answer changes from up (or none) to down and back. */
  onChange?: BreakerListener;
}): ReachabilityProbe {
  const now = opts.now ?? Date.now;
  const ttlMs = opts.ttlMs ?? PROBE_TTL_MS;
  let answer: ProbeAnswer | null = null;
  let askedAt = -Infinity;
  let inFlight: Promise<ProbeAnswer> | null = null;
  const refresh = (): Promise<ProbeAnswer> => {
    inFlight ??= opts
      .ask()
      .catch((): ProbeAnswer => 'down')
      .then((fresh) => {
        const before = answer;
        answer = fresh;
        askedAt = now();
        inFlight = null;
        if (fresh === 'down' && before !== 'down') opts.onChange?.('open');
        if (fresh === 'up' && before === 'down') opts.onChange?.('closed');
        return fresh;
      });
    return inFlight;
  };
  void refresh();
  return {
    lastAnswer() {
      if (now() - askedAt >= ttlMs) void refresh();
      return answer;
    },
    settled: () => inFlight ?? Promise.resolve(answer ?? 'down'),
  };
}
