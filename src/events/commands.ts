import type { StreamEvent } from '../../actors/types.js';
import type { Tx } from '../platform/db/pool.js';
import { readStreamAfter as readStream } from './store.js';

/**
 * The events capability's command to the others: a stream's recorded events
 * as the streams themselves replay them (webhooks redelivers one by its seq).
 * Runs in the caller's tenant transaction, so another tenant's stream reads
 * like no stream.
 */
export async function readStreamAfter(tx: Tx, streamId: string, afterSeq: number, limit: number): Promise<StreamEvent[]> {
  return readStream(tx, streamId, afterSeq, limit);
}
