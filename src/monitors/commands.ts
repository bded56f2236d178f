import type { Tx } from '../platform/db/pool.js';
import { monitorClosed as closed } from './store.js';

/**
 * The monitors' command to the event streams: whether a monitor was closed,
 * so its stream (src/events) ends instead of waiting for events that cannot
 * come. Runs in the caller's tenant transaction.
 */
export async function monitorClosed(tx: Tx, monitorId: string): Promise<boolean> {
  return closed(tx, monitorId);
}
