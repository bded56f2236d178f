import type { Tx } from '../platform/db/pool.js';
import { identifiersOf } from './history.js';
import { membersOf, survivorOf } from './resolve.js';

/**
 * The values an entity is known by, most recently first seen first, at most
 * `limit`; none for an unknown entity (the caller decides what that means).
 * Merged entities answer for their survivor and all its members.
 */
export async function knownValuesOf(tx: Tx, entityId: string, limit: number): Promise<{ type: string; value: string }[]> {
  const survivor = await survivorOf(tx, entityId);
  if (survivor === null) return [];
  const known = await identifiersOf(tx, await membersOf(tx, survivor.id));
  return [...known]
    .reverse()
    .slice(0, limit)
    .map((k) => ({ type: k.type, value: k.value }));
}
