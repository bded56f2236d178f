import { sql, type FragmentSqlToken } from 'slonik';
import { z } from 'zod';
import type { CheckEnvironment, EntityHistory, GraphNeighbourhood, NormalisedPresentation, PresentationVelocity } from '../checks/types.js';
import type { Tx } from '../platform/db/pool.js';
import { Label } from '../schemas/common.js';
import { EvidenceSummary } from '../assessment/schemas.js';
import { unpackInputs } from '../scoring/index.js';
import { deriveStance } from './stance.js';
import { survivorAndMembersCtes } from './resolve.js';

/**
 * What the tenant's own records say about a resolved entity, loaded once per
 * inquiry inside its transaction so the history and graph checks stay pure
 * functions of their context (src/checks/types.ts CheckEnvironment).
 * Everything is read across the entity's members (it and the entities merged
 * into it), because a merge joins their pasts.
 */

// Bounds on what one inquiry loads. The history check reads only the latest
// assessment and counts the rest; outcomes fade with age (METHODOLOGY), so the
// most recent few hundred carry all the weight, and the bounds keep a very
// long-lived entity from making every inquiry about it slow.
const MAX_ASSESSMENTS = 100;
const MAX_TESTIMONIES = 500;
const MAX_CO_PRESENTED = 50;

/** The graph as loaded: the shared counts the graph check reads, plus the entity's other known values. */
export interface EntityGraph extends GraphNeighbourhood {
  /** Values presented with this entity before that the subject did not present now, oldest first. */
  coPresented: { type: string; value: string; normalised: string }[];
}

export interface EntityEnvironment extends CheckEnvironment {
  history: EntityHistory;
  graph: EntityGraph;
  velocity: PresentationVelocity[];
}

/**
 * `excludeInquiryId` leaves one inquiry's own assessments out of the history:
 * a live session revises its assessment on every frame, and its own
 * revisions are not the entity's past.
 */
export async function loadEnvironment(
  tx: Tx,
  entityId: string,
  subject: NormalisedPresentation[],
  opts: { excludeInquiryId?: string; created?: boolean; preloaded?: unknown } = {},
): Promise<EntityEnvironment> {
  // An entity created in this very transaction has no history, no merged members and no
  // identifiers beyond those presented: only the graph question needs asking, and its
  // answer may have come with the resolution already (newEntityGraphExpression).
  if (opts.created) {
    const { shared, velocity } =
      opts.preloaded !== undefined ? parseGraphAndVelocity(subject, opts.preloaded) : await graphAndVelocity(tx, [entityId], subject);
    return { history: { assessments: [], observations: [], outcomes: [] }, graph: { shared, coPresented: [] }, velocity };
  }
  const loaded = HistoryRow.parse(await tx.one(historyStatement(entityId, subject, opts.excludeInquiryId ?? null)));
  const assessments = [...loaded.assessments].reverse();
  const testimony = [...loaded.testimony].reverse();
  const { shared, velocity } = loaded.graph === null ? { shared: [], velocity: [] } : parseGraphAndVelocity(subject, loaded.graph);
  const known = sortedKnown(loaded.known);
  const presented = new Set(subject.map((p) => `${p.type}\u0000${p.normalised}`));
  return {
    velocity,
    history: {
      assessments,
      observations: testimony
        .filter((t) => t.kind === 'observation')
        .map((t) => ({
          id: t.id,
          provenance_class: t.provenance_class,
          summary: t.summary ?? '',
          observed_at: t.observed_at,
          // Observations recorded before stances were stored get the same rule now.
          stance: StoredStance.safeParse(t.stance).data ?? deriveStance(t.summary ?? ''),
        })),
      outcomes: testimony
        .filter((t) => t.kind === 'outcome')
        .map((t) => ({
          kind: t.outcome_kind ?? 'other',
          observed_at: t.observed_at,
          ...(t.decision_ref ? { ref: t.decision_ref } : {}),
        })),
    },
    graph: {
      shared,
      coPresented: known
        .filter((k) => !presented.has(`${k.type}\u0000${k.normalised}`))
        .slice(0, MAX_CO_PRESENTED)
        .map((k) => ({ type: k.type, value: k.value, normalised: k.normalised })),
    },
  };
}

