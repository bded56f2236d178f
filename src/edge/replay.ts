import type { Principal } from '../auth/index.js';
import { IN_FLIGHT_WINDOW_MS, judgeClash, requestHash } from '../platform/idempotency.js';
import { ServiceProblem, ValidationFailure } from '../platform/problems.js';
import type { HandlerContext, HandlerResult } from './handler.js';

/**
 * The `Idempotency-Key` header (the IETF draft's name, as Stripe uses it) on
 * the POSTs that create, under the one rule set of src/platform/idempotency.ts. The first call with a key runs and its answer is
 * kept; a retry with the same key and the same request gets that answer again
 * (`Idempotent-Replayed: true`), whatever happened to the first response on
 * the way; the same key with another request is refused (rule I17); a retry
 * while the first call is still running gets 409 with Retry-After.
 *
 * Not atomic with the handler's own transaction (that is POST /v1/inquiries's
 * `idempotency_key`, claimed inside it): a process that dies between the
 * commit and the answer being kept leaves a claim that a retry takes over
 * after IN_FLIGHT_WINDOW_MS and runs again. A failed call (an error answer) gives
 * its key back, so the retry runs afresh.
 */
export interface ReplayStore {
  claim(
    principal: Principal,
    operation: string,
    key: string,
    hash: string,
  ): Promise<'claimed' | { hash: string; status: number | null; response: unknown; ageMs: number }>;
  retake(principal: Principal, operation: string, key: string, hash: string, olderThanMs: number): Promise<boolean>;
  answer(principal: Principal, operation: string, key: string, status: number, response: unknown): Promise<void>;
  release(principal: Principal, operation: string, key: string): Promise<void>;
}

const KEY = /^[\x21-\x7e]{1,128}$/;

export async function withReplay(
  store: ReplayStore,
  ctx: HandlerContext,
  operation: string,
  run: () => Promise<HandlerResult>,
): Promise<HandlerResult> {
  const key = ctx.ex.headers['idempotency-key'];
  if (key === undefined || ctx.principal === null) return run();
  if (!KEY.test(key))
    throw new ValidationFailure([
      {
        loc: ['header', 'Idempotency-Key'],
        type: 'string_pattern_mismatch',
        msg: 'An idempotency key is 1 to 128 visible ASCII characters.',
      },
    ]);
  const principal = ctx.principal;
  // The key's scopes are part of the request: an answer replays only to a key with the same scopes (issue 40).
  const hash = requestHash({ params: ctx.params, query: ctx.query, body: ctx.body }, principal.scopes);
  const claimed = await store.claim(principal, operation, key, hash);
  if (claimed !== 'claimed') {
    const verdict = judgeClash({ hash: claimed.hash, answered: claimed.status !== null, ageMs: claimed.ageMs }, hash, [
      'header',
      'Idempotency-Key',
    ]);
    if (verdict === 'replay') return { status: claimed.status!, body: claimed.response, headers: { 'Idempotent-Replayed': 'true' } };
    // Abandoned: taken over, unless another retry took it over first.
    if (!(await store.retake(principal, operation, key, hash, IN_FLIGHT_WINDOW_MS))) {
      throw new ServiceProblem(
        'conflict',
        'A request with this idempotency key is still being answered; retry shortly.',
        {},
        { 'Retry-After': '1' },
      );
    }
  }
  let result: HandlerResult;
  try {
    result = await run();
  } catch (error) {
    await store.release(principal, operation, key).catch(() => undefined);
    throw error;
  }
  if ('streamed' in result) return result;
  await store.answer(principal, operation, key, result.status, result.body ?? null);
  return result;
}
