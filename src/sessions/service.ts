import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { ActorRuntime } from '../../actors/runtime.js';
import type { SessionEvent } from '../../machines/sessionMachine.js';
import type { Principal } from '../auth/index.js';
import type { CheckDefinition } from '../checks/types.js';
import { insertAudit, type AuditRecord } from '../audit/index.js';
import { openSessionInquiry } from '../inquiries/index.js';
import { newRowId } from '../platform/ids.js';
import { scopeTransaction, withTenant, type Db, type Tx } from '../platform/db/pool.js';
import { claimSessionToken, countOpenSessions, findSession, insertSession } from './store.js';
import { tenantIsInvestigative } from '../tenancy/index.js';
import { EntityNotFoundError } from '../entities/index.js';
import type { CallContext } from '../auth/index.js';
import { ServiceProblem, ValidationFailure } from '../platform/problems.js';
import { statusOf } from '../platform/outcomes.js';
import { admit, type AdmissionDeps } from '../policies/index.js';
import { mayShowFindings } from '../inquiries/index.js';
import type { PolicyCache, CurrentPolicy } from '../policies/index.js';
import type { RegistryCache } from '../registry/index.js';
import type { SessionOpen } from './schemas.js';
import { createSessionCommands, type SessionBinding } from './commands.js';
import { createDeriver } from './derive.js';
import { evaluateSession, type SessionFacts } from './evaluate.js';
import { DRAIN_TIMEOUT_MS, TOKEN_TTL_MS } from './limits.js';

/**
 * POST /v1/sessions and POST /v1/sessions/{id}/close, spending a connection
 * token for the socket, and the commands the socket and the timers send.
 *
 * Opening is one transaction: the session's own inquiry row (so every
 * assessment it issues is a ledger entry), the sessions row with the token's
 * digest, the actor, a first assessment when the subject already presents
 * something, and the call's audit row.
 */
