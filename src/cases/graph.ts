import { sha256 } from '../platform/digest.js';
import type { CaseContext } from '../../machines/caseMachine.js';
import type { Tx } from '../db/pool.js';
import { identifiersOf } from '../entities/history.js';
import { membersOf, survivorOf } from '../entities/resolve.js';
import type { CaseGraphOut } from '../schemas/cases.js';

/**
 * The graph of a case: its entities, the values each is known by (the
 * tenant's own values, `identifies` edges) and the analysts' assertions about
 * them (`asserts` edges from an assertion node). Weights: an identifier binds
 * its entity fully (1); an assertion carries the weight of analyst testimony
 * in the methodology (0.5). Entities merged since they joined the case show as
 * their survivor.
 */
const IDENTIFIES_WEIGHT = 1;
const ASSERTION_WEIGHT = 0.5;

export async function caseGraph(tx: Tx, caseId: string, c: CaseContext, now: Date): Promise<CaseGraphOut> {
  const nodes = new Map<string, CaseGraphOut['nodes'][number]>();
  const edges: CaseGraphOut['edges'] = [];
  const survivors = new Map<string, string>();
  for (const entityId of c.entity_ids) {
    const survivor = (await survivorOf(tx, entityId))?.id;
    if (!survivor || survivors.has(survivor)) continue;
    survivors.set(entityId, survivor);
    survivors.set(survivor, survivor);
    const entityNode = `ent_${survivor}`;
    nodes.set(entityNode, { node_id: entityNode, type: 'entity', label: 'ENTITY', provenance_class: 'computed', entity_id: survivor });
    for (const identifier of await identifiersOf(tx, await membersOf(tx, survivor))) {
      const valueNode = idOf('val', identifier.type, identifier.normalised);
      nodes.set(valueNode, { node_id: valueNode, type: identifier.type, label: identifier.value, provenance_class: 'tenant_supplied', entity_id: null });
      edges.push({ edge_id: idOf('edge', valueNode, entityNode), from: valueNode, to: entityNode, relation: 'identifies', weight: IDENTIFIES_WEIGHT, provenance_class: 'tenant_supplied' });
    }
  }
  for (const a of c.assertions) {
    const node = `obs_${a.observation_id}`;
    nodes.set(node, { node_id: node, type: 'assertion', label: a.disposition, provenance_class: 'analyst_asserted', entity_id: null });
    const survivor = a.entity_id ? survivors.get(a.entity_id) ?? a.entity_id : null;
    if (survivor && nodes.has(`ent_${survivor}`)) {
      edges.push({ edge_id: idOf('edge', node, survivor), from: node, to: `ent_${survivor}`, relation: 'asserts', weight: ASSERTION_WEIGHT, provenance_class: 'analyst_asserted' });
    }
  }
  return { case_id: caseId, nodes: [...nodes.values()], edges, generated_at: now.toISOString() };
}

/** Stable ids: the same value, entity or edge always gets the same id, so clients can diff graphs. */
function idOf(prefix: string, ...parts: string[]): string {
  return `${prefix}_${sha256(parts.join('\u0000')).slice(0, 24)}`;
}
