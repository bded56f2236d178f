import { newRowId } from '../platform/ids.js';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { AuditWriter } from '../audit/index.js';
import type { Authenticator, Principal } from '../auth/index.js';
import { auditInsert, insertAudit } from '../audit/index.js';
import { readBody, streamBody } from './body.js';
import { withReplay, type ReplayStore } from './replay.js';
import { send, type Exchange } from './exchange.js';
import { auditRecord, type BoundRoute, type HandlerContext, type HandlerResult } from './handler.js';
import { classifyError } from './errorMapping.js';
import type { ValidationItem } from '../platform/problems.js';
import { PROBLEM_TYPE_BASE, ServiceProblem, ValidationFailure } from '../platform/problems.js';
import { statusOf } from '../platform/outcomes.js';
import { SchedulerFull, type Scheduler } from '../platform/scheduler.js';
import { withSchedulerScope } from '../platform/unitContext.js';
import { allowedOriginHeaders, isSameOrigin, OPEN_ORIGIN_HEADERS, preflightHeaders } from './cors.js';
import { rateLimitHeaders, type RateLimiter } from './rateLimit.js';
import { NO_KEY_PREFIX, presentedPrefix, type AddressGuard } from './addressGuard.js';
import { clientAddressOf } from './clientAddress.js';
import type { Router } from './router.js';
import { parseBody, parseParams, parseQuery } from './validate.js';
import { encodedFor, etagOf, matchesIfNoneMatch } from './representation.js';
import type { OperationSpec } from '../schemas/operation.js';
import type { StreamTickets } from '../auth/index.js';
import {
  ACCESS_TOKEN_DEPRECATION,
  credentialsOf,
  principalOfGrant,
  STREAM_OF_OPERATION,
  type QueryKeyPolicy,
} from './streamCredentials.js';

/**
 * The one path every HTTP call takes: route -> key -> scope -> rate limit ->
 * path, query and body validation -> handler -> exactly one audit row ->
 * response with its audit id. Errors are mapped once, here.
 */
export interface PipelineDeps {
  router: Router<BoundRoute>;
  authenticator: Authenticator;
  rateLimiter: RateLimiter;
  auditWriter: AuditWriter;
  log: Logger;
  maxBodyBytes: number;
  isDraining: () => boolean;
  /** Told when a call starts and when it has been answered, so a drain can wait for calls in flight. */
  calls?: { begin(): void; end(): void };
  /** Keeps the answers of Idempotency-Key calls (replayable operations only). */
  replays?: ReplayStore;
  /** Told every JSON answer before it is sent, to check it against the document (TAS_CHECK_RESPONSES). */
  checkAnswer?: (operationId: string, status: number, contentType: string, body: string | Buffer) => void;
  /** Whether the key's tenant lets pages of this origin call (its policy's allowed_origins); none when absent. */
  originAllowed?: (principal: Principal, origin: string) => Promise<boolean>;
  /** Whether event streams take an API key in the URL (`?access_token=`, TAS_STREAM_ACCESS_TOKEN); refused by default. */
  queryKeys?: QueryKeyPolicy;
  /** Counts failed authentications per client address and refuses an address over its limit before any key look-up. */
  addressGuard?: AddressGuard;
  /** The proxies whose X-Forwarded-For names the client (TAS_TRUSTED_PROXIES); none by default. */
  trustedProxies?: ReadonlySet<string>;
  /** A second bucket per tenant and mode, beside the per-key one: minting keys does not multiply a tenant's share. */
  tenantRateLimiter?: RateLimiter;
  /** Adds to a 422 item what the caller can do about it (where registered values are listed), given by the root. */
  validationHint?: (item: ValidationItem) => ValidationItem;
  /** The process's one fair scheduler (issue 48): a keyed call's handler runs as a unit of its tenant; none: at once. */
  scheduler?: Scheduler;
  /** Redeems `?ticket=` on event streams; a ticket is refused when absent. */
  streamTickets?: {
    redeem: StreamTickets['redeem'];
    /** Whether the key that minted a ticket is still neither revoked nor expired. */
    keyActive: (principal: Principal) => Promise<boolean>;
  };
}