/**
 * The whole history of a known entity in one statement (issue 15: one round
 * trip instead of six): its survivor, the survivor's members, and over the
 * members their latest assessments (newest first), testimony (newest
 * first), the graph and velocity of the presented values, and their known
 * values, each gathered as a JSON array. Every part is the statement its
 * query function below builds, reading the members from the `ids` CTE, so
 * each keeps the look-ups test/db/hotQueryPlans.test.ts checks.
 */
export function historyStatement(entityId: string, subject: readonly NormalisedPresentation[], excludeInquiryId: string | null) {
  // Cast, so that `= ANY(...)` reads it as one array, not as a subquery of rows.
  const members = sql.fragment`(SELECT members FROM ids)::uuid[]`;
  const graph = graphAndVelocityExpression(members, subject) ?? sql.fragment`NULL::json`;
  return sql.unsafe`
    WITH RECURSIVE ${survivorAndMembersCtes(entityId)},
    ids AS MATERIALIZED (SELECT coalesce(array_agg(id), '{}'::uuid[]) AS members FROM members)
    SELECT (SELECT coalesce(json_agg(p), '[]'::json) FROM (${priorAssessmentsQuery(members, excludeInquiryId)}) p) AS assessments,
           (SELECT coalesce(json_agg(t), '[]'::json) FROM (${testimonyQuery(members)}) t) AS testimony,
           ${graph} AS graph,
           (SELECT coalesce(json_agg(k), '[]'::json) FROM (${identifiersQuery(members)}) k) AS known`;
}

// Timestamps read through JSON come as PostgreSQL writes them there; they are given the form the
// pool's type parser gives a timestamptz column (ISO, milliseconds, UTC), as the rest of the code expects.
const Instant = z.string().transform((v) => new Date(v).toISOString());

/** Members are given as ids, or as an SQL expression of a uuid[] (the history statement's `ids`). */
type Members = readonly string[] | FragmentSqlToken;
const membersArray = (members: Members) =>
  Array.isArray(members) ? sql.array([...(members as readonly string[])], 'uuid') : (members as FragmentSqlToken);

const PriorRow = z.object({ score: z.number(), low: z.number(), high: z.number(), as_of: z.string() });

// Rows of the entity since a live session's own first assessment that the read looks through for
// other inquiries' assessments: the session's own revisions fill that stretch of the ledger.
const SESSION_WINDOW = 500;

/**
 * Earlier assessments, newest first (the latest MAX_ASSESSMENTS of them),
 * read so that an entity's long ledger costs nothing (issue 40). Per member,
 * walking (entity_id, ledger_seq) backwards with a limit: `entity_id =
 * ANY(...)` with ORDER BY took every row of the entity and sorted them
 * (9,865 rows, 16 ms). A live session excludes its own revisions, which are
 * the newest rows of its entity, one per frame: a filter would walk all of
 * them. So the ledger is read in two stretches, split at the session's own
 * first assessment (found by the inquiry index): before it, no row is the
 * session's and the limit alone bounds the read; after it, only the newest
 * SESSION_WINDOW rows are looked through for other inquiries'. An inquiry
 * about the same entity that ran during a session older than that many of
 * the entity's rows is left out of the session's history
 * (test/sessions/ledgerPlan.test.ts).
 */
