import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { newRowId } from '../platform/ids.js';
import type { NamedStatement, StatementPool } from '../platform/db/namedStatements.js';
import type { ActorRuntime, PlannedCreate } from '../../actors/runtime.js';
import { AppendedRow } from '../../actors/store.js';
import type { AuditSink, Principal } from '../auth/index.js';
import { countedValues, newEntityPlan, unseenEnvironment } from '../entities/index.js';
import { runInline } from '../assessment/index.js';
import { inquiryRowsOf } from './effects.js';
import { IdempotencyClash, type IdempotencyClaim } from './idempotency.js';
import { chargeChecks, contextTestimony, openingFacts, type Opening, type OpenedInquiry, type PreparedInquiry } from './opening.js';
import { issuedBy, openPlan, type OpenPlan } from './openPlan.js';
import type { InquiryAsk } from './ask.js';

/**
 * A new subject's inquiry in ONE database call (issue 37; sql/000110).
 *
 * Most subjects of a sign-up or a first payment have never been seen: their
 * history is empty, no other entity carries their values and no inquiry
 * presented them. The service scores such a subject on that empty history
 * before it reads anything (unseenEnvironment: exactly what the read would
 * find), takes the inquiry machine's first transition as a pure function, and
 * sends every row of the answer to tas_inquiry_open, which resolves the
 * subject under its identifiers' locks, checks the assumption, claims the
 * idempotency key and writes it all in one transaction. When the subject
 * turns out to be known (an owner, a shared value, a recent inquiry), nothing
 * is written and the inquiry opens the long way (engine.ts openInquiry),
 * reading the history first: one round trip and the inline checks spent.
 */
export interface OneCallDeps {
  /** The call goes through node-postgres as a named statement (src/platform/db/namedStatements.ts). */
  statements: StatementPool;
  runtime: ActorRuntime;
  now: () => Date;
}

/** Who may take the one call: a subject with values to resolve, no entity named, no evidence gathered before. */
export function mayOpenInOneCall(ask: InquiryAsk, prepared: PreparedInquiry, probed: unknown): boolean {
  return probed === undefined && ask.subject.entityId === undefined && prepared.presentations.length > 0;
}

// Written: what the append of a command's events and outbox rows answers (actors/store.ts), as the runtime reads it.
const Written = AppendedRow.extend({ status: z.literal('written') });
const OpenAnswer = z.discriminatedUnion('status', [
  z.object({ status: z.literal('known') }),
  z.object({ status: z.literal('clash') }),
  Written,
]);

export async function openInOneCall(
  deps: OneCallDeps,
  opening: Opening,
  idempotency: IdempotencyClaim | null,
): Promise<OpenedInquiry | null> {
  const { ctx, principal, ask, prepared } = opening;
  const { inquiryId, presentations, plan } = prepared;
  chargeChecks(ctx, inquiryId, plan);
  const entity = newEntityPlan(principal, presentations);
  const env = { ...unseenEnvironment(presentations), context: contextTestimony(ask) };
  const facts = openingFacts(opening, entity.id, env.graph);
  const now = deps.now();
  const evidence = await runInline(plan, facts, env, now);
  const opened = openPlan(opening, facts, { evidence, worker: plan.worker, asOf: now }, { newId: newRowId, wallNow: Date.now() });
  const created = await deps.runtime.createWith(principal, opened.create, async (planned) => {
    const answer = await callOpen(deps.statements, payloadOf({ principal, opened, entity, planned, idempotency }, ctx));
    if (answer.status === 'clash') throw new IdempotencyClash();
    return answer.status === 'written' ? answer : null;
  });
  if (created === null) return null;
  // Concluded at once: the answer is what was just written, no need to read it back.
  return { inquiryId, state: created.state, facts, issued: issuedBy(opened, created.state) };
}

const OPEN: NamedStatement = { name: 'tas_inquiry_open', text: 'SELECT tas_inquiry_open($1::jsonb) AS answer' };

