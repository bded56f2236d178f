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
  const breaker = new CircuitBreaker(async (attempt: () => Promise<unknown>, failed: (result: unknown) => boolean, caller: AbortSignal) => {
    const result = await attempt();
    if (failed(result) && !caller.aborted) throw new Failed(result);
    return result;
  }, {
    // The attempt carries its own timeout; the breaker only counts.
    timeout: false,
    resetTimeout: opts.breakMs ?? BREAK_MS,
    volumeThreshold: FAILURES_TO_OPEN,
    errorThresholdPercentage: FAILED_SHARE_TO_OPEN,
    rollingCountTimeout: WINDOW_MS,
  });
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
