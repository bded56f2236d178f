import { newRowId } from '../platform/ids.js';
import { createHash } from 'node:crypto';
import { sql, type FragmentSqlToken } from 'slonik';
import { z } from 'zod';
import type { BlindWrite } from '../../actors/actions.js';
import type { NormalisedPresentation } from '../checks/types.js';
import type { Mode, Tx } from '../platform/db/pool.js';

/**
 * Entity resolution: which resolved subject of the tenant (per mode) a set of
 * presentations is about.
 *
 * Glossary:
 * - identifier: a normalised value that names one party, owned by exactly one
 *   entity (`entity_identifiers`, one owner per value);
 * - survivor: an entity not merged into another; a merged (absorbed) entity
 *   keeps its id valid through `merged_into`, kept one hop deep;
 * - members: a survivor and every entity merged into it; the ledger and the
 *   history of a survivor are those of all its members.
 *
 * Not every presented value identifies. EMAIL, PHONE and ACCOUNT name one
 * party, but only the strongest type presented anchors the entity (ACCOUNT,
 * then EMAIL, then PHONE): an entity is resolved, and merged, on its anchors
 * alone. The other personal values presented with them (a phone beside an
 * email) are links (`entity_links`): many entities may carry one linked
 * value, and that sharing is evidence for the graph check (a phone farm, one
 * device behind many accounts) instead of a reason to make them one person.
 * DOMAIN and URL resolve only when the subject
 * presents no personal identifier: then the site is the subject (a business
 * checked by its domain); beside an email they are usually an employer's or a
 * platform's, shared by strangers. NAME and IP never resolve: many unrelated
 * people share them (households, carrier NAT), and a name is a proxy
 * attribute on which no merge of histories may key (SPEC 8). A subject
 * presenting no identifier at all becomes a new entity each time.
 *
 * Concurrency: transaction-scoped advisory locks keyed on each identifier,
 * taken in one sorted order, serialise resolutions that share a value, so two
 * inquiries presenting the same new email at once end with one entity. Merges
 * additionally take a per-tenant lock, so two merges never rewrite the same
 * entities at once and `merged_into` stays one hop deep.
 */
export const PERSONAL_IDENTIFIER_TYPES: ReadonlySet<string> = new Set(['EMAIL', 'PHONE', 'ACCOUNT']);
/** Strongest first: the first of these the subject presents anchors its entity. */
const ANCHOR_ORDER: readonly string[] = ['ACCOUNT', 'EMAIL', 'PHONE'];
export const WEB_IDENTIFIER_TYPES: ReadonlySet<string> = new Set(['DOMAIN', 'URL']);

export class EntityNotFoundError extends Error {
  override name = 'EntityNotFoundError';
  readonly code = 'ERR_ENTITY_NOT_FOUND';
  constructor() {
    // Deliberately no id in the message: the route answers 404 whether the id
    // is unknown or another tenant's, and logs must not tell them apart either.
    super('no such entity for this tenant and mode');
  }
}

export interface ResolveScope {
  tenantId: string;
  mode: Mode;
}

export interface Resolution {
  /** The survivor the presentations now resolve to. */
  entityId: string;
  /** Entities absorbed into it by this resolution (empty when nothing merged). */
  merged: string[];
  /** True when this resolution created the entity: it has no history yet. */
  created: boolean;
  /**
   * With `deferWrites`, the rows not yet written (a new entity's, or a known
   * one's new identifiers and links): the caller sends them in its command's
   * last statement (actors/actions.ts blind writes), still under the
   * identifiers' locks, which hold to commit. Nothing the caller reads in
   * between depends on them: the graph counts other entities' values, and a
   * member's known values are compared with the presented ones.
   */
  writes?: readonly BlindWrite[];
  /** With `whenNew`, its value for the new entity (absent when an existing entity was found). */
  alongside?: unknown;
}

