/**
 * The contract between persisted machines, the actor runtime and the rest.
 *
 * A machine (in machines/) is pure XState v5. It does I/O only by naming
 * actions; every action it may emit has a `type` (one of the three below or a
 * registered handler's) and JSON-serialisable `params`. The runtime sorts them into:
 *
 * - `appendEvent`   -> a row in actor_events (stream = the actor id, seq assigned
 *                      under the row lock) and, after commit, a publish to the
 *                      stream's Redis channel. params: { type: string; payload: object }
 * - `enqueueJob`    -> after commit, a BullMQ job. params: { queue: string; name: string;
 *                      jobId: string (deterministic); data: object; delayMs?: number }
 * - `scheduleEvent` -> after commit, a delayed job on the `timers` queue that sends
 *                      `event` back to this actor. params: { event: { type: string; ... };
 *                      delayMs: number; timerId: string (deterministic) }
 * - anything else   -> an in-transaction effect: a handler registered with the runtime
 *                      under that action type runs inside the same transaction
 *                      (for example `recordAssessment` writes a ledger row).
 */
import { z } from 'zod';

/**
 * One event of a stream as stored (actor_events), fanned out (the hub), read
 * back (replays) and carried by a webhook job: one shape, one schema, parsed
 * wherever it crosses a boundary (a row, a Redis message, a job).
 */
export const StreamEventSchema = z.object({
  stream_id: z.string().min(1),
  seq: z.number().int().min(1),
  type: z.string().min(1),
  payload: z.record(z.string(), z.unknown()),
  occurred_at: z.string(),
});
export type StreamEvent = z.infer<typeof StreamEventSchema>;

export type { OutboxJob } from '../machines/types.js';