export function priorAssessmentsQuery(members: Members, excludeInquiryId: string | null) {
  if (excludeInquiryId === null) return latestAssessmentsQuery(members);
  // One scalar sub-select each, so the planner takes it as an index bound (a COALESCE around it was only a filter).
  const ownFirst = sql.fragment`(SELECT min(ledger_seq) FROM assessments WHERE inquiry_id = ${excludeInquiryId}::uuid)`;
  const beforeOwn = sql.fragment`(SELECT coalesce(min(ledger_seq), 9223372036854775807) FROM assessments WHERE inquiry_id = ${excludeInquiryId}::uuid)`;
  return sql.type(PriorRow)`
    SELECT score, low, high, as_of FROM unnest(${membersArray(members)}) AS m(id)
    CROSS JOIN LATERAL (
      (SELECT score, low, high, as_of, ledger_seq FROM assessments
       WHERE entity_id = m.id AND ledger_seq < ${beforeOwn}
       ORDER BY ledger_seq DESC LIMIT ${MAX_ASSESSMENTS})
      UNION ALL
      (SELECT score, low, high, as_of, ledger_seq FROM (
         SELECT score, low, high, as_of, ledger_seq, inquiry_id FROM assessments
         WHERE entity_id = m.id AND ledger_seq >= ${ownFirst}
         ORDER BY ledger_seq DESC LIMIT ${SESSION_WINDOW}) during
       WHERE inquiry_id <> ${excludeInquiryId}::uuid)
    ) prior
    ORDER BY ledger_seq DESC LIMIT ${MAX_ASSESSMENTS}`;
}

/** Without a session to leave out: per member, the newest rows by (entity_id, ledger_seq), nothing else read. */
function latestAssessmentsQuery(members: Members) {
  return sql.type(PriorRow)`
    SELECT score, low, high, as_of FROM unnest(${membersArray(members)}) AS m(id)
    CROSS JOIN LATERAL (
      SELECT score, low, high, as_of, ledger_seq FROM assessments
      WHERE entity_id = m.id
      ORDER BY ledger_seq DESC LIMIT ${MAX_ASSESSMENTS}
    ) prior
    ORDER BY ledger_seq DESC LIMIT ${MAX_ASSESSMENTS}`;
}

const StoredStance = z.enum(['supports', 'weakens', 'neutral']);

const TestimonyRow = z.object({
  id: z.string(),
  kind: z.enum(['observation', 'outcome']),
  stance: z.string().nullable(),
  decision_ref: z.string().nullable(),
  provenance_class: z.string(),
  summary: z.string().nullable(),
  outcome_kind: z.string().nullable(),
  observed_at: z.string(),
});

/** Observations and outcomes about the members, newest first (the latest MAX_TESTIMONIES). */
export function testimonyQuery(members: Members) {
  return sql.type(TestimonyRow)`
    SELECT id, kind, provenance_class, body->>'summary' AS summary, body->>'kind' AS outcome_kind,
           body->>'stance' AS stance, body->>'decision_ref' AS decision_ref, observed_at
    FROM observations
    WHERE entity_id = ANY(${membersArray(members)})
    ORDER BY observed_at DESC LIMIT ${MAX_TESTIMONIES}`;
}

const SharedRow = z.object({ type: z.string(), normalised: z.string(), others: z.number(), adverse: z.number() });

// A linked value counts as shared while it was presented within this window: a phone
// reused across many accounts this quarter is a farm; one reused over ten years is churn.
const LINK_WINDOW_DAYS = 90;

/**
 * The shared-values statement, kept in tas_shared_values (000023) so each
 * pooled connection plans it once: one parameterised LATERAL per presented
 * value (`OFFSET 0` keeps the planner from flattening it), so every step is
 * a look-up by the value or by the entity and the rows read stay those the
 * values carry, on an unanalysed table of any size
 * (test/db/hotQueryPlans.test.ts). The earlier form joined every carrier of
 * every value in one set; unanalysed, the planner walked the tenant's whole
 * identifier and link indexes, and sent as a statement it was planned on
 * every inquiry, 2.5 ms for 0.3 ms of work (issue 15).
 */
export function sharedValuesQuery(members: Members, values: readonly { type: string; normalised: string }[]) {
  return sql.type(SharedRow)`
    SELECT type, normalised, others, adverse
    FROM tas_shared_values(${membersArray(members)}, ${sql.array(
      values.map((p) => p.type),
      'text',
    )},
                           ${sql.array(
                             values.map((p) => p.normalised),
                             'text',
                           )}, ${LINK_WINDOW_DAYS})`;
}

