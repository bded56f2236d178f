import { z } from 'zod';
import {
  component,
  count,
  DataClass,
  dateTime,
  idString,
  noteString,
  Presentation,
  ruleIssue,
  Subject,
  uuid,
  valueString,
} from '../schemas/common.js';
import { CaseState } from '../events/schemas.js';
import { intentId, materialIds, purposeId, tierCeiling } from '../inquiries/schemas.js';
import { MaterialKind, mediaType, sha256Hex, UploadTarget, MAX_UPLOAD_BYTES } from '../material/schemas.js';

/**
 * Cases: investigations for investigative (KYB) tenants with an authorization
 * record (rules C01, I13). The state is the fold of the case event log; the
 * commands here (members, intake, expand, assertions, hold, release, review,
 * export, close) each append one event.
 */

export const CaseRole = z.enum(['lead', 'analyst', 'reviewer', 'observer']);

export const CaseAuthorization = component(
  'CaseAuthorization',
  'The record that authorises the investigation (rule C01).',
  z.strictObject({
    kind: z.enum(['court_order', 'warrant', 'regulatory_request', 'engagement', 'internal_mandate', 'other']),
    reference: idString.describe('Identifier of the authorising record.'),
    issued_by: valueString,
    valid_until: dateTime.optional(),
  }),
);

export const CaseCreate = component(
  'CaseCreate',
  'Opens a case.',
  z.strictObject({
    title: z.string().min(1).max(200),
    purpose: purposeId.describe('Registered purpose id (rule I13).'),
    authorization: CaseAuthorization,
    description: noteString.optional(),
    budget: z
      .number()
      .min(0)
      .max(1e6)
      .optional()
      .describe("Spending limit in the tenant's budget units; defaults to the tenant's case budget."),
    subject: Subject.optional().describe('The first subject of the case.'),
  }),
);

export const CaseMember = component(
  'CaseMember',
  'A person working the case.',
  z.strictObject({ principal: z.string(), role: CaseRole, added_at: dateTime }),
);

export const CaseMemberIn = component(
  'CaseMemberIn',
  'Adds a member to a case, or removes one.',
  z.strictObject({
    principal: idString.describe("The analyst's id in the tenant's own directory."),
    role: CaseRole.default('analyst'),
    action: z.enum(['add', 'remove']).default('add'),
  }),
);

export const CaseBudget = component(
  'CaseBudget',
  "A case's spending in the tenant's budget units. Intake spends nothing; each chosen expansion is one costed hop.",
  z.strictObject({ limit: z.number().min(0), spent: z.number().min(0), remaining: z.number().min(0) }),
);

export const CaseOut = component(
  'CaseOut',
  'A case as derived from its event log.',
  z.strictObject({
    case_id: uuid,
    state: CaseState,
    legal_hold: z.boolean(),
    title: z.string(),
    purpose: z.string(),
    authorization: CaseAuthorization,
    members: z.array(CaseMember),
    budget: CaseBudget,
    entity_ids: z.array(uuid),
    finding: z.string().nullable().describe('Finding recorded at close.'),
    sequence: count.describe('Sequence of the latest case event.'),
    events_url: z.string(),
    created_at: dateTime,
    updated_at: dateTime,
    closed_at: dateTime.nullable(),
  }),
);

const IntakePresentation = z.strictObject({
  kind: z.literal('presentation'),
  ref: idString.describe("The caller's own reference for the item, echoed in the answer."),
  presentation: Presentation,
});

const IntakeMaterial = z.strictObject({
  kind: z.literal('material'),
  ref: idString,
  material_kind: MaterialKind,
  media_type: mediaType,
  sha256: sha256Hex,
  size_bytes: z.int().min(1).max(MAX_UPLOAD_BYTES),
  data_class: DataClass.default('C1'),
  consent_ref: idString.optional().describe('Required for audio and video (rule D36).'),
});

export const IntakeItem = component(
  'IntakeItem',
  'One presentation, or one piece of declared material whose bytes follow by hash.',
  z.discriminatedUnion('kind', [IntakePresentation, IntakeMaterial]),
);

export const IntakeManifest = component(
  'IntakeManifest',
  'A bounded manifest; it becomes one case event and spends nothing. Open-ended intake uses a session opened with case_id.',
  z
    .strictObject({
      // 500 items keeps one manifest one transaction and one readable event.
      items: z.array(IntakeItem).min(1).max(500),
      note: noteString.optional(),
    })
    .superRefine((manifest, ctx) => {
      manifest.items.forEach((item, i) => {
        if (
          item.kind === 'material' &&
          (item.material_kind === 'audio' || item.material_kind === 'video') &&
          item.consent_ref === undefined
        ) {
          ruleIssue(ctx, 'D36', ['items', i, 'consent_ref'], 'Audio and video material require a consent_ref.');
        }
      });
    }),
);

export const IntakeItemResult = component(
  'IntakeItemResult',
  'How one manifest item was taken.',
  z.strictObject({
    ref: z.string(),
    status: z.enum(['accepted', 'duplicate', 'rejected']),
    rule: z.string().nullable().describe('Rule id that rejected the item.'),
    reason: z.string().nullable(),
    target_id: z.string().nullable().describe('Entity or material id the item landed on.'),
    upload: UploadTarget.nullable().describe('Where to PUT the bytes of an accepted material item.'),
  }),
);

