import { createHash } from 'node:crypto';
import { z } from 'zod';
import { zodToValidation } from '../platform/problems.js';
import { unstorableStrings } from '../platform/storable.js';
import { Claim, DataClass, dateTime, idString, noteString, Presentation } from '../schemas/common.js';
import { ObservationProvenance } from '../observations/schemas.js';
import { MAX_FRAME_BYTES, MAX_TEXT_LINE_CHARS } from './limits.js';

/**
 * The frames a client sends on a session socket: JSON text messages, one
 * closed schema per `type` (an unknown field is refused like anywhere else).
 * Parsing never throws and never quotes the frame back: a refusal names a
 * rule, the field and a fixed message, because V8's own JSON errors quote
 * the input, and a transient session's input must not travel anywhere (D35).
 */

/** A close reason is a code, not prose: it is stored even for transient sessions. */
const ReasonCode = z
  .string()
  .regex(/^[a-z0-9_.-]{1,64}$/)
  .describe('A reason code such as `ended` or `user_left`.');

export const PresentationFrame = z.strictObject({ type: z.literal('presentation'), presentation: Presentation });
export const TextFrame = z.strictObject({ type: z.literal('text'), line: z.string().min(1).max(MAX_TEXT_LINE_CHARS) });
export const ObservationFrame = z.strictObject({
  type: z.literal('observation'),
  summary: noteString,
  provenance_class: ObservationProvenance,
  observed_at: dateTime.optional(),
  data_class: DataClass.optional(),
  consent_ref: idString.optional().describe('Required for self_attested testimony unless the session has one (rule D36).'),
  case_id: idString.optional().describe('Required for analyst_asserted testimony unless the session has one (rule D37).'),
});
export const ClaimFrame = z.strictObject({ type: z.literal('claim'), claim: Claim });
export const CloseFrame = z.strictObject({ type: z.literal('close'), reason: ReasonCode.optional() });

const SCHEMAS = {
  presentation: PresentationFrame,
  text: TextFrame,
  observation: ObservationFrame,
  claim: ClaimFrame,
  close: CloseFrame,
} as const;

export type FrameType = keyof typeof SCHEMAS;
export type Frame =
  | z.infer<typeof PresentationFrame>
  | z.infer<typeof TextFrame>
  | z.infer<typeof ObservationFrame>
  | z.infer<typeof ClaimFrame>
  | z.infer<typeof CloseFrame>;

export interface Refusal {
  rule: string;
  field: string;
  msg: string;
}

/** What the frame was, whether or not it parsed; stored for every frame (never its content). */
export interface FrameMeta {
  seq: number;
  /** One of ours, or `unknown`: a caller's own type string is content, not metadata. */
  type: FrameType | 'unknown';
  sizeBytes: number;
  contentSha256: string;
}

export type ParsedFrame = { ok: true; meta: FrameMeta; frame: Frame } | { ok: false; meta: FrameMeta; refusal: Refusal };

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isFrameType(value: unknown): value is FrameType {
  return typeof value === 'string' && Object.hasOwn(SCHEMAS, value);
}

export function contentSha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function parseFrame(seq: number, bytes: Uint8Array, isBinary: boolean): ParsedFrame {
  const meta: FrameMeta = { seq, type: 'unknown', sizeBytes: bytes.byteLength, contentSha256: contentSha256(bytes) };
  const refuse = (rule: string, field: string, msg: string): ParsedFrame => ({ ok: false, meta, refusal: { rule, field, msg } });
  if (isBinary) return refuse('frame_binary', '', 'Frames are JSON text messages; binary messages are not read.');
  if (bytes.byteLength > MAX_FRAME_BYTES) return refuse('frame_too_large', '', `Frames are at most ${MAX_FRAME_BYTES} bytes.`);
  let data: unknown;
  try {
    data = JSON.parse(utf8.decode(bytes));
  } catch {
    return refuse('frame_json', '', 'The frame is not valid UTF-8 JSON.');
  }
  const type = typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as { type?: unknown }).type : undefined;
  if (!isFrameType(type)) {
    return refuse('frame_type', 'type', `A frame is a JSON object whose type is one of: ${Object.keys(SCHEMAS).join(', ')}.`);
  }
  meta.type = type;
  const parsed = SCHEMAS[type].safeParse(data, { reportInput: true });
  if (!parsed.success) {
    // The same mapping as a 422 body, so `rule` reads like an HTTPValidationError `type`.
    const first = zodToValidation(parsed.error, 'body').detail[0]!;
    // An unknown key is the caller's input: the field names the object that holds it, never the key (issue 40).
    if (first.type === 'extra_forbidden')
      return refuse(first.type, fieldOf([...first.loc.slice(1, -1), UNKNOWN_KEY]), 'An unrecognised field; frames are closed objects.');
    return refuse(first.type, fieldOf(first.loc.slice(1)), first.msg);
  }
  // Checked after the schema, so every path below names one of our own fields: PostgreSQL stores
  // no U+0000 and no lone surrogate, and such a string used to fail the frame's write (issue 40).
  const unstorable = unstorableStrings(parsed.data, []);
  if (unstorable.length > 0) return refuse('string_unstorable', fieldOf(unstorable[0]!.loc), unstorable[0]!.msg);
  return { ok: true, meta, frame: parsed.data };
}

/** The stand-in for an unknown key in a refusal's `field`. */
export const UNKNOWN_KEY = '(unknown)';

const fieldOf = (loc: readonly (string | number)[]) => loc.join('.');