/**
 * For each presented value, how many other survivors of the tenant carry it
 * (own it as an anchor, or were linked to it within the window), and how many
 * of those the tenant already found bad: an adverse outcome (defaulted,
 * reversed, exposed) or testimony stored as weakening, on any of their members.
 * A value this entity carries is its own, so members are never counted.
 * Names are never counted: sharing a name is not a connection, and a name is
 * a proxy attribute (SPEC 8).
 */
function sharedOf(values: NormalisedPresentation[], rows: readonly z.infer<typeof SharedRow>[]): GraphNeighbourhood['shared'] {
  const counts = new Map(rows.map((r) => [`${r.type}\u0000${r.normalised}`, r]));
  return values.map((p) => {
    const row = counts.get(`${p.type}\u0000${p.normalised}`);
    return { type: p.type, value: p.value, normalised: p.normalised, otherEntities: row?.others ?? 0, adverseEntities: row?.adverse ?? 0 };
  });
}

const VelocityRow = z.object({ type: z.string(), normalised: z.string(), last_hour: z.number(), last_day: z.number() });

/**
 * How many of the tenant's inquiries presented each value in the last hour
 * and day, before this one (which is not stored yet). One index look-up per
 * value through tas_presentation_velocity (000022): under row-level security
 * the planner may not use the containment index, so the function asks as the
 * owner, scoped to the caller's tenant and mode. Names are not counted, as
 * for the graph.
 */
export function velocityQuery(values: readonly { type: string; normalised: string }[]) {
  return sql.type(VelocityRow)`
    SELECT type, normalised, last_hour, last_day
    FROM tas_presentation_velocity(${sql.array(
      values.map((p) => p.type),
      'text',
    )}, ${sql.array(
      values.map((p) => p.normalised),
      'text',
    )})`;
}

const GraphAndVelocityRow = z.object({ shared: z.array(SharedRow), velocity: z.array(VelocityRow) });

/**
 * The graph's shared values and the velocity of the presented values, in one
 * round trip: the two functions' rows gathered as JSON arrays by one
 * statement (issue 15: each statement of an inquiry costs the service about
 * a tenth of a millisecond to build, send and parse, besides its database time).
 */
async function graphAndVelocity(tx: Tx, members: string[], subject: NormalisedPresentation[]): Promise<GraphAndVelocity> {
  const expression = graphAndVelocityExpression(members, subject);
  if (expression === null) return { shared: [], velocity: [] };
  return parseGraphAndVelocity(subject, await tx.oneFirst(sql.type(z.object({ found: z.unknown() }))`SELECT ${expression} AS found`));
}

type GraphAndVelocity = { shared: GraphNeighbourhood['shared']; velocity: PresentationVelocity[] };

/** Both functions' rows as one JSON object `{ shared, velocity }`; null when no value is counted (names only). */
function graphAndVelocityExpression(members: Members, subject: readonly NormalisedPresentation[]): FragmentSqlToken | null {
  const values = dedupe(subject.filter((p) => p.type !== 'NAME'));
  if (values.length === 0) return null;
  return sql.fragment`json_build_object(
    'shared', (SELECT coalesce(json_agg(s), '[]'::json) FROM (${sharedValuesQuery(members, values)}) s),
    'velocity', (SELECT coalesce(json_agg(v), '[]'::json) FROM (${velocityQuery(values)}) v))`;
}

/**
 * The graph and velocity question for an entity about to be created with
 * this id, as an expression for the resolution's first statement
 * (resolveEntity `whenNew`): asked in the same round trip as the owners,
 * after their locks are held, and answered only when there are none. Its
 * value goes back to loadEnvironment as `preloaded`.
 */
export const newEntityGraphExpression =
  (subject: readonly NormalisedPresentation[]) =>
  (newEntityId: string): FragmentSqlToken =>
    graphAndVelocityExpression([newEntityId], subject) ?? sql.fragment`json_build_object('shared', '[]'::json, 'velocity', '[]'::json)`;