export interface ResolveOptions {
  /** An explicit entity the presentations must join (or merge with). */
  entityId?: string | undefined;
  /** Return the rows to write as `writes` instead of writing them now (not when entities merge: that rewrites rows at once). */
  deferWrites?: boolean;
  /**
   * An expression asked about the entity to be created, in the statement that
   * looks the owners up (after their locks are held), and evaluated only when
   * there are none: the new entity's first question without a round trip of
   * its own. Its value comes back as `alongside`.
   */
  whenNew?: (newEntityId: string) => FragmentSqlToken;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Merges keep chains one hop deep; the bound only stops a corrupted cycle.
const MAX_CHAIN_DEPTH = 16;

const EntityRow = z.object({ id: z.string(), created_at: z.string() });
type EntityRow = z.infer<typeof EntityRow>;

/** The presentations this subject is resolved on, one per type and normalised value. */
export function resolvingIdentifiers(presentations: readonly NormalisedPresentation[]): NormalisedPresentation[] {
  const unique = new Map<string, NormalisedPresentation>();
  for (const p of presentations) {
    const key = `${p.type}\u0000${p.normalised}`;
    if (!unique.has(key)) unique.set(key, p);
  }
  const all = [...unique.values()];
  const anchor = ANCHOR_ORDER.find((type) => all.some((p) => p.type === type));
  return anchor !== undefined ? all.filter((p) => p.type === anchor) : all.filter((p) => WEB_IDENTIFIER_TYPES.has(p.type));
}

/** The personal values presented beside the anchors: linked to the entity, never merged on. */
export function linkingValues(presentations: readonly NormalisedPresentation[]): NormalisedPresentation[] {
  const anchors = new Set(resolvingIdentifiers(presentations).map((p) => `${p.type}\u0000${p.normalised}`));
  const unique = new Map<string, NormalisedPresentation>();
  for (const p of presentations) {
    const key = `${p.type}\u0000${p.normalised}`;
    if (PERSONAL_IDENTIFIER_TYPES.has(p.type) && !anchors.has(key) && !unique.has(key)) unique.set(key, p);
  }
  return [...unique.values()];
}

export async function resolveEntity(
  tx: Tx,
  scope: ResolveScope,
  presentations: NormalisedPresentation[],
  options: ResolveOptions = {},
): Promise<Resolution> {
  const { entityId } = options;
  const identifiers = resolvingIdentifiers(presentations);
  const id = newRowId();
  const askedIfNew = options.whenNew?.(id);
  const found = lockedOwnersOf(tx, scope, identifiers, askedIfNew);
  let candidates = await candidatesFor(
    tx,
    identifiers,
    entityId,
    found.then((f) => f.owners),
  );
  let merged: string[] = [];
  let survivor: string;
  const created = candidates.length === 0;
  if (created) {
    // A new entity, its identifiers and its links go in one statement (nothing to merge or look up).
    const writes = newEntityWrites(scope, id, identifiers, linkingValues(presentations));
    const asked = askedIfNew ? { alongside: await askedWhenNew(tx, await found, askedIfNew) } : {};
    if (options.deferWrites) return { entityId: id, merged, created, writes, ...asked };
    await tx.query(sql.unsafe`WITH entity AS (${writes[0].sql}), owned AS (${writes[1].sql}) ${writes[2].sql}`);
    return { entityId: id, merged, created, ...asked };
  } else if (candidates.length === 1) {
    survivor = candidates[0]!.id;
  } else {
    // Rare: serialise with every other merge of the tenant, then look again,
    // since a merge that committed while we waited may have joined them.
    await tx.query(sql.unsafe`SELECT pg_advisory_xact_lock(${lockKey('merge', scope)}::bigint)`);
    candidates = await candidatesFor(tx, identifiers, entityId);
    const [oldest, ...others] = candidates;
    survivor = oldest!.id;
    merged = others.map((e) => e.id);
    if (merged.length > 0) await mergeInto(tx, survivor, merged);
  }
  if (options.deferWrites && merged.length === 0) {
    return { entityId: survivor, merged, created, writes: knownEntityWrites(scope, survivor, identifiers, linkingValues(presentations)) };
  }
  await insertIdentifiers(tx, scope, survivor, identifiers);
  await upsertLinks(tx, scope, survivor, linkingValues(presentations));
  return { entityId: survivor, merged, created };
}

/** Survivors owning any identifier, plus the explicit entity; oldest first. `found` is the owners when already looked up. */
async function candidatesFor(
  tx: Tx,
  identifiers: NormalisedPresentation[],
  entityId: string | undefined,
  found?: Promise<EntityRow[]>,
): Promise<EntityRow[]> {
  const owners = await (found ?? ownersOf(tx, identifiers));
  if (entityId === undefined) return owners;
  const explicit = await survivorOf(tx, entityId);
  if (explicit === null) throw new EntityNotFoundError();
  const all = owners.some((o) => o.id === explicit.id) ? owners : [...owners, explicit];
  return all.sort((a, b) => (a.created_at === b.created_at ? a.id.localeCompare(b.id) : a.created_at.localeCompare(b.created_at)));
}

/** Follows `merged_into` to the survivor; null for an id unknown to this tenant and mode (or not a uuid). */
export async function survivorOf(tx: Tx, entityId: string): Promise<EntityRow | null> {
  if (!UUID.test(entityId)) return null;
  return tx.maybeOne(survivorQuery(entityId));
}

export function survivorQuery(entityId: string) {
  // Only `chain` is read; PostgreSQL skips the CTEs a statement does not reference.
  return sql.type(EntityRow)`
    WITH RECURSIVE ${survivorAndMembersCtes(entityId)}
    SELECT e.id, e.created_at FROM entities e WHERE e.id = (SELECT id FROM chain WHERE merged_into IS NULL LIMIT 1)`;
}

/** The survivor and every entity merged into it (at any depth, though merges keep it one). */
export async function membersOf(tx: Tx, survivorId: string): Promise<string[]> {
  return (await tx.any(membersQuery(survivorId))).map((r) => r.id);
}

/**
 * The CTEs `chain` (from an entity along merged_into), `survivor` (its end,
 * or the entity itself when unknown) and `members` (the survivor and every
 * entity merged into it), for membersQuery and for the statement that reads
 * a known entity's whole history at once (src/entities/history.ts); the
 * statement must begin WITH RECURSIVE. Every step is a look-up by key:
 * `OFFSET 0` keeps each LATERAL from becoming a hash join over every entity
 * of the tenant, which the members step was on unanalysed tables
 * (test/db/hotQueryPlans.test.ts).
 */
export function survivorAndMembersCtes(entityId: string): FragmentSqlToken {
  return sql.fragment`chain AS (
      SELECT id, merged_into, 0 AS depth FROM entities WHERE id = ${entityId}
      UNION ALL
      SELECT next.id, next.merged_into, c.depth + 1 FROM chain c
      CROSS JOIN LATERAL (SELECT e.id, e.merged_into FROM entities e WHERE e.id = c.merged_into OFFSET 0) next
      WHERE c.depth < ${MAX_CHAIN_DEPTH}
    ), survivor AS (
      SELECT coalesce((SELECT id FROM chain WHERE merged_into IS NULL LIMIT 1), ${entityId}::uuid) AS id
    ), members AS (
      SELECT e.id FROM entities e WHERE e.id = (SELECT id FROM survivor)
      UNION
      SELECT absorbed.id FROM members m
      CROSS JOIN LATERAL (SELECT e.id FROM entities e WHERE e.merged_into = m.id OFFSET 0) absorbed
    )`;
}

export function membersQuery(survivorId: string) {
  return sql.type(z.object({ id: z.string() }))`WITH RECURSIVE ${survivorAndMembersCtes(survivorId)} SELECT id FROM members`;
}

/** The survivors owning any identifier, oldest first, without taking locks (the merge path's second look). */
async function ownersOf(tx: Tx, identifiers: NormalisedPresentation[]): Promise<EntityRow[]> {
  return (await findOwners(tx, [], identifiers)).owners;
}

/** The `whenNew` answer: from the owners' statement when it was asked there, else on its own (no identifiers to look up). */
async function askedWhenNew(tx: Tx, found: FoundOwners, expression: FragmentSqlToken): Promise<unknown> {
  if (found.asked) return found.alongside;
  return tx.oneFirst(sql.type(z.object({ alongside: z.unknown() }))`SELECT ${expression} AS alongside`);
}

/**
 * A new entity, its identifiers and its links: three inserts that go in one
 * statement of data-modifying CTEs (issue 15: one round trip instead of
 * three), either now or in the caller's last statement. The foreign keys to
 * the new entity are checked at the end of the statement, when the entity row
 * is there. The identifiers are locked (lockedOwnersOf) and unowned, so the
 * conflict clauses only keep the same meaning as insertIdentifiers' and
 * upsertLinks'.
 */
function newEntityWrites(
  scope: ResolveScope,
  id: string,
  identifiers: NormalisedPresentation[],
  links: NormalisedPresentation[],
): [BlindWrite, BlindWrite, BlindWrite] {
  return [
    { table: 'entities', sql: sql.fragment`INSERT INTO entities (id, tenant_id, mode) VALUES (${id}, ${scope.tenantId}, ${scope.mode})` },
    { table: 'entity_identifiers', sql: identifiersInsert(scope, id, identifiers) },
    { table: 'entity_links', sql: linksUpsert(scope, id, links) },
  ];
}

/**
 * Absorbs `absorbed` into `survivor`: they and anything already merged into
 * them now point straight at the survivor (one hop), and their identifiers
 * move to it so the next resolution needs no hop at all.
 */
async function mergeInto(tx: Tx, survivor: string, absorbed: string[]): Promise<void> {
  const ids = sql.array(absorbed, 'uuid');
  await tx.query(sql.unsafe`
    UPDATE entities SET merged_into = ${survivor}
    WHERE id = ANY(${ids}) OR merged_into = ANY(${ids})`);
  await tx.query(sql.unsafe`
    UPDATE entity_identifiers SET entity_id = ${survivor} WHERE entity_id = ANY(${ids})`);
}

/** Identifiers not yet owned become the survivor's; owned ones (now all its members') stay put. */
async function insertIdentifiers(tx: Tx, scope: ResolveScope, entityId: string, identifiers: NormalisedPresentation[]): Promise<void> {
  if (identifiers.length > 0) await tx.query(sql.unsafe`${identifiersInsert(scope, entityId, identifiers)}`);
}

/** Links the values presented beside the anchors to the survivor, refreshing when they were last seen. */
async function upsertLinks(tx: Tx, scope: ResolveScope, entityId: string, links: NormalisedPresentation[]): Promise<void> {
  if (links.length > 0) await tx.query(sql.unsafe`${linksUpsert(scope, entityId, links)}`);
}

/** A known entity's writes as the caller's (insertIdentifiers and upsertLinks, deferred). */
function knownEntityWrites(
  scope: ResolveScope,
  entityId: string,
  identifiers: NormalisedPresentation[],
  links: NormalisedPresentation[],
): BlindWrite[] {
  return [
    ...(identifiers.length > 0 ? [{ table: 'entity_identifiers', sql: identifiersInsert(scope, entityId, identifiers) }] : []),
    ...(links.length > 0 ? [{ table: 'entity_links', sql: linksUpsert(scope, entityId, links) }] : []),
  ];
}

const textColumn = (values: NormalisedPresentation[], key: 'type' | 'normalised' | 'value') =>
  sql.array(
    values.map((p) => p[key]),
    'text',
  );

function identifiersInsert(scope: ResolveScope, entityId: string, identifiers: NormalisedPresentation[]): FragmentSqlToken {
  return sql.fragment`
    INSERT INTO entity_identifiers (tenant_id, mode, type, normalised, value, entity_id)
    SELECT ${scope.tenantId}, ${scope.mode}, p.type, p.normalised, p.value, ${entityId}
    FROM unnest(${textColumn(identifiers, 'type')}, ${textColumn(identifiers, 'normalised')}, ${textColumn(identifiers, 'value')}) AS p(type, normalised, value)
    ON CONFLICT ON CONSTRAINT entity_identifiers_pkey DO NOTHING`;
}

function linksUpsert(scope: ResolveScope, entityId: string, links: NormalisedPresentation[]): FragmentSqlToken {
  return sql.fragment`
    INSERT INTO entity_links (tenant_id, mode, type, normalised, value, entity_id)
    SELECT ${scope.tenantId}, ${scope.mode}, p.type, p.normalised, p.value, ${entityId}
    FROM unnest(${textColumn(links, 'type')}, ${textColumn(links, 'normalised')}, ${textColumn(links, 'value')}) AS p(type, normalised, value)
    ON CONFLICT ON CONSTRAINT entity_links_pkey DO UPDATE SET last_seen_at = now()`;
}

/**
 * One lock per identifier, taken in ascending key order, then the survivors
 * owning the identifiers, read after the locks are held: one call of
 * tas_lock_and_find_owners (000026). Ascending order means transactions
 * sharing several values cannot deadlock. Keys are tenant- and
 * mode-specific; a hash collision only serialises two unrelated
 * resolutions, it never merges them.
 */
async function lockedOwnersOf(
  tx: Tx,
  scope: ResolveScope,
  identifiers: NormalisedPresentation[],
  whenNone?: FragmentSqlToken,
): Promise<FoundOwners> {
  return findOwners(tx, identifierLockKeys(scope, identifiers), identifiers, whenNone);
}

/** The identifiers' lock keys, ascending (the one order every resolution takes them in). */
function identifierLockKeys(scope: ResolveScope, identifiers: readonly NormalisedPresentation[]): string[] {
  return [...new Set(identifiers.map((p) => lockKey(`identifier\u0000${p.type}\u0000${p.normalised}`, scope)))].sort((a, b) =>
    BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0,
  );
}

/**
 * What a new entity for these presentations would be, for tas_inquiry_open
 * (000110), which resolves it in the same call that writes it: the locks it
 * takes, the identifiers whose owners it looks up and then owns, the values
 * it links, and the chain bound the owners' look-up follows.
 */
export function newEntityPlan(scope: ResolveScope, presentations: readonly NormalisedPresentation[]) {
  const identifiers = resolvingIdentifiers(presentations);
  const asRow = (p: NormalisedPresentation) => ({ type: p.type, normalised: p.normalised, value: p.value });
  return {
    id: newRowId(),
    lockKeys: identifierLockKeys(scope, identifiers),
    identifiers: identifiers.map(asRow),
    links: linkingValues(presentations).map(asRow),
    maxChainDepth: MAX_CHAIN_DEPTH,
  };
}

interface FoundOwners {
  owners: EntityRow[];
  /** Whether `whenNone` was asked in the same statement; `alongside` is its value (null when there were owners). */
  asked: boolean;
  alongside?: unknown;
}

const OwnersAndAlongside = z.object({ owners: z.array(EntityRow), alongside: z.unknown() });

/**
 * One call of tas_lock_and_find_owners: the locks named by `keys` (none for a
 * second look), then the owners. With `whenNone`, the same statement also
 * evaluates it when there are no owners: the function's rows are materialised
 * (locks taken) by the first read of `owners`, before the CASE asks it.
 */
async function findOwners(
  tx: Tx,
  keys: string[],
  identifiers: NormalisedPresentation[],
  whenNone?: FragmentSqlToken,
): Promise<FoundOwners> {
  if (identifiers.length === 0) return { owners: [], asked: false };
  const call = sql.fragment`tas_lock_and_find_owners(${sql.array(keys, 'int8')}, ${sql.array(
    identifiers.map((p) => p.type),
    'text',
  )},
      ${sql.array(
        identifiers.map((p) => p.normalised),
        'text',
      )}, ${MAX_CHAIN_DEPTH})`;
  if (whenNone === undefined) {
    const rows = await tx.any(sql.type(EntityRow)`SELECT id, created_at FROM ${call} ORDER BY created_at, id`);
    return { owners: [...rows], asked: false };
  }
  // created_at in the form the pool's type parser gives a timestamptz column (ISO, milliseconds, UTC),
  // so owners compare alike wherever they were read (candidatesFor sorts them with an explicit entity).
  const row = await tx.one(sql.type(OwnersAndAlongside)`
    WITH owners AS MATERIALIZED (SELECT id, created_at FROM ${call})
    SELECT (SELECT coalesce(json_agg(json_build_object('id', id, 'created_at', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
                                     ORDER BY created_at, id), '[]'::json) FROM owners) AS owners,
           CASE WHEN NOT EXISTS (SELECT 1 FROM owners) THEN ${whenNone} END AS alongside`);
  return { owners: row.owners, asked: true, alongside: row.alongside };
}

function lockKey(what: string, scope: ResolveScope): string {
  const digest = createHash('sha256').update(`tas.entities\u0000${scope.tenantId}\u0000${scope.mode}\u0000${what}`).digest();
  return digest.readBigInt64BE(0).toString();
}
