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

/**
 * An absence's reason, led by the id of the check that could not answer
 * (`rdap_domain_age: The registration registry did not answer in time.`):
 * two checks' absences never read the same, and the id is the one the
 * published catalogue lists. Ids never hold a source's name (a provider's
 * description is refused when they do).
 */
export function reasonOf(checkId: string, reason: string): string {
  return reason.startsWith(`${checkId}: `) ? reason : `${checkId}: ${reason}`;
}

/** The result with each absence naming its check; the same object when there is none (nearly always). */
function withCheckNamed(def: CheckDefinition, result: CheckResult): CheckResult {
  if (result.absences.length === 0) return result;
  return { signals: result.signals, absences: result.absences.map((a) => ({ ...a, reason: reasonOf(def.id, a.reason) })) };
}

const STOPPED = Symbol('stopped');

/**
 * After the abort, a check that honours its signal gets this long to return
 * its own, more specific absence ("the provider did not answer in time")
 * before it is abandoned with the generic one.
 */
export const ABORT_GRACE_MS = 50;

export async function runCheck(def: CheckDefinition, ctx: CheckContext): Promise<CheckResult> {
  return await runCheckNowOrLater(def, ctx);
}

/**
 * runCheck for a caller that runs many checks in a row: the answer itself
 * when the check gave it at once, so the caller awaits only what is pending.
 *
 * An inline check is pure computation and nearly always answers before it
 * returns; a timer could not interrupt that work anyway (it fires only after
 * the check returns). So an inline check's clock (controller, timers,
 * listeners, which cost more than most checks) starts only when it reads its
 * signal or returns a promise. A worker check's clock starts before it runs.
 */
export function runCheckNowOrLater(def: CheckDefinition, ctx: CheckContext): CheckResult | Promise<CheckResult> {
  const outcome = runUnnamed(def, ctx);
  return outcome instanceof Promise ? outcome.then((r) => withCheckNamed(def, r)) : withCheckNamed(def, outcome);
}

function runUnnamed(def: CheckDefinition, ctx: CheckContext): CheckResult | Promise<CheckResult> {
  if (ctx.signal.aborted) return timedOut(ctx);
  // Module-level helpers and a class, not closures: the loader keeps function names, which
  // costs a property definition for every closure made, and this runs for every check.
  const clock = new CheckClock(def.timeoutMs, ctx.signal);
  // The clock's promise settles when the check is given up on; here only its timer is wanted.
  if (def.runs !== 'inline') void clock.start();
  let outcome: CheckResult | Promise<CheckResult>;
  try {
    outcome = def.run(new ClockedContext(ctx, clock));
  } catch {
    clock.stop();
    return clock.aborted() ? timedOut(ctx) : failed(ctx);
  }
  if (outcome instanceof Promise) return settle(outcome, clock, ctx);
  clock.stop();
  return isCheckResult(outcome) ? outcome : failed(ctx);
}

function timedOut(ctx: CheckContext): CheckResult {
  return { signals: [], absences: [absenceFor(ctx, 'timeout', TIMEOUT_REASON)] };
}

function failed(ctx: CheckContext): CheckResult {
  return { signals: [], absences: [absenceFor(ctx, 'error', ERROR_REASON)] };
}

async function settle(outcome: Promise<CheckResult>, clock: CheckClock, ctx: CheckContext): Promise<CheckResult> {
  try {
    const settled = await Promise.race([outcome, clock.start()]);
    if (settled === STOPPED) return timedOut(ctx);
    return isCheckResult(settled) ? settled : failed(ctx);
  } catch {
    return clock.aborted() ? timedOut(ctx) : failed(ctx);
  } finally {
    clock.stop();
  }
}

/** The caller's context, with the check's own signal in place of the caller's, made on first read. */
class ClockedContext implements CheckContext {
  readonly presentation: CheckContext['presentation'];
  readonly subject: CheckContext['subject'];
  readonly claim?: CheckContext['claim'];
  readonly defaultCountry?: CheckContext['defaultCountry'];
  readonly now: CheckContext['now'];
  readonly env: CheckContext['env'];

  constructor(
    ctx: CheckContext,
    private readonly clock: CheckClock,
  ) {
    this.presentation = ctx.presentation;
    this.subject = ctx.subject;
    if (ctx.claim !== undefined) this.claim = ctx.claim;
    if (ctx.defaultCountry !== undefined) this.defaultCountry = ctx.defaultCountry;
    this.now = ctx.now;
    this.env = ctx.env;
  }

  get signal(): AbortSignal {
    return this.clock.signal();
  }
}

/** A check's timeout: its own signal, aborted at the timeout or with the caller's, and the moment it is given up on. */
class CheckClock {
  private controller: AbortController | undefined;
  private stopped: Promise<typeof STOPPED> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private graceTimer: NodeJS.Timeout | undefined;
  private forwardAbort: (() => void) | undefined;

  constructor(
    private readonly timeoutMs: number,
    private readonly outer: AbortSignal,
  ) {}

  signal(): AbortSignal {
    void this.start();
    return this.controller!.signal;
  }

  /** Starts the clock once; resolves to STOPPED when the check is to be given up on. */
  start(): Promise<typeof STOPPED> {
    if (this.stopped !== undefined) return this.stopped;
    const controller = new AbortController();
    this.controller = controller;
    this.stopped = new Promise<typeof STOPPED>((resolve) => {
      controller.signal.addEventListener(
        'abort',
        () => {
          this.graceTimer = setTimeout(() => resolve(STOPPED), ABORT_GRACE_MS);
        },
        { once: true },
      );
    });
    this.forwardAbort = () => controller.abort(this.outer.reason);
    this.outer.addEventListener('abort', this.forwardAbort, { once: true });
    this.timer = setTimeout(() => controller.abort(new Error('check timeout')), this.timeoutMs);
    return this.stopped;
  }

  aborted(): boolean {
    return this.controller?.signal.aborted ?? false;
  }

  stop(): void {
    if (this.controller === undefined) return;
    clearTimeout(this.timer);
    clearTimeout(this.graceTimer);
    if (this.forwardAbort !== undefined) this.outer.removeEventListener('abort', this.forwardAbort);
  }
}

function isCheckResult(value: unknown): value is CheckResult {
  if (typeof value !== 'object' || value === null) return false;
  const { signals, absences } = value as Partial<CheckResult>;
  return Array.isArray(signals) && Array.isArray(absences);
}
