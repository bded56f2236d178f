import { z } from 'zod';
import { component, dateTime, idString, score100, Stake, Subject, uuid } from '../schemas/common.js';
import { Assessment } from '../assessment/schemas.js';

/**
 * Monitors: a standing watch on a subject, rescanned on a cadence by a job
 * scheduler. A rescan that meets a trigger emits MonitorTriggered (SSE and
 * webhooks); DELETE ends the watch and its schedule.
 */

export const MonitorState = z.enum(['active', 'rescanning', 'closed']);

export const MonitorTriggers = component(
  'MonitorTriggers',
  'When a rescan is announced. At least one trigger is set.',
  z
    .strictObject({
      label_change: z.boolean().optional().describe("The tenant's label changed."),
      score_below: score100.optional().describe('The score fell below this value.'),
      score_above: score100.optional().describe('The score rose above this value.'),
      score_moves_by: z.int().min(1).max(100).optional().describe('The score moved at least this far from the last announced one.'),
      width_above: score100.optional().describe('The interval (high - low) widened beyond this.'),
    })
    .refine((t) => Object.values(t).some((v) => v !== undefined && v !== false), {
      message: 'Set at least one trigger.',
    }),
);

// The schema's floor is 1 s so that the operator's floor (TAS_MIN_MONITOR_CADENCE_SECONDS,
// 60 s by default: the shortest cadence that is still a watch rather than polling) decides;
// POST /v1/monitors enforces it with a 422 on `cadence_seconds`. Thirty days is the longest
// before evidence goes stale between looks.
export const MIN_CADENCE_SECONDS = 1;
export const MAX_CADENCE_SECONDS = 30 * 24 * 3600;

export const MonitorCreate = component(
  'MonitorCreate',
  'Opens a standing watch on a subject.',
  z.strictObject({
    subject: Subject,
    intent: idString.describe('Registered intent id (rule I14).'),
    purpose: idString.describe('Registered purpose id (rule I13).'),
    stake: Stake,
    cadence_seconds: z.int().min(MIN_CADENCE_SECONDS).max(MAX_CADENCE_SECONDS),
    triggers: MonitorTriggers,
    case_id: uuid.optional().describe('Makes this a case monitor: its events also go to the case stream.'),
  }),
);

export const MonitorOut = component(
  'MonitorOut',
  'A monitor and its last assessment.',
  z.strictObject({
    monitor_id: uuid,
    state: MonitorState,
    subject: Subject,
    intent: z.string(),
    purpose: z.string(),
    stake: Stake,
    cadence_seconds: z.int(),
    triggers: MonitorTriggers,
    case_id: uuid.nullable(),
    next_run_at: dateTime.nullable().describe('Null once closed.'),
    last_assessment: Assessment.nullable(),
    last_checked_at: dateTime.nullable().describe('When a rescan last ran to its end, changed or not; null before the first.'),
    unchanged_rescans: z
      .int()
      .min(0)
      .describe(
        'Rescans whose answer equalled the last assessment (score, interval, label and evidence counts): they append no ledger entry and notify no one; the stream shows each as a `MonitorChecked` signal.',
      ),
    events_url: z.string(),
    created_at: dateTime,
  }),
);

export type MonitorCreate = z.infer<typeof MonitorCreate>;
export type MonitorOut = z.infer<typeof MonitorOut>;