const BODY_METHODS = new Set(['POST', 'PATCH']);
// PUT carries bytes (material uploads), read as a stream with its own ceiling, never held whole.
const STREAM_METHODS = new Set(['PUT']);

/** Calls whose audit row was written by the handler itself (in its transaction, or before a stream). */
const auditedInTx = new WeakSet<HandlerContext>();
/** The RateLimit header fields of a keyed call, sent on its answer whatever it is. */
const rateHeaders = new WeakMap<HandlerContext, Record<string, string>>();

export function createPipeline(deps: PipelineDeps): (ex: Exchange) => void {
  return (ex) => {
    // uWS delivers body chunks only to a reader attached before the first await.
    const bodyPromise = BODY_METHODS.has(ex.method) ? readBody(ex, deps.maxBodyBytes) : null;
    bodyPromise?.catch(() => undefined);
    const bodyStream = STREAM_METHODS.has(ex.method) ? streamBody(ex, streamLimit(deps.router, ex)) : undefined;
    deps.calls?.begin();
    handle(deps, ex, bodyPromise, bodyStream)
      .catch((error) => {
        deps.log.error({ err: error }, 'pipeline failure');
        send(ex, { status: 500, headers: { 'content-type': 'text/plain' }, body: 'internal error' }, true);
      })
      .finally(() => deps.calls?.end());
  };
}

/** The most bytes a PUT may stream: its operation's own limit (OperationSpec.bytesBody); nothing where it takes no bytes. */
function streamLimit(router: Router<BoundRoute>, ex: Exchange): number {
  const found = router.lookup(ex.method, ex.path);
  return found.kind === 'match' ? (found.match.route.op.bytesBody?.maxBytes ?? 0) : 0;
}

async function handle(
  deps: PipelineDeps,
  ex: Exchange,
  bodyPromise: Promise<Buffer> | null,
  bodyStream?: AsyncIterable<Buffer>,
): Promise<void> {
  if (ex.method === 'OPTIONS') return answerOptions(deps, ex);
  const started = performance.now();
  const ctx = newContext(ex);
  if (bodyStream) ctx.bodyStream = bodyStream;
  let result: HandlerResult;
  try {
    result = await run(deps, ctx, bodyPromise);
  } catch (error) {
    // A handler that failed after auditInTx rolled that row back with its transaction.
    auditedInTx.delete(ctx);
    result = errorResult(deps, ctx, error);
  }
  if ('streamed' in result) {
    logCall(deps, ctx, 200, started);
    return;
  }
  result = await ensureAudited(deps, ctx, result);
  respond(ctx, result, deps.checkAnswer);
  logCall(deps, ctx, result.status, started);
}

// A caller's own request id is kept when it is a plain token of reasonable length
// (it goes into logs and the audit row); anything else is replaced by a fresh one.
const CALLER_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

function requestIdOf(ex: Exchange): string {
  const given = ex.headers['x-request-id']?.trim();
  return given !== undefined && CALLER_REQUEST_ID.test(given) ? given : randomUUID();
}

function newContext(ex: Exchange): HandlerContext {
  const ctx: HandlerContext = {
    ex,
    reqId: requestIdOf(ex),
    auditId: newRowId(),
    occurredAt: new Date().toISOString(),
    principal: null,
    params: {},
    query: {},
    body: undefined,
    audit: {
      action: `${ex.method} unknown`,
      target_kind: null,
      target_id: null,
      purpose: null,
      rule: null,
      cost_amount: null,
      cost_currency: null,
    },
    auditInTx: () => Promise.resolve(),
    auditRow: () => null,
    auditRecord: () => null,
    auditNow: () => Promise.resolve(),
  };
  return ctx;
}