export interface SessionServiceDeps {
  db: Db;
  runtime: ActorRuntime;
  checks: readonly CheckDefinition[];
  registry: RegistryCache;
  policies: PolicyCache;
  pepper: string;
  now?: () => Date;
  /** Ids of appended rows (the session's inquiry, its assessments): UUIDv7 unless a test says otherwise. */
  newId?: () => string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TOKEN_PREFIX = 'tas_wst_';
/** 32 random bytes, base64url: a valid subprotocol token (RFC 6455 allows these characters). */
const TOKEN_PATTERN = /^tas_wst_[A-Za-z0-9_-]{43}$/;
// A stored close reason of a transient session must be a code, not prose the caller typed.
const REASON_CODE = /^[a-z0-9_.-]{1,64}$/;

/** Open sessions one key, and one tenant, may hold (TAS_SESSIONS_PER_KEY, TAS_SESSIONS_PER_TENANT). */
export interface SessionCaps {
  perKey: number;
  perTenant: number;
}

/**
 * Retry-After of a refused opening: a place frees when a session closes,
 * which the service cannot foresee (a frame, an idle timeout); a few seconds
 * keeps a polite client from hammering without making it wait for long.
 */
const CAP_RETRY_AFTER_SECONDS = 5;

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * How an opening ended (issue 49 item 5): the session and its token (shown
 * once), or refused because the key or its tenant holds as many open
 * sessions as it may, with how long to wait. The route answers either: 201
 * with the socket's address, or 429 with Retry-After.
 */
export type SessionOpening =
  | { kind: 'opened'; sessionId: string; token: string; expiresAt: string; retentionMode: SessionOpen['retention_mode'] }
  | { kind: 'limited'; detail: string; retryAfterSeconds: number };

/** Thrown inside the opening's transaction so nothing of it commits; open answers it as `limited`. */
class OverSessionCap extends Error {
  override name = 'OverSessionCap';
}

/** The same refusals as an inquiry's (rules I13, I14, I15), for a session's purpose, intent and opening subject. */
async function admitSession(
  deps: AdmissionDeps,
  principal: Principal,
  body: SessionOpen,
  purposeHeader: string | undefined,
): Promise<CurrentPolicy | null> {
  const { policy } = await admit(deps, principal, {
    purpose: body.purpose,
    intent: body.intent,
    presentations: body.subject?.presentations ?? [],
    purposeHeader,
  });
  return policy;
}

export function createSessionService(deps: SessionServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const newId = deps.newId ?? newRowId;
  const commands = createSessionCommands({
    runtime: deps.runtime,
    db: deps.db,
    checks: deps.checks,
    registry: deps.registry,
    pepper: deps.pepper,
    now,
    newId,
  });

  function factsFor(body: SessionOpen, ids: { sessionId: string; inquiryId: string }, policy: CurrentPolicy | null): SessionFacts {
    return {
      kind: 'session',
      sessionId: ids.sessionId,
      inquiryId: ids.inquiryId,
      intent: body.intent,
      purpose: body.purpose,
      stake: body.stake,
      policy,
      render: 'none',
      retention: body.retention_mode,
      consentRef: body.consent_ref ?? null,
      caseId: body.case_id ?? null,
      defaultCountry: body.subject?.claim?.country ?? null,
    };
  }

  /** Everything an opening decides before its transaction: ids, the token, derived subject, facts. */
  function planOpening(principal: Principal, body: SessionOpen, policy: CurrentPolicy | null) {
    const ids = { sessionId: randomUUID(), inquiryId: newId() };
    const openedAt = now();
    const deriver = createDeriver(body.retention_mode, { pepper: deps.pepper, tenantId: principal.tenantId });
    return {
      ids,
      openedAt,
      token: `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`,
      expiresAt: new Date(openedAt.getTime() + TOKEN_TTL_MS).toISOString(),
      presentations: deriver.presentations(body.subject?.presentations ?? [], body.subject?.claim?.country),
      claim: deriver.claim(body.subject?.claim),
      facts: factsFor(body, ids, policy),
      entityId: body.subject?.entity_id,
      showFindings: mayShowFindings(principal, policy?.body.show_findings),
    };
  }

  /** The rows an opening writes first: its inquiry (for the ledger) and the session with its token's digest. */
  async function insertRows(
    tx: Tx,
    principal: Principal,
    body: SessionOpen,
    o: ReturnType<typeof planOpening>,
    caps?: SessionCaps,
  ): Promise<void> {
    if (caps) await refuseOverCap(tx, principal, caps);
    if (body.case_id !== undefined && !(await tenantIsInvestigative(tx, principal.tenantId))) {
      throw ValidationFailure.rule(
        'C01',
        ['body', 'case_id'],
        'Cases require an investigative (KYB) tenant with an authorization record (rule C01).',
      );
    }
    // The session's own inquiry, asked of inquiries in this transaction: its row is inquiries' to write.
    await openSessionInquiry(tx, principal, {
      id: o.ids.inquiryId,
      intent: body.intent,
      purpose: body.purpose,
      facts: o.facts,
    });
    await insertSession(tx, {
      id: o.ids.sessionId,
      tenantId: principal.tenantId,
      mode: principal.mode,
      inquiryId: o.ids.inquiryId,
      openedByKey: principal.keyId,
      principal: principal.label,
      purpose: body.purpose,
      retentionMode: body.retention_mode,
      consentRef: body.consent_ref ?? null,
      caseId: body.case_id ?? null,
      idleTimeoutSeconds: body.idle_timeout_seconds,
      tokenSha256: sha256(o.token),
      tokenExpiresAt: o.expiresAt,
    });
  }

  /** Refused when the key, or its tenant, already holds as many open sessions as it may (issue 40). */
  async function refuseOverCap(tx: Tx, principal: Principal, caps: SessionCaps): Promise<void> {
    const open = await countOpenSessions(tx, principal.tenantId, principal.mode, principal.keyId);
    const over =
      open.by_key >= caps.perKey
        ? `This key holds ${caps.perKey} open sessions, its most`
        : open.by_tenant >= caps.perTenant
          ? `This tenant holds ${caps.perTenant} open sessions, its most (all of its keys together)`
          : null;
    if (over === null) return;
    throw new OverSessionCap(`${over}; close one or retry later.`);
  }

  /** The first assessment, when the opening subject already presents something. */
  async function firstEvidence(tx: Tx, principal: Principal, o: ReturnType<typeof planOpening>): Promise<SessionEvent | undefined> {
    if (o.presentations.length === 0 && o.entityId === undefined) return undefined;
    const before = { presentations: [], claim: o.claim, testimony: [], entityId: null, findingIds: [] };
    const add = { presentations: o.presentations, ...(o.entityId ? { explicitEntityId: o.entityId } : {}) };
    const ev = await evaluateSession(tx, { checks: deps.checks, now: o.openedAt, newId }, principal, o.facts, before, add);
    return { type: 'evidence.evaluated', seq: 0, at: o.openedAt.getTime(), ...ev, observations: [] };
  }

  /** Opens a session: admission, the session actor with its first evidence, and the connection token (shown once). */
  async function open(
    ctx: CallContext,
    principal: Principal,
    body: SessionOpen,
    purposeHeader?: string,
    caps?: SessionCaps,
  ): Promise<SessionOpening> {
    ctx.audit.purpose = body.purpose;
    const policy = await admitSession(deps, principal, body, purposeHeader);
    const o = planOpening(principal, body, policy);
    ctx.audit.target_kind = 'session';
    ctx.audit.target_id = o.ids.sessionId;
    try {
      await deps.runtime.create(principal, {
        kind: 'session',
        id: o.ids.sessionId,
        input: {
          session_id: o.ids.sessionId,
          inquiry_id: o.ids.inquiryId,
          retention_mode: body.retention_mode,
          showFindings: o.showFindings,
          idleTimeoutMs: body.idle_timeout_seconds * 1000,
          drainTimeoutMs: DRAIN_TIMEOUT_MS,
          claim: o.claim,
          openedAt: o.openedAt.getTime(),
        },
        prepare: (tx) => insertRows(tx, principal, body, o, caps),
        event: async (tx) => (await firstEvidence(tx, principal, o)) as SessionEvent,
        inTx: (tx) => ctx.auditInTx(tx, 'created'),
      });
    } catch (error) {
      if (error instanceof OverSessionCap) return { kind: 'limited', detail: error.message, retryAfterSeconds: CAP_RETRY_AFTER_SECONDS };
      // An entity_id the tenant cannot see is indistinguishable from an unknown one.
      if (error instanceof EntityNotFoundError) throw new ServiceProblem('not-found', 'No such entity.');
      throw error;
    }
    return { kind: 'opened', sessionId: o.ids.sessionId, token: o.token, expiresAt: o.expiresAt, retentionMode: body.retention_mode };
  }

  /** Asks an open session to close; a transient session's reason is kept only when it is a code. */
  async function close(ctx: CallContext, principal: Principal, sessionId: string, asked: string) {
    ctx.audit.target_kind = 'session';
    ctx.audit.target_id = sessionId;
    const row = await withTenant(deps.db, principal, (tx) => findSession(tx, sessionId));
    if (!row) throw new ServiceProblem('not-found', 'No such session.');
    ctx.audit.purpose = row.purpose;
    const reason = row.retention_mode === 'transient' && !REASON_CODE.test(asked) ? 'other' : asked;
    const state = await commands.requestClose(principal, sessionId, reason, (tx) => ctx.auditInTx(tx, 'accepted'));
    return { session_id: sessionId, state, reason: row.state === 'open' ? reason : (row.close_reason ?? reason) };
  }

  /**
   * Spends a connection token. On success the socket's audit row (the call
   * connected) commits with the spending; a refusal is audited by the caller.
   */
  async function claim(
    sessionId: string,
    token: string,
    audit: Pick<AuditRecord, 'audit_id' | 'occurred_at' | 'request_id'>,
  ): Promise<SessionBinding | null> {
    if (!UUID.test(sessionId) || !TOKEN_PATTERN.test(token)) return null;
    return deps.db.transaction(async (tx) => {
      await scopeTransaction(tx, { tenantId: null, mode: null });
      const row = await claimSessionToken(tx, sessionId, sha256(token));
      if (!row) return null;
      await scopeTransaction(tx, { tenantId: row.tenant_id, mode: row.mode });
      await insertAudit(tx, {
        ...audit,
        tenant_id: row.tenant_id,
        mode: row.mode,
        principal: row.principal,
        action: 'connectSession',
        target_kind: 'session',
        target_id: sessionId,
        status: statusOf('connected'),
        rule: null,
        purpose: row.purpose,
        cost_amount: null,
        cost_currency: null,
      });
      return {
        sessionId,
        inquiryId: row.inquiry_id,
        tenantId: row.tenant_id,
        mode: row.mode,
        keyId: row.opened_by_key,
        principal: row.principal,
        purpose: row.purpose,
        retention: row.retention_mode,
      };
    });
  }

  return { open, close, claim, commands, fireTimer: commands.fireTimer };
}

export type SessionService = ReturnType<typeof createSessionService>;
