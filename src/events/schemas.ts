import { z } from 'zod';
import { component, dateTime, uuid } from '../schemas/common.js';
import { Assessment, InquiryStatus } from '../assessment/schemas.js';

/**
 * Events a client may see: on SSE streams (`event:` is the type, `id:` the
 * sequence, `data:` the envelope as JSON), in a case timeline, on a session
 * socket and in webhook deliveries. One envelope for all of them, so a
 * consumer writes one parser.
 */

export const EVENT_TYPES = ['AssessmentIssued', 'AssessmentRevised', 'InquiryConcluded', 'MonitorTriggered', 'CaseChanged'] as const;
export const EventType = z.enum(EVENT_TYPES);
/** What a webhook may subscribe to (AssessmentIssued is seen on streams only: the caller already holds the reply). */
export const WebhookEventType = z.enum(['MonitorTriggered', 'AssessmentRevised', 'InquiryConcluded', 'CaseChanged']);

export const CaseState = z.enum(['open', 'in_review', 'signed_off', 'closed']);
export const CaseChange = z.enum([
  'opened',
  'member_added',
  'member_removed',
  'intake',
  'expanded',
  'expansion_requested',
  'expansion_chosen',
  'expansion_refused',
  'assertion',
  'held',
  'released',
  'review_requested_changes',
  'signed_off',
  'export_requested',
  'exported',
  'closed',
]);
export const TriggerKind = z.enum(['label_change', 'score_below', 'score_above', 'score_moves_by', 'width_above']);

export const AssessmentIssued = component(
  'AssessmentIssued',
  'The first assessment of an inquiry.',
  z.strictObject({ inquiry_id: uuid, status: InquiryStatus, assessment: Assessment }),
);

export const AssessmentRevised = component(
  'AssessmentRevised',
  'A later assessment of the same inquiry (or of a case expansion), appended to the ledger; the earlier one is unchanged.',
  z.strictObject({
    inquiry_id: uuid,
    status: InquiryStatus,
    assessment: Assessment,
    previous_assessment_id: uuid,
    case_id: uuid.nullable(),
  }),
);

export const InquiryConcluded = component(
  'InquiryConcluded',
  'The inquiry stopped reasoning; `assessment` is its final one.',
  z.strictObject({ inquiry_id: uuid, assessment: Assessment, concluded_at: dateTime }),
);

export const MonitorTriggered = component(
  'MonitorTriggered',
  "A monitor's rescan met one of its triggers.",
  z.strictObject({
    monitor_id: uuid,
    reasons: z.array(TriggerKind).min(1),
    assessment: Assessment,
    previous_assessment: Assessment.nullable(),
    case_id: uuid.nullable(),
  }),
);

export const CaseChanged = component(
  'CaseChanged',
  'A command moved a case; the case state is the fold of these events.',
  z.strictObject({
    case_id: uuid,
    change: CaseChange,
    state: CaseState,
    legal_hold: z.boolean(),
    principal: z.string().describe('Who did it: the key name or analyst id, never a secret.'),
    summary: z.string(),
  }),
);

function envelope<T extends (typeof EVENT_TYPES)[number], P extends z.ZodType>(type: T, data: P) {
  return z.strictObject({
    event_id: uuid,
    type: z.literal(type),
    stream: z.enum(['inquiry', 'case', 'monitor', 'session']),
    stream_id: uuid,
    sequence: z.int().min(1).describe('Position in the stream; the SSE `id:` and the `after` cursor.'),
    occurred_at: dateTime,
    data,
  });
}

export const EventEnvelope = component(
  'EventEnvelope',
  'One event of a stream: its type, its position in the stream and its payload.',
  z.discriminatedUnion('type', [
    envelope('AssessmentIssued', AssessmentIssued),
    envelope('AssessmentRevised', AssessmentRevised),
    envelope('InquiryConcluded', InquiryConcluded),
    envelope('MonitorTriggered', MonitorTriggered),
    envelope('CaseChanged', CaseChanged),
  ]),
);

export const EventEnvelopeList = z.array(EventEnvelope);

/** Payload schema per event type, for the OpenAPI document and for producers checking what they emit. */
export const EVENT_PAYLOADS = {
  AssessmentIssued,
  AssessmentRevised,
  InquiryConcluded,
  MonitorTriggered,
  CaseChanged,
} as const satisfies Record<(typeof EVENT_TYPES)[number], z.ZodType>;

/** Which events each SSE stream carries (SPEC.md "Server-sent event streams"). */
export const STREAM_EVENTS = {
  inquiry: ['AssessmentIssued', 'AssessmentRevised', 'InquiryConcluded'],
  case: ['CaseChanged', 'AssessmentRevised', 'MonitorTriggered'],
  monitor: ['MonitorTriggered'],
} as const satisfies Record<string, readonly (typeof EVENT_TYPES)[number][]>;

export type EventType = z.infer<typeof EventType>;
export type EventEnvelope = z.infer<typeof EventEnvelope>;
export type CaseState = z.infer<typeof CaseState>;
