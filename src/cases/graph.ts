import { sql } from 'slonik';
import { z } from 'zod';
import { sha256 } from '../platform/digest.js';
import { normalisePresentation } from '../checks/normalise.js';
import type { CaseContext } from '../../machines/caseMachine.js';
import type { Tx } from '../platform/db/pool.js';
import { identifiersOf } from '../entities/index.js';
import { membersOf, survivorOf } from '../entities/index.js';
import type { CaseGraphOut } from './schemas.js';

/**
 * The graph of a case: its entities, the values each is known by (the
 * tenant's own values, `identifies` edges), the analysts' assertions about
 * them (`asserts` edges from an assertion node), and the material added to
 * the case with what was extracted from it (`mentions` edges from a material
 * node to the values it names). Weights: an identifier binds its entity fully
 * (1); an assertion carries the weight of analyst testimony in the
 * methodology (0.5); a mention, the extraction's own confidence. Entities
 * merged since they joined the case show as their survivor.
 *
 * Labels are for a reader (issue 38): an entity is named by its main
 * presentation (the first of its values in LABEL_ORDER, with how many more it
 * has), an assertion by its statement, a material by its kind and status.
 */
const IDENTIFIES_WEIGHT = 1;
const ASSERTION_WEIGHT = 0.5;
// The types that name a subject best come first: a person's address before a site's.
const LABEL_ORDER = ['EMAIL', 'PHONE', 'ACCOUNT', 'NAME', 'DOMAIN', 'URL', 'IP'];
// A label is drawn under its node; a statement longer than this is cut (the whole is on the timeline).
const MAX_LABEL = 80;
// A case's material and its extracted values are drawn whole up to these counts; the rest are left out of the drawing.
const MAX_MATERIAL = 50;
const MAX_MENTIONS = 200;

type Node = CaseGraphOut['nodes'][number];

export async function caseGraph(tx: Tx, caseId: string, c: CaseContext, now: Date): Promise<CaseGraphOut> {
  const nodes = new Map<string, Node>();
  const edges: CaseGraphOut['edges'] = [];
  const survivors = new Map<string, string>();
  const valueNodes = new Map<string, string>();
  for (const entityId of c.entity_ids) {
    const survivor = (await survivorOf(tx, entityId))?.id;
    if (!survivor || survivors.has(survivor)) continue;
    survivors.set(entityId, survivor);
    survivors.set(survivor, survivor);
    const entityNode = `ent_${survivor}`;
    const identifiers = await identifiersOf(tx, await membersOf(tx, survivor));
    nodes.set(entityNode, {
      node_id: entityNode,
      type: 'entity',
      label: entityLabel(identifiers),
      provenance_class: 'computed',
      entity_id: survivor,
    });
    for (const identifier of identifiers) {
      const valueNode = idOf('val', identifier.type, identifier.normalised);
      valueNodes.set(`${identifier.type}\u0000${identifier.normalised}`, valueNode);
      nodes.set(valueNode, {
        node_id: valueNode,
        type: identifier.type,
        label: identifier.value,
        provenance_class: 'tenant_supplied',
        entity_id: null,
      });
      edges.push({
        edge_id: idOf('edge', valueNode, entityNode),
        from: valueNode,
        to: entityNode,
        relation: 'identifies',
        weight: IDENTIFIES_WEIGHT,
        provenance_class: 'tenant_supplied',
      });
    }
  }
  const statements = await statementsOf(
    tx,
    c.assertions.map((a) => a.observation_id),
  );
  for (const a of c.assertions) {
    const node = `obs_${a.observation_id}`;
    const statement = statements.get(a.observation_id);
    nodes.set(node, {
      node_id: node,
      type: 'assertion',
      label: statement ? `${a.disposition}: ${cut(statement)}` : a.disposition,
      provenance_class: 'analyst_asserted',
      entity_id: null,
    });
    const survivor = a.entity_id ? (survivors.get(a.entity_id) ?? a.entity_id) : null;
    if (survivor && nodes.has(`ent_${survivor}`)) {
      edges.push({
        edge_id: idOf('edge', node, survivor),
        from: node,
        to: `ent_${survivor}`,
        relation: 'asserts',
        weight: ASSERTION_WEIGHT,
        provenance_class: 'analyst_asserted',
      });
    }
  }
  await addMaterial(tx, caseId, nodes, edges, valueNodes);
  return { case_id: caseId, nodes: [...nodes.values()], edges, generated_at: now.toISOString() };
}