export const IntakeOut = component(
  'IntakeOut',
  'Answer to an intake manifest: each item for itself.',
  z.strictObject({
    intake_id: uuid,
    case_id: uuid,
    sequence: z.int().min(1).describe('The case event the manifest became.'),
    accepted: count,
    duplicate: count,
    rejected: count,
    items: z.array(IntakeItemResult),
  }),
);

export const CaseExpandIn = component(
  'CaseExpandIn',
  'One budgeted hop of attribution from a seed, or the choice of candidates shown earlier under human_gate.',
  z
    .strictObject({
      seed: Subject.optional(),
      intent: intentId.optional().describe('Registered intent of the hop; required with seed.'),
      relations: z.array(idString).max(20).optional().describe('Relationship types to follow; all registered ones when absent.'),
      tier_ceiling: tierCeiling,
      max_cost: z.number().min(0).max(1e6).optional().describe('Cap for this hop; defaults to what remains of the case budget.'),
      human_gate: z.boolean().default(false).describe('Show the candidates first; nothing is spent until one is chosen.'),
      choose: z
        .strictObject({ inquiry_id: uuid, connection_ids: z.array(idString).min(1).max(20) })
        .optional()
        .describe('Candidates chosen from an earlier gated expansion.'),
    })
    .superRefine((x, ctx) => {
      if ((x.seed === undefined) === (x.choose === undefined)) {
        ctx.addIssue({ code: 'custom', path: ['seed'], message: 'Give either seed or choose.' });
      } else if (x.seed !== undefined && x.intent === undefined) {
        ctx.addIssue({ code: 'custom', path: ['intent'], message: 'An expansion from a seed names its intent.' });
      }
    }),
);

export const CaseAssertionIn = component(
  'CaseAssertionIn',
  "An analyst's judgement entered as evidence (provenance analyst_asserted).",
  z.strictObject({
    subject: Subject,
    statement: noteString,
    disposition: z.enum(['supports', 'weakens', 'neutral']),
    observed_at: dateTime,
    data_class: DataClass.default('C1'),
    material_ids: materialIds.optional().describe('Material the judgement rests on.'),
    finding_ids: z.array(idString).max(50).optional().describe('Findings the judgement rests on.'),
  }),
);

export const CaseHoldIn = component(
  'CaseHoldIn',
  'Places or lifts a legal hold.',
  z.strictObject({
    reason: valueString,
    reference: idString.optional().describe('Identifier of the hold order.'),
  }),
);

export const CaseReviewIn = component(
  'CaseReviewIn',
  "A reviewer's decision; `sign_off` is what export requires.",
  z.strictObject({ outcome: z.enum(['sign_off', 'request_changes']), note: noteString.optional() }),
);

export const CaseExportOut = component(
  'CaseExportOut',
  'An evidentiary bundle being built: manifest of hashes, timeline, graph, assessments, audit chain excerpt, signature.',
  z.strictObject({
    export_id: uuid,
    case_id: uuid,
    format: z.string(),
    status: z.enum(['queued', 'building', 'ready', 'failed']),
    manifest_sha256: z.string().nullable(),
    download_url: z.string().nullable(),
    expires_at: dateTime.nullable(),
    requested_at: dateTime,
  }),
);

export const ExportKey = component(
  'ExportKey',
  'An Ed25519 public key (JWK, RFC 8037) that signs evidentiary bundles.',
  z.strictObject({
    kty: z.literal('OKP'),
    crv: z.literal('Ed25519'),
    x: z.string().describe('The public key, base64url.'),
    kid: z.string().describe("The id a bundle's manifest names."),
    use: z.literal('sig'),
    alg: z.literal('EdDSA'),
    nbf: z.int().optional().describe('Signs bundles made from this moment (seconds since the epoch): its creation.'),
    exp: z.int().optional().describe('Signs bundles made before this moment: its retirement. Absent while it is the active key.'),
    revoked_at: z.string().optional().describe('Revoked: no bundle verifies under it, whatever its date.'),
  }),
);

export const ExportKeySet = component(
  'ExportKeySet',
  'The JWKS at /.well-known/tas-export-keys.json: every key that ever signed a bundle, newest first.',
  z.strictObject({ keys: z.array(ExportKey) }),
);

export const CaseGraphNode = component(
  'CaseGraphNode',
  'A value or entity in the case graph.',
  z.strictObject({
    node_id: z.string(),
    type: z.string().describe('Artifact type, or `entity`.'),
    label: z.string(),
    provenance_class: z.string(),
    entity_id: uuid.nullable(),
  }),
);

export const CaseGraphEdge = component(
  'CaseGraphEdge',
  'A relation between two nodes, with its computed weight.',
  z.strictObject({
    edge_id: z.string(),
    from: z.string(),
    to: z.string(),
    relation: z.string(),
    weight: z.number(),
    provenance_class: z.string(),
  }),
);

export const CaseGraphOut = component(
  'CaseGraphOut',
  'Nodes and edges of a case, with types, weights and provenance classes.',
  z.strictObject({ case_id: uuid, nodes: z.array(CaseGraphNode), edges: z.array(CaseGraphEdge), generated_at: dateTime }),
);

export type CaseCreate = z.infer<typeof CaseCreate>;
export type CaseOut = z.infer<typeof CaseOut>;
export type IntakeManifest = z.infer<typeof IntakeManifest>;
export type IntakeOut = z.infer<typeof IntakeOut>;
export type CaseExpandIn = z.infer<typeof CaseExpandIn>;
export type CaseGraphOut = z.infer<typeof CaseGraphOut>;
export type CaseExportOut = z.infer<typeof CaseExportOut>;
