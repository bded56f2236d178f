import { z } from 'zod';
import { component, count, DataClass, dateTime, idString, RetentionMode, ruleIssue, Subject, uuid } from '../schemas/common.js';

/**
 * Material: documents, images, audio, video and text, declared first and then
 * either given inline (text) or uploaded by hash to a signed URL. Storage is
 * content-addressed; with `retention_mode=transient` the bytes are processed
 * and never stored (D35); audio and video need `consent_ref` (D36); C2
 * material is extracted to outcomes only.
 */

export const MaterialKind = z.enum(['text', 'document', 'image', 'audio', 'video']);
export const MaterialStatus = z.enum(['awaiting_upload', 'received', 'extracting', 'extracted', 'failed', 'discarded']);
export const MaterialFailureReason = z.enum([
  'media_type_mismatch',
  'unsupported_media_type',
  'corrupt',
  'encrypted',
  'too_large',
  'too_many_pages',
  'timeout',
  'extractor_failed',
]);
export type MaterialFailureReason = z.infer<typeof MaterialFailureReason>;
export const sha256Hex = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .describe('SHA-256 of the bytes, lower-case hex.');
export const mediaType = z
  .string()
  .max(127)
  .regex(/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/)
  .describe('IANA media type, for example `application/pdf`.');

// 64 MiB: the largest single upload a signed URL accepts. Inline text is kept
// to what a JSON body can carry comfortably (1 MiB of characters).
export const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;
export const MAX_INLINE_TEXT = 1024 * 1024;

export const MaterialCreate = component(
  'MaterialCreate',
  'Declares material: inline `text`, or the `sha256` and `size_bytes` of bytes to upload to the returned URL.',
  z
    .strictObject({
      kind: MaterialKind,
      media_type: mediaType,
      purpose: idString.describe('Registered purpose id (rule I13).'),
      text: z.string().min(1).max(MAX_INLINE_TEXT).optional().describe('Inline content, for kind `text` only.'),
      sha256: sha256Hex.optional(),
      size_bytes: z.int().min(1).max(MAX_UPLOAD_BYTES).optional(),
      retention_mode: RetentionMode.default('standard'),
      data_class: DataClass.default('C1').describe('Declared C2 material is extracted to outcomes only.'),
      consent_ref: idString.optional().describe('Required for audio and video (rule D36).'),
      case_id: idString.optional(),
      subject: Subject.optional().describe('Who the material is about, when known.'),
    })
    .superRefine((m, ctx) => {
      if ((m.kind === 'audio' || m.kind === 'video') && m.consent_ref === undefined) {
        ruleIssue(ctx, 'D36', ['consent_ref'], 'Audio and video material require a consent_ref.');
      }
      const inline = m.text !== undefined;
      const upload = m.sha256 !== undefined || m.size_bytes !== undefined;
      if (inline === upload) {
        ctx.addIssue({ code: 'custom', path: ['text'], message: 'Give either text, or sha256 and size_bytes.' });
      } else if (inline && m.kind !== 'text') {
        ctx.addIssue({ code: 'custom', path: ['text'], message: 'Inline text is accepted for kind text only.' });
      } else if (upload && (m.sha256 === undefined || m.size_bytes === undefined)) {
        ctx.addIssue({ code: 'custom', path: ['sha256'], message: 'An upload declares both sha256 and size_bytes.' });
      }
    }),
);

export const MaterialUploadQuery = z.strictObject({
  token: z.string().min(1).max(200).describe('The authorisation the upload URL carries; copy the URL as given.'),
});

export const UploadTarget = component(
  'UploadTarget',
  'Where to PUT the declared bytes; the upload must match the declared hash and size.',
  z.strictObject({
    url: z.string(),
    method: z.literal('PUT'),
    headers: z.record(z.string(), z.string()),
    expires_at: dateTime,
  }),
);

export const MaterialDerivation = component(
  'MaterialDerivation',
  'What was derived from the material and by which extractor.',
  z.strictObject({
    extractor_version: z.string().nullable(),
    extracted_at: dateTime.nullable(),
    items: count.describe('Extracted items (see the extraction).'),
    outcomes_only: z.boolean().describe('True for C2 material: extracted to outcomes only.'),
    bytes_stored: z.boolean().describe('False under transient retention: only the hash is kept.'),
  }),
);

export const MaterialOut = component(
  'MaterialOut',
  'Declared material, its status and derivation.',
  z.strictObject({
    material_id: z.string(),
    kind: MaterialKind,
    media_type: z.string(),
    status: MaterialStatus,
    sha256: z.string().nullable(),
    size_bytes: count.nullable(),
    retention_mode: RetentionMode,
    data_class: DataClass,
    case_id: z.string().nullable(),
    upload: UploadTarget.nullable().describe(
      "Where to PUT the bytes: only in the 201 answer to a declaration by hash (the URL's secret is kept only as a hash, so it is never shown again); null otherwise.",
    ),
    failure_reason: MaterialFailureReason.nullable().describe(
      'Why extraction gave up, when `status` is `failed`: the bytes disagree with the declared type, no extractor reads the type, the file is corrupt or encrypted, it expands past the limits, or extraction ran out of time.',
    ),
    derivation: MaterialDerivation,
    created_at: dateTime,
    updated_at: dateTime,
  }),
);

export const BindingOut = component(
  'BindingOut',
  'Where an extracted thing sits in its material.',
  z.strictObject({
    binding_id: uuid,
    target_kind: z.enum(['artifact', 'fingerprint', 'signal', 'claim']),
    target_id: z.string(),
    locator_kind: z.enum(['text', 'document', 'image', 'audio', 'video', 'structured']),
    locator: z
      .record(z.string(), z.unknown())
      .describe('Free-form: text offsets `{start, end}`, `{page}`, a region `{page, x, y, w, h}`, a time span `{start_ms, end_ms}`.'),
    confidence: z.number().min(0).max(1),
  }),
);

export const ExtractedItem = component(
  'ExtractedItem',
  'One thing extracted from material (an identifier, a fingerprint, a signal, a claim) with its binding.',
  z.strictObject({
    type: z.string().describe('Artifact type for artifacts, else the kind of fingerprint, signal or claim.'),
    value: z.string().nullable().describe("The tenant's own extracted value; null where only a fingerprint is kept."),
    binding: BindingOut,
  }),
);

export const ExtractionOut = component(
  'ExtractionOut',
  'The things extracted from a piece of material, each with its binding.',
  z.strictObject({
    material_id: z.string(),
    status: MaterialStatus,
    extractor_version: z.string().nullable(),
    outcomes_only: z.boolean(),
    items: z.array(ExtractedItem),
  }),
);

export type MaterialCreate = z.infer<typeof MaterialCreate>;
export type MaterialOut = z.infer<typeof MaterialOut>;
export type UploadTarget = z.infer<typeof UploadTarget>;
export type BindingOut = z.infer<typeof BindingOut>;
export type ExtractionOut = z.infer<typeof ExtractionOut>;