function parseGraphAndVelocity(subject: NormalisedPresentation[], found: unknown): GraphAndVelocity {
  const values = dedupe(subject.filter((p) => p.type !== 'NAME'));
  const row = GraphAndVelocityRow.parse(found);
  return {
    shared: sharedOf(values, row.shared),
    velocity: row.velocity.map((r) => ({ type: r.type, normalised: r.normalised, lastHour: r.last_hour, lastDay: r.last_day })),
  };
}

function dedupe(values: readonly NormalisedPresentation[]): NormalisedPresentation[] {
  const seen = new Map<string, NormalisedPresentation>();
  for (const p of values) if (!seen.has(`${p.type}\u0000${p.normalised}`)) seen.set(`${p.type}\u0000${p.normalised}`, p);
  return [...seen.values()];
}

const IdentifierRow = z.object({ type: z.string(), normalised: z.string(), value: z.string(), first_seen_at: z.string() });
export type IdentifierRow = z.infer<typeof IdentifierRow>;

/** The values the entity's members are known by (anchors and linked values), oldest first. */
export async function identifiersOf(tx: Tx, members: string[]): Promise<readonly IdentifierRow[]> {
  return sortedKnown(await tx.any(identifiersQuery(members)));
}

/** Oldest first, then by type and value: the order every reader of known values shows. */
function sortedKnown(rows: readonly IdentifierRow[]): IdentifierRow[] {
  return [...rows].sort(
    (a, b) => a.first_seen_at.localeCompare(b.first_seen_at) || a.type.localeCompare(b.type) || a.normalised.localeCompare(b.normalised),
  );
}

/**
 * One look-up per member by the entity indexes (`OFFSET 0` keeps each a
 * look-up): written as one filter over the table, the planner walked every
 * identifier and link of the tenant in key order to spare itself a sort, and
 * the read grew with the tenant (test/db/hotQueryPlans.test.ts).
 */
export function identifiersQuery(members: Members) {
  const ids = membersArray(members);
  return sql.type(IdentifierRow)`
    SELECT DISTINCT ON (type, normalised) type, normalised, value, first_seen_at FROM unnest(${ids}) AS m(id)
    CROSS JOIN LATERAL (
      (SELECT type, normalised, value, first_seen_at FROM entity_identifiers WHERE entity_id = m.id OFFSET 0)
      UNION ALL
      (SELECT type, normalised, value, first_seen_at FROM entity_links WHERE entity_id = m.id OFFSET 0)
    ) known
    ORDER BY type, normalised, first_seen_at`;
}

/**
 * The inputs as the engine stored them. Read leniently on purpose: a stored
 * evidence item may carry descriptive fields (statement, kind...) and neutral
 * items, which the scoring function ignores; the route reduces them to the
 * published LedgerInputs shape without changing what `tas score` computes.
 */
const StoredInputs = z.preprocess(
  unpackInputs,
  z.object({
    as_of: z.string(),
    evidence: z.array(
      z.object({
        provenance_class: z.string(),
        trust_band: z.enum(['high', 'medium', 'low']),
        observed_at: z.string(),
        disposition: z.string(),
        strength: z.enum(['weak', 'moderate', 'strong']).optional(),
      }),
    ),
    absences: z.union([z.number().int().min(0), z.array(z.unknown())]),
    data_snapshots: z.array(z.string()).optional(),
  }),
);
export type StoredInputs = z.infer<typeof StoredInputs>;

/**
 * One ledger row: the assessment as published, and the inputs stored with it.
 * `sequence` is the row's place in this entity's ledger (1, 2, ...), not the
 * table-wide `ledger_seq`, which would reveal how many assessments other
 * tenants were issued in between.
 */
const LedgerRow = z.object({
  id: z.string(),
  inquiry_id: z.string(),
  entity_id: z.string().nullable(),
  sequence: z.number().int().min(1),
  score: z.number().int(),
  low: z.number().int(),
  high: z.number().int(),
  preliminary: z.boolean(),
  as_of: z.string(),
  methodology_version: z.string(),
  label: Label.nullable(),
  evidence: EvidenceSummary,
  inputs: StoredInputs,
  created_at: z.string(),
});
export type LedgerRow = z.infer<typeof LedgerRow>;