async function run(deps: PipelineDeps, ctx: HandlerContext, bodyPromise: Promise<Buffer> | null): Promise<HandlerResult> {
  if (deps.isDraining())
    throw new ServiceProblem('unavailable', 'The service is shutting down; retry on another instance.', {}, { 'Retry-After': '1' });
  const found = deps.router.lookup(ctx.ex.method, ctx.ex.path);
  if (found.kind === 'not-found') throw new ServiceProblem('not-found', 'No such resource.');
  if (found.kind === 'method-not-allowed') {
    throw new ServiceProblem('method-not-allowed', `Allowed: ${found.allow.join(', ')}.`, {}, { Allow: found.allow.join(', ') });
  }
  const { route, params } = found.match;
  const op = route.op;
  ctx.audit.action = op.operationId;
  wireAudit(deps, ctx);
  const { authorization, rawQuery, ticket, deprecated } = credentialsOf(op, ctx.ex, deps.queryKeys ?? 'refuse');
  if (op.auth !== 'open') refuseBlockedAddress(deps, ctx, authorization);
  if (op.auth !== 'open' && ticket !== undefined) await authoriseTicket(deps, ctx, op, params, ticket);
  else if (op.auth !== 'open') await authorise(deps, ctx, op.auth, authorization);
  await decideOrigin(deps, ctx, op);
  if (deprecated) ctx.ex.extraHeaders = { ...ctx.ex.extraHeaders, Deprecation: ACCESS_TOKEN_DEPRECATION };
  // The body's bytes arrive over the network before the tenant's turn is taken; reading them is a unit's work.
  const rawBody = op.body && bodyPromise ? await bodyPromise : null;
  const parse = () => {
    try {
      ctx.params = parseParams(op, params);
      ctx.query = parseQuery(op, rawQuery);
      if (op.body) ctx.body = parseBody(op, ctx.ex, rawBody);
    } catch (error) {
      if (error instanceof ValidationFailure && route.mapValidation) throw route.mapValidation(error);
      throw error;
    }
  };
  if (!route.handler) {
    throw new ServiceProblem(
      'not-implemented',
      `${op.method.toUpperCase()} ${op.path} is a published contract whose handler has not shipped yet.`,
    );
  }
  // HEAD on an event stream: the head a GET would open with, without opening the stream.
  if (ctx.ex.method === 'HEAD' && op.success.contentType === 'text/event-stream') {
    return { status: 200, headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' } };
  }
  const handler = route.handler;
  const replays = op.replayable ? deps.replays : undefined;
  const handle = replays ? () => withReplay(replays, ctx, op.operationId, () => handler(ctx)) : () => handler(ctx);
  return scheduled(deps, ctx, op, () => {
    parse();
    return handle();
  });
}

/**
 * A keyed call's handling is a unit of its tenant's work (issue 48): it waits
 * for its tenant's turn in the process's scheduler, and a tenant with too many
 * waiting is told when its share will have served them. Open calls have no
 * tenant and run at once.
 */
async function scheduled(
  deps: PipelineDeps,
  ctx: HandlerContext,
  op: OperationSpec,
  invoke: () => Promise<HandlerResult>,
): Promise<HandlerResult> {
  if (!deps.scheduler) return invoke();
  // No tenant yet (an upload URL's PUT): the handler may name it later and take its turns then (asTenantUnit).
  if (ctx.principal === null) return withSchedulerScope(deps.scheduler, invoke);
  try {
    return await deps.scheduler.run(ctx.principal.tenantId, `http:${op.operationId}`, invoke);
  } catch (error) {
    if (!(error instanceof SchedulerFull)) throw error;
    const wait = error.retryAfterSeconds;
    throw new ServiceProblem(
      'rate-limited',
      "This tenant's calls are waiting beyond its share of the service; retry after the time given.",
      { retry_after: wait },
      { 'Retry-After': String(wait) },
    );
  }
}

/**
 * OPTIONS names no operation and carries no key: a CORS preflight is answered
 * with what the path takes (src/edge/cors.ts), anything else with `Allow`.
 * Neither is audited, like a framing refusal: no operation, no principal.
 */
function answerOptions(deps: PipelineDeps, ex: Exchange): void {
  const found = deps.router.lookup('OPTIONS', ex.path);
  if (found.kind !== 'method-not-allowed') {
    send(ex, {
      status: 404,
      headers: { 'Content-Type': 'application/problem+json' },
      body: JSON.stringify({ type: `${PROBLEM_TYPE_BASE}not-found`, title: 'Not Found', status: 404, detail: 'No such resource.' }),
    });
    return;
  }
  const methods = [...found.allow, 'OPTIONS'];
  const origin = ex.headers.origin;
  const preflight = origin !== undefined && ex.headers['access-control-request-method'] !== undefined;
  send(ex, { status: 204, headers: preflight ? preflightHeaders(origin, methods) : { Allow: methods.join(', ') } });
}

/**
 * A call from a page of another site: open operations may be read from
 * anywhere; a keyed one runs only when the key's tenant lists the origin
 * (rule O01), checked before anything runs. Same-origin calls and calls
 * without an Origin (servers, curl) are untouched.
 */
async function decideOrigin(deps: PipelineDeps, ctx: HandlerContext, op: OperationSpec): Promise<void> {
  const origin = ctx.ex.headers.origin;
  if (origin === undefined || isSameOrigin(origin, ctx.ex.headers.host)) return;
  if (op.auth === 'open') {
    ctx.ex.extraHeaders = { ...ctx.ex.extraHeaders, ...OPEN_ORIGIN_HEADERS };
    return;
  }
  const allowed = ctx.principal !== null && deps.originAllowed !== undefined && (await deps.originAllowed(ctx.principal, origin));
  if (!allowed) {
    throw new ServiceProblem('forbidden', "This page's origin is not among the tenant's allowed_origins (rule O01).", { rule: 'O01' });
  }
  ctx.ex.extraHeaders = { ...ctx.ex.extraHeaders, ...allowedOriginHeaders(origin) };
}

const clientAddress = (deps: PipelineDeps, ctx: HandlerContext) =>
  clientAddressOf(ctx.ex.peer, ctx.ex.headers['x-forwarded-for'], deps.trustedProxies ?? NO_PROXIES);
const NO_PROXIES: ReadonlySet<string> = new Set();

const addressLimited = (wait: number) =>
  new ServiceProblem(
    'rate-limited',
    'Too many calls without a valid key from this address.',
    { retry_after: wait },
    { 'Retry-After': String(wait) },
  );

/**
 * The limit before authentication: an address, or an address with the key
 * prefix this call presents, over its failures waits, and no key is looked up
 * meanwhile, unless the call's key is known good here (issue 48): behind one
 * address (a proxy not named as trusted) other clients' failures must not
 * lock out a client whose key this process verified lately.
 */
function refuseBlockedAddress(deps: PipelineDeps, ctx: HandlerContext, authorization: string | undefined): void {
  const wait = deps.addressGuard?.blocked(clientAddress(deps, ctx), presentedPrefix(authorization)) ?? null;
  if (wait !== null && !deps.authenticator.knownGood(authorization)) throw addressLimited(wait);
}

async function authorise(deps: PipelineDeps, ctx: HandlerContext, need: string, authorization: string | undefined): Promise<void> {
  const outcome = await deps.authenticator.authenticate(authorization);
  if (!outcome.ok) {
    const wait = (await deps.addressGuard?.failed(clientAddress(deps, ctx), presentedPrefix(authorization)).catch(() => null)) ?? null;
    if (wait !== null) throw addressLimited(wait);
    const challenge = outcome.reason === 'missing' ? 'Bearer' : 'Bearer error="invalid_token"';
    throw new ServiceProblem('unauthorized', AUTH_DETAIL[outcome.reason], {}, { 'WWW-Authenticate': challenge });
  }
  await admit(deps, ctx, need, outcome.principal);
}

/** A stream opened with a one-time ticket (issue 40): the key that minted it, if it is still valid. */
async function authoriseTicket(
  deps: PipelineDeps,
  ctx: HandlerContext,
  op: OperationSpec,
  params: Record<string, string>,
  ticket: string,
): Promise<void> {
  const stream = STREAM_OF_OPERATION[op.operationId];
  const grant = stream && deps.streamTickets ? await deps.streamTickets.redeem(ticket, stream.kind, params[stream.param] ?? '') : null;
  if (grant === null) {
    const wait = (await deps.addressGuard?.failed(clientAddress(deps, ctx), NO_KEY_PREFIX).catch(() => null)) ?? null;
    if (wait !== null) throw addressLimited(wait);
    throw new ServiceProblem(
      'unauthorized',
      'The stream ticket is unknown, already used, expired or for another stream.',
      {},
      { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
    );
  }
  const principal = principalOfGrant(grant);
  if (!(await deps.streamTickets!.keyActive(principal))) {
    throw new ServiceProblem('unauthorized', AUTH_DETAIL.revoked, {}, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
  }
  await admit(deps, ctx, op.auth, principal);
}

/** The scope and the rate limit, for a principal however it was established. */
async function admit(deps: PipelineDeps, ctx: HandlerContext, need: string, principal: Principal): Promise<void> {
  ctx.principal = principal;
  if (need !== 'key' && !principal.scopes.has(need)) {
    // RFC 6750 3.1: the challenge names the error and the scope the call needs.
    throw new ServiceProblem(
      'forbidden',
      `This key lacks the '${need}' scope.`,
      { missing_scope: need },
      { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${need}"` },
    );
  }
  // The key's bucket and its tenant's, asked at once: the second costs no extra wait.
  const [decision, tenant] = await Promise.all([
    deps.rateLimiter.take(principal.keyId),
    deps.tenantRateLimiter?.take(`${principal.tenantId}:${principal.mode}`) ?? null,
  ]);
  rateHeaders.set(ctx, rateLimitHeaders(decision));
  if (decision.wait !== null) {
    throw new ServiceProblem(
      'rate-limited',
      'This key is over its rate limit.',
      { retry_after: decision.wait },
      { 'Retry-After': String(decision.wait) },
    );
  }
  if (tenant !== null && tenant.wait !== null) {
    throw new ServiceProblem(
      'rate-limited',
      'This tenant is over its rate limit (all of its keys together).',
      { retry_after: tenant.wait },
      { 'Retry-After': String(tenant.wait) },
    );
  }
}

const AUTH_DETAIL = {
  missing: 'Send Authorization: Bearer <API key>.',
  malformed: 'The API key is not well formed (rule I11).',
  unknown: 'The API key is not recognised (rule I11).',
  revoked: 'The API key has been revoked.',
  expired: 'The API key has expired.',
} as const;

function wireAudit(deps: PipelineDeps, ctx: HandlerContext): void {
  // A command says how its call ended; the row records the status the edge answers that outcome with.
  ctx.auditInTx = async (tx, outcome) => {
    await insertAudit(tx, auditRecord(ctx, statusOf(outcome)));
    auditedInTx.add(ctx);
  };
  ctx.auditRow = (outcome) => {
    auditedInTx.add(ctx);
    return auditInsert(auditRecord(ctx, statusOf(outcome)));
  };
  ctx.auditRecord = (outcome) => {
    auditedInTx.add(ctx);
    return auditRecord(ctx, statusOf(outcome));
  };
  ctx.auditNow = async (outcome) => {
    const where = await deps.auditWriter.append(auditRecord(ctx, statusOf(outcome)));
    if (where === 'spool')
      throw new ServiceProblem('engine-failed', 'The service could not record this call; it was kept and will be recorded.');
    auditedInTx.add(ctx);
  };
}

/** Writes the audit row when the handler did not write it in its own transaction. */
async function ensureAudited(deps: PipelineDeps, ctx: HandlerContext, result: Exclude<HandlerResult, { streamed: true }>) {
  if (auditedInTx.has(ctx)) return result;
  try {
    const where = await deps.auditWriter.append(auditRecord(ctx, result.status));
    if (where === 'db' || result.status >= 500) return result;
  } catch (error) {
    deps.log.error({ err: error, auditId: ctx.auditId }, 'audit row could not be kept');
  }
  // The row is only in the local spool: the caller hears 502 with the audit id of the attempt.
  return errorResult(deps, ctx, new ServiceProblem('engine-failed', 'The service could not reach its database; retry once.'));
}

function errorResult(deps: PipelineDeps, ctx: HandlerContext, error: unknown): Exclude<HandlerResult, { streamed: true }> {
  if (error instanceof ValidationFailure) {
    if (error.rule) ctx.audit.rule = error.rule;
    return { status: 422, body: { detail: deps.validationHint ? error.detail.map(deps.validationHint) : error.detail } };
  }
  const problem = error instanceof ServiceProblem ? error : classifyError(error);
  if (!(error instanceof ServiceProblem)) deps.log.error({ err: error, reqId: ctx.reqId, auditId: ctx.auditId }, 'request failed');
  if (typeof problem.extra.rule === 'string') ctx.audit.rule = problem.extra.rule;
  return { status: problem.status, body: problem.toBody(ctx.auditId), headers: problem.headers, contentType: 'application/problem+json' };
}

function respond(ctx: HandlerContext, r: Exclude<HandlerResult, { streamed: true }>, checkAnswer?: PipelineDeps['checkAnswer']): void {
  const headers: Record<string, string> = {
    'X-Service-Audit-Id': ctx.auditId,
    'X-Request-Id': ctx.reqId,
    ...rateHeaders.get(ctx),
    ...r.headers,
  };
  let body: string | Buffer | undefined;
  if (r.raw !== undefined) body = r.raw;
  else if (r.body !== undefined) body = JSON.stringify(r.body);
  checkAnswer?.(ctx.audit.action, r.status, r.contentType ?? 'application/json', body ?? '');
  if (body === undefined) return send(ctx.ex, { status: r.status, headers, body });
  headers['Content-Type'] = r.contentType ?? 'application/json';
  const read = (ctx.ex.method === 'GET' || ctx.ex.method === 'HEAD') && r.status === 200;
  if (read) {
    headers.ETag = etagOf(body);
    if (matchesIfNoneMatch(ctx.ex.headers['if-none-match'], headers.ETag)) {
      delete headers['Content-Type'];
      return send(ctx.ex, { status: 304, headers });
    }
  }
  // A body that is already compressed (an export bundle) is sent as it is.
  const encoded = r.contentType === 'application/gzip' ? null : encodedFor(ctx.ex.headers['accept-encoding'], body);
  if (encoded) {
    headers['Content-Encoding'] = encoded.coding;
    headers.Vary = 'Accept-Encoding';
    body = encoded.bytes;
  }
  send(ctx.ex, { status: r.status, headers, body });
}

function logCall(deps: PipelineDeps, ctx: HandlerContext, status: number, started: number): void {
  const fields = {
    reqId: ctx.reqId,
    auditId: ctx.auditId,
    method: ctx.ex.method,
    action: ctx.audit.action,
    status,
    ms: Math.round((performance.now() - started) * 100) / 100,
  };
  if (status >= 500) deps.log.warn(fields, 'call');
  else deps.log.info(fields, 'call');
}
