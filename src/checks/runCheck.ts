import { absenceFor } from './evidence.js';
import type { CheckContext, CheckDefinition, CheckResult } from './types.js';

/**
 * Runs one check so that it can only ever produce signals and absences:
 * its timeout is enforced here (the check gets an AbortSignal that fires at
 * its timeout or the caller's deadline, whichever is first, and is abandoned
 * shortly after if it ignores it), and anything it throws becomes an `error` absence.
 * Reasons are fixed wording, never the thrown message, because a message can
 * carry a host name, a URL or a provider's words.
 */
export const TIMEOUT_REASON = 'The check did not answer in time.';
export const ERROR_REASON = 'The check could not complete.';

const STOPPED = Symbol('stopped');

/**
 * After the abort, a check that honours its signal gets this long to return
 * its own, more specific absence ("the provider did not answer in time")
 * before it is abandoned with the generic one.
 */
export const ABORT_GRACE_MS = 50;

export async function runCheck(def: CheckDefinition, ctx: CheckContext): Promise<CheckResult> {
  const timedOut = (): CheckResult => ({ signals: [], absences: [absenceFor(ctx, 'timeout', TIMEOUT_REASON)] });
  const failed = (): CheckResult => ({ signals: [], absences: [absenceFor(ctx, 'error', ERROR_REASON)] });
  if (ctx.signal.aborted) return timedOut();

  const controller = new AbortController();
  let graceTimer: NodeJS.Timeout | undefined;
  const stopped = new Promise<typeof STOPPED>((resolve) => {
    controller.signal.addEventListener('abort', () => {
      graceTimer = setTimeout(() => resolve(STOPPED), ABORT_GRACE_MS);
    }, { once: true });
  });
  const forwardAbort = (): void => controller.abort(ctx.signal.reason);
  ctx.signal.addEventListener('abort', forwardAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new Error('check timeout')), def.timeoutMs);
  try {
    const running = Promise.resolve().then(() => def.run({ ...ctx, signal: controller.signal }));
    const outcome = await Promise.race([running, stopped]);
    if (outcome === STOPPED) return timedOut();
    return isCheckResult(outcome) ? outcome : failed();
  } catch {
    return controller.signal.aborted ? timedOut() : failed();
  } finally {
    clearTimeout(timer);
    clearTimeout(graceTimer);
    ctx.signal.removeEventListener('abort', forwardAbort);
  }
}

function isCheckResult(value: unknown): value is CheckResult {
  if (typeof value !== 'object' || value === null) return false;
  const { signals, absences } = value as Partial<CheckResult>;
  return Array.isArray(signals) && Array.isArray(absences);
}
