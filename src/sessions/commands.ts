import { z } from 'zod';
import { PolicyIn } from '../policies/schemas.js';
import { StakeKind } from '../schemas/common.js';
import type { ActorRuntime } from '../../actors/runtime.js';
import type { StreamEvent } from '../../actors/types.js';
import { isIdleAt, type Final, type SessionContext, type RetentionMode } from '../../machines/sessionMachine.js';
import type { CheckDefinition } from '../checks/types.js';
import { findInquiry } from '../inquiries/index.js';
import { withTenant, type Db, type Mode, type Tx } from '../platform/db/pool.js';
import { insertFrame } from './store.js';
import type { RegistryCache } from '../registry/index.js';
import { createDeriver } from './derive.js';
import { evaluateSession, type SessionEvidence, type SessionFacts } from './evaluate.js';
import type { Frame, FrameMeta, Refusal } from './frames.js';
import { FrameRefused, intakeOf } from './intake.js';

/**
 * Every command that moves a session after it was opened: a frame, the
 * socket attaching, a close (frame, REST, disconnect), and the durable
 * timers. Each builds its event from the snapshot under the actor's row
 * lock, so a frame and a close racing each other apply one after the other,
 * and one that finds the session closed sends nothing.
 */

/** Who a socket speaks for, fixed when its token was spent. */
export interface SessionBinding {
  sessionId: string;
  inquiryId: string;
  tenantId: string;
  mode: Mode;
  keyId: string;
  principal: string;
  purpose: string;
  retention: RetentionMode;
}

export interface CommandDeps {
  runtime: ActorRuntime;
  db: Db;
  checks: readonly CheckDefinition[];
  registry: RegistryCache;
  /** Keys the pseudonyms of transient sessions (see derive.ts). */
  pepper: string;
  now: () => Date;
  /** Ids of appended rows (a session's assessments): UUIDv7, src/platform/ids.ts. */
  newId: () => string;
}

export type FrameOutcome = { ok: true; ack: Record<string, unknown>; events: StreamEvent[] } | { ok: false; refusal: Refusal };

type Scope = { tenantId: string; mode: Mode };

const evidenceOf = (c: SessionContext): SessionEvidence => ({
  presentations: c.presentations,
  claim: c.claim,
  testimony: c.testimony,
  entityId: c.entityId,
  findingIds: c.findingIds,
});

// A session's facts never change after it opens, so one read per session and process is enough;
// the bound only keeps a long-lived process from holding every session it ever served.
const FACTS_CACHE_ENTRIES = 10_000;

/** The session's facts as written when it opened, parsed on the way back in (never cast); loose, so no fact is dropped. */
const StoredSessionFacts = z.looseObject({
  kind: z.literal('session'),
  sessionId: z.string(),
  inquiryId: z.string(),
  intent: z.string(),
  purpose: z.string(),
  stake: z.looseObject({ kind: StakeKind, amount: z.number().optional(), reversible: z.boolean().optional() }),
  policy: z.looseObject({ version: z.int(), body: PolicyIn }).nullable(),
  render: z.literal('none'),
  retention: z.enum(['standard', 'transient']),
  consentRef: z.string().nullable().default(null),
  caseId: z.string().nullable().default(null),
  // Sessions opened before a fact existed read it as its absence.
  defaultCountry: z.string().nullable().default(null),
});

function parseSessionFacts(stored: unknown): SessionFacts {
  return StoredSessionFacts.parse(stored);
}