function entityLabel(identifiers: readonly { type: string; value: string }[]): string {
  const rank = (type: string) => (LABEL_ORDER.includes(type) ? LABEL_ORDER.indexOf(type) : LABEL_ORDER.length);
  const main = [...identifiers].sort((a, b) => rank(a.type) - rank(b.type))[0];
  if (!main) return 'entity';
  return identifiers.length > 1 ? `${main.value} (+${identifiers.length - 1})` : main.value;
}

const cut = (text: string) => (text.length > MAX_LABEL ? `${text.slice(0, MAX_LABEL - 1)}…` : text);

const StatementRow = z.object({ id: z.string(), summary: z.string().nullable() });

/** The statements of the case's assertions (observations recorded with the case), by observation id. */
async function statementsOf(tx: Tx, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.any(sql.type(StatementRow)`
    SELECT id::text AS id, body->>'summary' AS summary FROM observations WHERE id = ANY(${sql.array(ids, 'uuid')})`);
  return new Map(rows.filter((r) => r.summary !== null).map((r) => [r.id, r.summary!]));
}

const MaterialRow = z.object({ id: z.string(), kind: z.string(), status: z.string() });
const MentionRow = z.object({ material_id: z.string(), type: z.string(), value: z.string(), confidence: z.number() });

/** The material declared with this case_id, and the identifiers extracted from it (values only: fingerprints have none to show). */
async function addMaterial(
  tx: Tx,
  caseId: string,
  nodes: Map<string, Node>,
  edges: CaseGraphOut['edges'],
  valueNodes: Map<string, string>,
): Promise<void> {
  const material = await tx.any(sql.type(MaterialRow)`
    SELECT id, kind, status FROM material WHERE case_id = ${caseId} ORDER BY created_at, id LIMIT ${MAX_MATERIAL}`);
  if (material.length === 0) return;
  for (const m of material) {
    nodes.set(`mat_${m.id}`, {
      node_id: `mat_${m.id}`,
      type: 'material',
      label: `${m.kind} material (${m.status})`,
      provenance_class: 'tenant_supplied',
      entity_id: null,
    });
  }
  const mentions = await tx.any(sql.type(MentionRow)`
    SELECT material_id, type, value, confidence FROM material_extractions
    WHERE material_id = ANY(${sql.array(
      material.map((m) => m.id),
      'text',
    )}) AND target_kind = 'artifact' AND value IS NOT NULL
    ORDER BY material_id, seq LIMIT ${MAX_MENTIONS}`);
  const seen = new Set<string>();
  for (const mention of mentions) {
    const from = `mat_${mention.material_id}`;
    // Keyed as the entity's values are (their normalised form), so a value the case already knows is one node.
    const normalised = normalisePresentation(mention.type, mention.value)?.normalised ?? mention.value.trim();
    const to = valueNodes.get(`${mention.type}\u0000${normalised}`) ?? idOf('val', mention.type, normalised);
    if (!nodes.has(to))
      nodes.set(to, { node_id: to, type: mention.type, label: mention.value, provenance_class: 'computed', entity_id: null });
    const edgeId = idOf('edge', from, to);
    if (seen.has(edgeId)) continue;
    seen.add(edgeId);
    edges.push({
      edge_id: edgeId,
      from,
      to,
      relation: 'mentions',
      weight: Math.max(0, Math.min(1, mention.confidence)),
      provenance_class: 'computed',
    });
  }
}

/** Stable ids: the same value, entity or edge always gets the same id, so clients can diff graphs. */
function idOf(prefix: string, ...parts: string[]): string {
  return `${prefix}_${sha256(parts.join('\u0000')).slice(0, 24)}`;
}
