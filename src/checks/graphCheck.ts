import { sha256 } from '../platform/digest.js';
import { ARTIFACT_TYPES, describeType } from './artifactTypes.js';
import { OFFLINE, PERSONAL_FACT, defineCheck, neutral, weakens } from './evidence.js';
import type { GraphNeighbourhood } from './types.js';

/**
 * Whether the presented value is also on record for other entities of the
 * tenant (as their anchor, or linked to them within the window; see
 * src/entities/resolve.ts on merging and linkage). One or two others is
 * ordinary (a household, a shared office line); from three on, one value
 * spread over many identities is the mark of reuse across accounts, and the
 * more identities the stronger the sign, in bands. A value shared with an
 * entity the tenant already found bad is strong evidence whatever the count.
 * The other side of such an edge is never named: only the count, and only the
 * type label `ENTITY`.
 */

/** From this many other entities a shared value weakens (a family or small team stays below it). */
export const SHARED_VALUE_THRESHOLD = 3;
/** Bands of the count, each its own kind because strength is declared per kind. */
const MANY_THRESHOLD = 6;
const FARM_THRESHOLD = 20;

function bandKind(others: number): string {
  return others >= FARM_THRESHOLD ? 'shared_value_farm' : others >= MANY_THRESHOLD ? 'shared_value_many' : 'shared_value';
}

type SharedValue = GraphNeighbourhood['shared'][number];

function findShared(graph: GraphNeighbourhood | undefined, type: string, normalised: string): SharedValue | undefined {
  return graph?.shared.find((entry) => entry.type === type && entry.normalised === normalised);
}

function entities(count: number): string {
  return count === 1 ? '1 other entity' : `${count} other entities`;
}

export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'shared_value',
    kind: 'shared_value',
    looksAt: 'how many other entities of the tenant carry the same value',
    declares: [
      {
        disposition: 'weakens',
        strength: 'weak',
        reason: 'Three to five identities on one value: a household or office is still possible.',
      },
      {
        kind: 'shared_value_many',
        disposition: 'weakens',
        strength: 'moderate',
        reason: 'Six to nineteen identities on one value is rarely innocent: reuse across accounts.',
      },
      {
        kind: 'shared_value_farm',
        disposition: 'weakens',
        strength: 'moderate',
        reason:
          "Twenty or more identities on one value is the signature of a farm or shared fraud tooling; no corpus here holds tenants' graphs, so at most moderate.",
      },
      {
        kind: 'shared_with_adverse',
        disposition: 'weakens',
        strength: 'moderate',
        reason:
          "A value shared with an entity the tenant itself found bad is the tenant's own evidence, one hop away; about another entity, not this one, and no corpus here holds it, so at most moderate.",
      },
      { disposition: 'neutral', reason: 'A value on few other entities is ordinary (families, offices).' },
    ],
    artifactTypes: ARTIFACT_TYPES,
    // The entities sharing a value are found by the value as given, well formed or not.
    runsOnMalformed: true,
    trustBand: 'medium',
    dataClass: PERSONAL_FACT,
  },
  ({ presentation, env }) => {
    if (env.graph === undefined) return [];
    const shared = findShared(env.graph, presentation.type, presentation.normalised);
    const what = describeType(presentation.type);
    const others = shared?.otherEntities ?? 0;
    if (others === 0) return neutral(`The ${what} is not on record for any other entity of the tenant.`);
    const statement = `The same ${what} is on record for ${entities(others)} of the tenant.`;
    const answers = [others >= SHARED_VALUE_THRESHOLD ? weakens(statement, { kind: bandKind(others) }) : neutral(statement)];
    const adverse = shared?.adverseEntities ?? 0;
    if (adverse > 0) {
      answers.push(
        weakens(`The same ${what} is on record for ${entities(adverse)} the tenant already found bad.`, { kind: 'shared_with_adverse' }),
      );
    }
    return answers;
  },
);

/** SPEC `Connection`: the caller's own value on one side, only a type label on the other. */
export interface Connection {
  connection_id: string;
  relation: string;
  from_label: string;
  from_type: string;
  to_label: string;
  to_type: string;
  weight: number;
  reason: string;
}

/** Edge strength in (0, 1): n / (n + 1), so one other entity is 0.5 and many approach 1. */
function edgeWeight(otherEntities: number): number {
  return Math.round((otherEntities / (otherEntities + 1)) * 1000) / 1000;
}

/** Stable across calls: the same relation and value always give the same id. */
function connectionId(relation: string, entry: SharedValue): string {
  const digest = sha256(`${relation}\u0000${entry.type}\u0000${entry.normalised}`);
  return `conn_${digest.slice(0, 32)}`;
}

export function connectionsFrom(graph: GraphNeighbourhood | undefined): Connection[] {
  if (graph === undefined) return [];
  const relation = 'shares_value';
  return graph.shared
    .filter((entry) => entry.otherEntities > 0)
    .map((entry) => ({
      connection_id: connectionId(relation, entry),
      relation,
      from_label: entry.value,
      from_type: entry.type,
      to_label: 'ENTITY',
      to_type: 'ENTITY',
      weight: edgeWeight(entry.otherEntities),
      reason: `The same ${describeType(entry.type)} is on record for ${entities(entry.otherEntities)} of the tenant.`,
    }));
}