function createFactsCache() {
  const cache = new Map<string, SessionFacts>();
  return async (tx: Tx, inquiryId: string): Promise<SessionFacts> => {
    const hit = cache.get(inquiryId);
    if (hit) return hit;
    const row = await findInquiry(tx, inquiryId);
    if (!row) throw new Error('session without its inquiry row');
    // The request column holds the facts this module wrote when the session opened (insertInquiry).
    const facts = parseSessionFacts(row.request);
    if (cache.size >= FACTS_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(inquiryId, facts);
    return facts;
  };
}

export function createSessionCommands(deps: CommandDeps) {
  const scopeOf = (b: Pick<SessionBinding, 'tenantId' | 'mode'>): Scope => ({ tenantId: b.tenantId, mode: b.mode });
  const factsOf = createFactsCache();

  /** The assessment a close issues: everything the session holds, as of now. */
  async function finalOf(tx: Tx, scope: Scope, context: SessionContext, now: Date): Promise<Final> {
    const facts = await factsOf(tx, context.inquiry_id);
    const ev = await evaluateSession(tx, { checks: deps.checks, now, newId: deps.newId }, scope, facts, evidenceOf(context));
    return { assessment: ev.assessment, record: ev.record };
  }

  async function recordRefusal(b: SessionBinding, meta: FrameMeta, rule: string): Promise<void> {
    await withTenant(deps.db, scopeOf(b), (tx) =>
      insertFrame(tx, {
        sessionId: b.sessionId,
        seq: meta.seq,
        tenantId: b.tenantId,
        mode: b.mode,
        type: meta.type,
        sizeBytes: meta.sizeBytes,
        contentSha256: meta.contentSha256,
        outcome: 'refused',
        rule,
        derived: {},
      }),
    );
  }

  async function applyFrame(b: SessionBinding, meta: FrameMeta, frame: Exclude<Frame, { type: 'close' }>): Promise<FrameOutcome> {
    const scope = scopeOf(b);
    const grants = await deps.registry.grants(scope);
    let ack: Record<string, unknown> = {};
    let derived: Record<string, unknown> = {};
    try {
      const result = await deps.runtime.send(
        scope,
        { kind: 'session', id: b.sessionId },
        async (snapshot, tx) => {
          if (snapshot.value === 'closed') throw new FrameRefused({ rule: 'session_closed', field: '', msg: 'The session is closed.' });
          const context = snapshot.context;
          const facts = await factsOf(tx, context.inquiry_id);
          const now = deps.now();
          const deriver = createDeriver(context.retention_mode, { pepper: deps.pepper, tenantId: b.tenantId });
          const intake = intakeOf({ seq: meta.seq, frame, context, facts, deriver, grants, now });
          ack = intake.ack;
          derived = intake.derived;
          if (!intake.additions) return { type: 'frame.noted', seq: meta.seq, at: now.getTime() };
          const ev = await evaluateSession(
            tx,
            { checks: deps.checks, now, newId: deps.newId },
            scope,
            facts,
            evidenceOf(context),
            intake.additions,
          );
          return { type: 'evidence.evaluated', seq: meta.seq, at: now.getTime(), ...ev, observations: intake.observations };
        },
        {
          inTx: (tx) =>
            insertFrame(tx, {
              sessionId: b.sessionId,
              seq: meta.seq,
              tenantId: b.tenantId,
              mode: b.mode,
              type: meta.type,
              sizeBytes: meta.sizeBytes,
              contentSha256: meta.contentSha256,
              outcome: 'accepted',
              rule: null,
              derived,
            }),
        },
      );
      return { ok: true, ack: { type: 'ack', seq: meta.seq, frame: frame.type, ...ack }, events: result.events };
    } catch (error) {
      if (!(error instanceof FrameRefused)) throw error;
      await recordRefusal(b, meta, error.refusal.rule);
      return { ok: false, refusal: error.refusal };
    }
  }

  /** A close decided on the socket's side: a close frame, a drained REST close, a disconnect. */
  async function conclude(b: SessionBinding, reason: string, meta?: FrameMeta): Promise<StreamEvent[]> {
    const scope = scopeOf(b);
    const result = await deps.runtime.send(
      scope,
      { kind: 'session', id: b.sessionId },
      async (snapshot, tx) => {
        if (snapshot.value === 'closed') return null;
        const now = deps.now();
        return { type: 'session.close', reason, at: now.getTime(), final: await finalOf(tx, scope, snapshot.context, now) };
      },
      {
        inTx: async (tx) => {
          if (!meta) return;
          await insertFrame(tx, {
            sessionId: b.sessionId,
            seq: meta.seq,
            tenantId: b.tenantId,
            mode: b.mode,
            type: 'close',
            sizeBytes: meta.sizeBytes,
            contentSha256: meta.contentSha256,
            outcome: 'accepted',
            rule: null,
            derived: { reason },
          });
        },
      },
    );
    return result.events;
  }

  /** POST /v1/sessions/{id}/close: the socket drains first when one is attached; otherwise this concludes at once. */
  async function requestClose(scope: Scope, sessionId: string, reason: string, inTx: (tx: Tx) => Promise<void>): Promise<string> {
    const result = await deps.runtime.send(
      scope,
      { kind: 'session', id: sessionId },
      async (snapshot, tx) => {
        if (snapshot.value !== 'open') return null;
        const context = snapshot.context;
        const now = deps.now();
        const final = context.connected ? undefined : await finalOf(tx, scope, context, now);
        return { type: 'session.closeRequested', reason, at: now.getTime(), ...(final ? { final } : {}) };
      },
      { inTx: async (tx) => inTx(tx) },
    );
    return result.state;
  }

  async function markConnected(b: SessionBinding): Promise<StreamEvent[]> {
    const result = await deps.runtime.send(
      scopeOf(b),
      { kind: 'session', id: b.sessionId },
      { type: 'session.connected', at: deps.now().getTime() },
    );
    return result.events;
  }

  /** The durable timers: an idle check, or the end of a REST close's drain. */
  async function fireTimer(job: { tenantId: string; mode: Mode; actorId: string; event: { type: string } }): Promise<void> {
    const scope = scopeOf(job);
    await deps.runtime.send(scope, { kind: 'session', id: job.actorId }, async (snapshot, tx) => {
      const context = snapshot.context;
      const now = deps.now();
      const at = now.getTime();
      if (job.event.type === 'session.idleCheck' && snapshot.value === 'open') {
        return isIdleAt(context, at)
          ? { type: 'session.idleCheck', at, final: await finalOf(tx, scope, context, now) }
          : { type: 'session.idleCheck', at };
      }
      if (job.event.type === 'session.drainExpired' && snapshot.value === 'closing') {
        return { type: 'session.drainExpired', at, final: await finalOf(tx, scope, context, now) };
      }
      return null;
    });
  }

  function readEvents(b: SessionBinding, afterSeq: number, limit: number): Promise<readonly StreamEvent[]> {
    return deps.runtime.readEvents(scopeOf(b), b.sessionId, afterSeq, limit);
  }

  return { applyFrame, conclude, requestClose, markConnected, fireTimer, readEvents, recordRefusal };
}

export type SessionCommands = ReturnType<typeof createSessionCommands>;