/**
 * Warms every connection of the statement pool for tas_inquiry_open before
 * the first inquiry (TAS_WARM_STATEMENTS): a new backend's first call
 * compiles the function and plans each of its statements and of the
 * functions it calls, 50-390 ms, and the first inquiries after a deploy
 * waited that long. Each connection runs the whole call once, for a tenant no
 * one has (a random id) and a value no one presents, in a transaction
 * rolled back: every statement that writes a new subject is planned and
 * nothing stays. Answers how many connections were warmed.
 */
export function warmOneCall(statements: StatementPool): Promise<number> {
  return statements.rehearse(OPEN, () => [JSON.stringify(rehearsalPayload())]);
}

/** The call a rehearsal makes: a new subject of a tenant no one has (exported for its test). */
export function rehearsalPayload(): object {
  const id = () => randomUUID();
  const value = `rehearsal.${id()}@example.invalid`;
  // One identifier, so the identifiers' locks and the shared-value and velocity probes run too.
  const lockKey = randomBytes(8).readBigInt64BE().toString();
  return {
    tenant_id: id(),
    mode: 'test',
    max_chain_depth: 1,
    link_window_days: 1,
    entity: { id: id(), lock_keys: [lockKey], identifiers: [{ type: 'EMAIL', normalised: value, value }], links: [] },
    values: { types: ['EMAIL'], normalised: [value] },
    idempotency: { key: id(), hash: 'rehearsal' },
    inquiry: { id: id(), status: 'concluded', intent: 'onboarding', purpose: 'fraud_prevention', request: {}, principal: 'rehearsal' },
    observations: [],
    actor: { kind: 'inquiry', machine_version: 1, snapshot: {} },
    assessments: [],
    events: [],
    outbox: [],
    audit: null,
  };
}

/** The payload is encoded once, here; the answer is parsed, not trusted as a type. */
async function callOpen(statements: StatementPool, payload: object): Promise<z.infer<typeof OpenAnswer>> {
  const [row] = await statements.run<{ answer: unknown }>(OPEN, [JSON.stringify(payload)]);
  return OpenAnswer.parse(row?.answer);
}

interface ToWrite {
  principal: Principal;
  opened: OpenPlan;
  entity: ReturnType<typeof newEntityPlan>;
  planned: PlannedCreate;
  idempotency: IdempotencyClaim | null;
}

/**
 * tas_inquiry_open's one argument: every row of the inquiry, each field once,
 * named as its column. The rows are openPlan's and effects.ts's, the same the
 * long way writes; only their encoding as JSON is this file's.
 */
function payloadOf(w: ToWrite, ctx: AuditSink): object {
  const { principal, planned, opened } = w;
  const { status, ledger } = inquiryRowsOf(planned.effects, principal);
  const values = countedValues(opened.facts.presentations);
  const { inquiry } = opened;
  return {
    tenant_id: principal.tenantId,
    mode: principal.mode,
    max_chain_depth: w.entity.maxChainDepth,
    link_window_days: values.linkWindowDays,
    entity: { id: w.entity.id, lock_keys: w.entity.lockKeys, identifiers: w.entity.identifiers, links: w.entity.links },
    values: { types: values.types, normalised: values.normalised },
    idempotency: w.idempotency,
    inquiry: {
      id: inquiry.id,
      status,
      intent: inquiry.intent,
      purpose: inquiry.purpose,
      request: inquiry.request,
      principal: inquiry.principal,
    },
    observations: opened.observations.map((o) => ({
      id: o.id,
      kind: o.kind,
      provenance_class: o.provenanceClass,
      body: o.body,
      observed_at: o.observedAt,
    })),
    actor: { kind: planned.actor.kind, machine_version: planned.actor.machineVersion, snapshot: planned.actor.snapshot },
    assessments: ledger.map((a) => ({
      id: a.id,
      score: a.score,
      low: a.low,
      high: a.high,
      preliminary: a.preliminary,
      as_of: a.asOf,
      methodology_version: a.methodologyVersion,
      label: a.label,
      evidence: a.evidence,
      inputs: a.inputs,
      findings: a.findings,
    })),
    events: planned.events,
    outbox: planned.outbox,
    audit: ctx.auditRecord('done'),
  };
}
