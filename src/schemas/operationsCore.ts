import type { OperationSpec } from './operation.js';
import { InquiryRequest, InquiryResponse } from '../inquiries/schemas.js';
import {
  ObservationBatchIn,
  ObservationIn,
  ObservationOut,
  ObservationOutList,
  OutcomeBatchIn,
  OutcomeIn,
} from '../observations/schemas.js';
import { ExtractionOut, MAX_UPLOAD_BYTES, MaterialCreate, MaterialOut, MaterialUploadQuery } from '../material/schemas.js';
import { EntityOut, LedgerEntryList } from '../entities/schemas.js';
import { RegistryEntryList } from '../registry/schemas.js';
import { AfterQuery } from './queries.js';

/**
 * Operations on subjects and what is known about them: inquiries,
 * observations and outcomes, material, entities and the registry.
 */

export const LAST_EVENT_ID = {
  name: 'Last-Event-ID',
  required: false,
  description: 'Sent by an SSE client on reconnect; wins over a stale `after`.',
};

export const CORE_OPERATIONS: readonly OperationSpec[] = [
  {
    operationId: 'createInquiry',
    method: 'post',
    path: '/v1/inquiries',
    tag: 'Inquiries',
    auth: 'inquiries',
    summary: 'Assess a subject for a purpose at a stake',
    description:
      'Returns the score, its interval and the tenant label within `stake.deadline_ms`. ' +
      '`findings` appear when the policy shows them and the key has the `findings` scope. ' +
      'Only `mode=sync` is served (rule I16); a missing or disallowed purpose is refused with rule I13.',
    headers: [
      {
        name: 'X-Purpose',
        required: false,
        description: "Declared purpose, for gateways that route on headers. When sent it must equal the body's `purpose` (rule I13).",
      },
      {
        name: 'Idempotency-Key',
        required: false,
        description:
          "The body's `idempotency_key` by its header name (1-128 characters), with the same rules (I17). " +
          'Both given and different: 422 `idempotency_key_conflict` at `["header","Idempotency-Key"]`.',
      },
    ],
    body: InquiryRequest,
    success: { status: 200, description: 'The inquiry and its first assessment.', schema: InquiryResponse },
    // An `entity_id` in the subject that the tenant cannot see is the same 404 as an unknown one.
    extraErrors: [404],
    validation: true,
  },
  {
    operationId: 'getInquiry',
    method: 'get',
    path: '/v1/inquiries/{inquiry_id}',
    tag: 'Inquiries',
    auth: 'inquiries',
    summary: 'Read an inquiry and its latest assessment',
    params: { inquiry_id: 'uuid' },
    success: { status: 200, description: 'The inquiry and its latest assessment.', schema: InquiryResponse },
    validation: true,
  },
  {
    operationId: 'streamInquiryEvents',
    method: 'get',
    path: '/v1/inquiries/{inquiry_id}/events',
    tag: 'Inquiries',
    auth: 'inquiries',
    summary: 'Stream revisions of an inquiry (SSE)',
    description: 'Events: `AssessmentIssued`, `AssessmentRevised`, `InquiryConcluded`.',
    params: { inquiry_id: 'uuid' },
    query: AfterQuery,
    headers: [LAST_EVENT_ID],
    success: {
      status: 200,
      description:
        'Server-sent events; each `data:` of an event with an `id:` is an EventEnvelope. Two live signals carry no `id:` (never stored, never replayed): `StreamEnding` ({stream_id, reason}) just before the server ends the response (`shutdown`: reconnect with Last-Event-ID; `monitor_deleted`, `key_revoked`, `key_expired`: do not), and on monitor streams `MonitorChecked` ({stream_id, checked_at, unchanged}) after a rescan that changed nothing.',
      contentType: 'text/event-stream',
    },
    validation: true,
  },
  {
    operationId: 'createObservation',
    replayable: true,
    method: 'post',
    path: '/v1/observations',
    tag: 'Observations',
    auth: 'observations',
    summary: 'Record testimony about a subject',
    description: 'Testimony enters with its provenance class and never sets a score.',
    body: ObservationIn,
    success: { status: 201, description: 'The recorded observation.', schema: ObservationOut },
    validation: true,
  },
  {
    operationId: 'createObservationBatch',
    replayable: true,
    method: 'post',
    path: '/v1/observations/batch',
    tag: 'Observations',
    auth: 'observations',
    summary: 'Record up to 100 observations at once',
    body: ObservationBatchIn,
    success: { status: 201, description: 'The recorded observations, in request order.', schema: ObservationOutList },
    validation: true,
  },
  {
    operationId: 'createOutcome',
    replayable: true,
    method: 'post',
    path: '/v1/outcomes',
    tag: 'Outcomes',
    auth: 'outcomes',
    summary: 'Record what happened after a decision',
    description: 'References an assessment of the same tenant and mode (rule A01); feeds calibration.',
    body: OutcomeIn,
    success: { status: 201, description: 'The recorded outcome.', schema: ObservationOut },
    validation: true,
  },
  {
    operationId: 'createOutcomeBatch',
    replayable: true,
    method: 'post',
    path: '/v1/outcomes/batch',
    tag: 'Outcomes',
    auth: 'outcomes',
    summary: 'Record up to 100 outcomes at once',
    body: OutcomeBatchIn,
    success: { status: 201, description: 'The recorded outcomes, in request order.', schema: ObservationOutList },
    validation: true,
  },
  {
    operationId: 'createMaterial',
    method: 'post',
    path: '/v1/material',
    tag: 'Material',
    auth: 'material',
    summary: 'Declare material: inline text or bytes to upload',
    description: 'Audio and video require `consent_ref` (rule D36); `retention_mode=transient` stores no bytes (rule D35).',
    body: MaterialCreate,
    success: { status: 201, description: 'The declared material, with an upload URL when bytes follow.', schema: MaterialOut },
    validation: true,
  },
  {
    operationId: 'getMaterial',
    method: 'get',
    path: '/v1/material/{material_id}',
    tag: 'Material',
    auth: 'material',
    summary: 'Read material status and derivation',
    params: { material_id: 'string' },
    success: { status: 200, description: 'The material.', schema: MaterialOut },
    validation: true,
  },
  {
    operationId: 'uploadMaterialContent',
    method: 'put',
    path: '/v1/material/{material_id}/content',
    tag: 'Material',
    auth: 'open',
    summary: 'Upload the declared bytes of material (the signed URL)',
    description:
      'The `upload.url` of a declaration by hash: its `token` is the authorisation (no key), it works once and until `upload.expires_at`. ' +
      'The bytes stream (at most 64 MiB); a body whose SHA-256 or length differs from the declaration is refused with 422 and nothing of it is kept. ' +
      'A worker then extracts from the bytes; read the material until its status is `extracted` or `failed`. 403: not a valid URL for this material; ' +
      '409: already used; 410: expired. An extension of the contract (issue 14): SPEC.md names the signed upload URL but not its shape.',
    params: { material_id: 'string' },
    query: MaterialUploadQuery,
    bytesBody: { description: 'The bytes, exactly as declared (any Content-Type).', maxBytes: MAX_UPLOAD_BYTES },
    extraErrors: [403, 409, 410, 413],
    success: { status: 200, description: 'Received; extraction is queued.', schema: MaterialOut },
    validation: true,
  },
  {
    operationId: 'getMaterialExtraction',
    method: 'get',
    path: '/v1/material/{material_id}/extraction',
    tag: 'Material',
    auth: 'material',
    summary: 'Read what was extracted from material',
    params: { material_id: 'string' },
    success: { status: 200, description: 'Extracted things with their bindings.', schema: ExtractionOut },
    validation: true,
  },
  {
    operationId: 'getEntity',
    method: 'get',
    path: '/v1/entities/{entity_id}',
    tag: 'Entities',
    auth: 'entities',
    summary: 'Read a resolved subject',
    params: { entity_id: 'uuid' },
    success: { status: 200, description: 'The entity as the tenant may see it.', schema: EntityOut },
    validation: true,
  },
  {
    operationId: 'getEntityLedger',
    method: 'get',
    path: '/v1/entities/{entity_id}/ledger',
    tag: 'Entities',
    auth: 'entities',
    summary: "Read an entity's assessment ledger",
    description: 'Every assessment in order, append-only, with the inputs that reproduce it.',
    params: { entity_id: 'uuid' },
    success: { status: 200, description: 'Ledger entries, oldest first.', schema: LedgerEntryList },
    validation: true,
  },
  {
    operationId: 'listArtifactTypes',
    method: 'get',
    path: '/v1/registry/artifact-types',
    tag: 'Registry',
    auth: 'registry',
    summary: 'List the artifact types the tenant may present',
    success: { status: 200, description: 'Registered artifact types.', schema: RegistryEntryList },
    validation: false,
  },
  {
    operationId: 'listIntents',
    method: 'get',
    path: '/v1/registry/intents',
    tag: 'Registry',
    auth: 'registry',
    summary: 'List the intents the tenant may use',
    success: { status: 200, description: 'Registered intents.', schema: RegistryEntryList },
    validation: false,
  },
  {
    operationId: 'listPurposes',
    method: 'get',
    path: '/v1/registry/purposes',
    tag: 'Registry',
    auth: 'registry',
    summary: 'List the purposes the tenant may declare',
    success: { status: 200, description: 'Registered purposes.', schema: RegistryEntryList },
    validation: false,
  },
];