const LEDGER_COLUMNS = sql.fragment`
  id, inquiry_id, entity_id, row_number() OVER (ORDER BY ledger_seq) AS sequence, score, low, high, preliminary,
  as_of, methodology_version, label, evidence, inputs, created_at`;

/** Every assessment of the members, in ledger order (append-only, never edited). */
export async function ledgerOf(tx: Tx, members: string[]): Promise<readonly LedgerRow[]> {
  return tx.any(sql.type(LedgerRow)`
    SELECT ${LEDGER_COLUMNS} FROM assessments
    WHERE entity_id = ANY(${sql.array(members, 'uuid')})
    ORDER BY ledger_seq`);
}

/** The last entry of the members' ledger, or null before the first assessment. */
export async function latestLedgerEntry(tx: Tx, members: string[]): Promise<LedgerRow | null> {
  return tx.maybeOne(sql.type(LedgerRow)`
    SELECT * FROM (
      SELECT ${LEDGER_COLUMNS}, ledger_seq FROM assessments
      WHERE entity_id = ANY(${sql.array(members, 'uuid')})
    ) ledger
    ORDER BY ledger_seq DESC LIMIT 1`);
}

/**
 * The other entities (their survivors after merges) that carry a value, as
 * an owner or through a recent link, at most `limit`: who a case expansion
 * may attribute a shared value to.
 */
export async function carriersOf(
  tx: Tx,
  value: { type: string; normalised: string },
  exclude: readonly string[],
  limit: number,
): Promise<string[]> {
  const rows = await tx.any(sql.type(z.object({ survivor: z.string() }))`
    WITH carriers AS (
      SELECT entity_id FROM entity_identifiers WHERE type = ${value.type} AND normalised = ${value.normalised}
      UNION
      SELECT entity_id FROM entity_links WHERE type = ${value.type} AND normalised = ${value.normalised}
        AND last_seen_at > now() - make_interval(days => ${LINK_WINDOW_DAYS})
    )
    SELECT DISTINCT COALESCE(e.merged_into, e.id) AS survivor
    FROM carriers c JOIN entities e ON e.id = c.entity_id
    WHERE NOT (COALESCE(e.merged_into, e.id) = ANY(${sql.array([...exclude], 'uuid')}))
    ORDER BY survivor LIMIT ${limit}`);
  return rows.map((r) => r.survivor);
}

const HistoryRow = z.object({
  assessments: z.array(PriorRow.extend({ as_of: Instant })),
  testimony: z.array(TestimonyRow.extend({ observed_at: Instant })),
  graph: z.unknown(),
  known: z.array(IdentifierRow.extend({ first_seen_at: Instant })),
});

/**
 * The environment a subject never seen before has: no history, no other
 * entity carrying any of its values, no inquiry presenting them. It is what
 * loadEnvironment reads for a new entity whose graph and velocity come back
 * all zero (the rows of tas_shared_values and tas_presentation_velocity for
 * unseen values, parsed the same way), so scoring on it is scoring on what
 * the read would have found. tas_inquiry_open (000110) checks that it holds.
 */
export function unseenEnvironment(subject: NormalisedPresentation[]): EntityEnvironment {
  const values = dedupe(subject.filter((p) => p.type !== 'NAME'));
  const zero = {
    shared: values.map((p) => ({ type: p.type, normalised: p.normalised, others: 0, adverse: 0 })),
    velocity: values.map((p) => ({ type: p.type, normalised: p.normalised, last_hour: 0, last_day: 0 })),
  };
  const { shared, velocity } = values.length === 0 ? { shared: [], velocity: [] } : parseGraphAndVelocity(subject, zero);
  return { history: { assessments: [], observations: [], outcomes: [] }, graph: { shared, coPresented: [] }, velocity };
}

/** The values whose graph and velocity are counted (names never are), and the window a link counts in. */
export function countedValues(subject: readonly NormalisedPresentation[]) {
  const values = dedupe(subject.filter((p) => p.type !== 'NAME'));
  return { types: values.map((p) => p.type), normalised: values.map((p) => p.normalised), linkWindowDays: LINK_WINDOW_DAYS };
}
