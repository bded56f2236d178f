/**
 * Request examples, one per operation that takes a JSON body (issue 16), put
 * into the document beside the body's schema. test/openapi/examples.test.ts
 * parses every one with the operation's own schema, so an example can never
 * show a body the service would refuse, and fails when an operation with a
 * body has none. Values are fictional (example.org, +44 20 7946 0xxx, the
 * Ofcom drama range) and ids are fixed so the document stays byte-stable.
 */
const AT = '2026-11-20T09:30:00Z';
const ENTITY = '018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12';
const ASSESSMENT = '018f3a6e-2c1e-7c11-8f02-3b9d4e6a1c77';
const CASE = '018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30';
const INQUIRY = '018f3a71-0b2c-7e44-9a13-2c4d6e8f0a15';

const subject = {
  presentations: [
    { type: 'EMAIL', value: 'jane.doe@example.org' },
    { type: 'PHONE', value: '+44 20 7946 0321' },
  ],
};

const monitorCreate = {
  subject: { presentations: [{ type: 'DOMAIN', value: 'example-shop.example' }] },
  intent: 'counterparty_check',
  purpose: 'fraud_prevention',
  stake: { kind: 'listing' },
  cadence_seconds: 86_400,
  triggers: { label_change: true, score_below: 40 },
};

export const REQUEST_EXAMPLES: Readonly<Record<string, unknown>> = {
  createInquiry: {
    subject,
    intent: 'pre_transaction',
    purpose: 'fraud_prevention',
    stake: { kind: 'payment', amount: 420, currency: 'GBP', reversible: false, deadline_ms: 1500 },
    tier_ceiling: 't1',
    idempotency_key: 'order-88213',
  },
  createObservation: {
    subject: { presentations: [{ type: 'EMAIL', value: 'jane.doe@example.org' }] },
    provenance_class: 'tenant_supplied',
    summary: 'Chargeback received on order 88213',
    stance: 'weakens',
    observed_at: AT,
    purpose: 'fraud_prevention',
  },
  createObservationBatch: [
    {
      subject: { presentations: [{ type: 'PHONE', value: '+44 20 7946 0321' }] },
      provenance_class: 'tenant_supplied',
      summary: 'Delivered and signed for',
      stance: 'supports',
      observed_at: AT,
      purpose: 'fraud_prevention',
    },
    {
      subject: { entity_id: ENTITY },
      provenance_class: 'tenant_supplied',
      summary: 'Card declined three times in ten minutes',
      observed_at: AT,
      purpose: 'fraud_prevention',
    },
  ],
  createOutcome: {
    assessment_id: ASSESSMENT,
    decision_ref: 'order-88213',
    kind: 'reversed',
    observed_at: AT,
    detail: 'Chargeback, reason 10.4',
  },
  createOutcomeBatch: [
    { assessment_id: ASSESSMENT, decision_ref: 'order-88213', kind: 'reversed', observed_at: AT },
    { assessment_id: '018f3a6e-2c1e-7c11-8f02-3b9d4e6a1c78', decision_ref: 'loan-5521', kind: 'repaid', observed_at: AT },
  ],
  createMaterial: {
    kind: 'text',
    media_type: 'text/plain',
    purpose: 'fraud_prevention',
    text: 'Please pay the deposit to jane.doe@example.org or call +44 20 7946 0321.',
  },
  createCase: {
    title: 'Mule ring, north region',
    purpose: 'investigation',
    authorization: { kind: 'court_order', reference: 'CO-2026-21', issued_by: 'District Court' },
    budget: 25,
    subject,
  },
  changeCaseMembers: { principal: 'analyst-7', role: 'analyst', action: 'add' },
  intakeCase: {
    items: [
      { kind: 'presentation', ref: 'row-1', presentation: { type: 'EMAIL', value: 'ring.one@example.org' } },
      {
        kind: 'material',
        ref: 'scan-1',
        material_kind: 'image',
        media_type: 'image/png',
        sha256: '9f2a4c1e0b7d3f5a8c6e1d2b4a7f9c0e3d5b8a1c4e7f0a2b5d8c1e4f7a0b3c6d',
        size_bytes: 48213,
      },
    ],
    note: 'Seized phone, export of contacts',
  },
  expandCase: {
    seed: { presentations: [{ type: 'PHONE', value: '+44 20 7946 0555' }] },
    intent: 'investigation',
    human_gate: true,
    max_cost: 5,
  },
  createCaseAssertion: {
    subject: { presentations: [{ type: 'EMAIL', value: 'ring.one@example.org' }] },
    statement: 'Opened three accounts with the same device in one evening',
    disposition: 'weakens',
    observed_at: AT,
  },
  holdCase: { reason: 'Preservation order received', reference: 'PO-2026-118' },
  releaseCase: { reason: 'Preservation order lifted', reference: 'PO-2026-118' },
  reviewCase: { outcome: 'sign_off', note: 'Evidence complete for referral' },
  createMonitor: monitorCreate,
  openSession: {
    purpose: 'fraud_prevention',
    intent: 'onboarding',
    subject: { claim: { name: 'Jane Doe', country: 'GB' } },
    stake: { kind: 'account' },
    retention_mode: 'standard',
    idle_timeout_seconds: 300,
  },
  createKey: { name: 'checkout-backend', scopes: ['inquiries', 'outcomes'], mode: 'live', expires_at: '2027-11-20T00:00:00Z' },
  rotateKey: { grace_seconds: 3600 },
  publishPolicy: {
    allowed_purposes: ['fraud_prevention'],
    allowed_intents: ['pre_transaction', 'onboarding'],
    render_ceiling: 'template',
    show_findings: true,
    separate_sign_off: true,
    default_region: 'GB',
    allowed_origins: ['https://app.example.com'],
    rules: [
      { label: 'review', when: { score_lte: 40 } },
      { label: 'step_up', when: { width_gte: 50, stake_kinds: ['payment'], amount_gte: 1000 } },
      { label: 'proceed', when: {} },
    ],
  },
  createWebhook: { url: 'https://hooks.example.com/tas', event_types: ['InquiryConcluded', 'MonitorTriggered'], description: 'Risk team' },
  updateWebhook: { event_types: ['InquiryConcluded'], enabled: false },
  rotateWebhookSecret: { grace_seconds: 86_400 },
};

const assessment = {
  assessment_id: ASSESSMENT,
  inquiry_id: INQUIRY,
  score: 34,
  low: 3,
  high: 77,
  preliminary: false,
  as_of: AT,
  methodology_version: 'trust-method/3',
  label: { value: 'review', policy_version: 3 },
  evidence: {
    signals: 6,
    failed_signals: 1,
    contradictions: 1,
    by_provenance_class: { computed: 5, tenant_supplied: 1 },
    by_trust_band: { high: 2, medium: 3, low: 1 },
    oldest_observed_at: '2026-11-12T16:05:00Z',
    newest_observed_at: AT,
  },
  entity_id: ENTITY,
};

const inquiryResponse = {
  inquiry_id: INQUIRY,
  status: 'concluded',
  assessment,
  findings: {
    inquiry_id: INQUIRY,
    assessment_id: ASSESSMENT,
    subject: subject.presentations,
    findings: [
      {
        finding_id: 'f-1',
        about: 'jane.doe@example.org',
        about_type: 'EMAIL',
        kind: 'disposable_email',
        statement: 'The domain example.org is not a throw-away inbox provider.',
        provenance_class: 'computed',
        trust_band: 'high',
        observed_at: AT,
        data_class: 'C1',
        disposition: 'neutral',
      },
      {
        finding_id: 'f-2',
        about: '+44 20 7946 0321',
        about_type: 'PHONE',
        kind: 'graph_shared_value',
        statement: 'The phone number is also carried by 2 other entities of yours, 1 of them with an adverse outcome.',
        provenance_class: 'tenant_supplied',
        trust_band: 'medium',
        observed_at: AT,
        data_class: 'C1',
        disposition: 'weakens',
        strength: 'strong',
      },
    ],
    absences: [
      {
        about: 'example.org',
        about_type: 'DOMAIN',
        kind: 'timeout',
        reason: 'The domain registration look-up did not answer within its time.',
      },
    ],
    coverage: { tier_ceiling: 't1', checks_run: 9, checks_answered: 8, checks_unanswered: 1 },
    generated_at: AT,
  },
};

const caseOut = {
  case_id: CASE,
  state: 'open',
  legal_hold: false,
  title: 'Mule ring, north region',
  purpose: 'investigation',
  authorization: { kind: 'court_order', reference: 'CO-2026-21', issued_by: 'District Court' },
  members: [{ principal: 'analyst-7', role: 'analyst', added_at: AT }],
  budget: { limit: 25, spent: 3, remaining: 22 },
  entity_ids: [ENTITY],
  finding: null,
  sequence: 4,
  events_url: `https://tas.example/v1/cases/${CASE}/events`,
  created_at: '2026-11-19T14:00:00Z',
  updated_at: AT,
  closed_at: null,
};

const observationOut = {
  observation_id: '018f3a72-5d10-7a2b-8c3d-4e5f6a7b8c9d',
  kind: 'observation',
  provenance_class: 'tenant_supplied',
  entity_id: ENTITY,
  assessment_id: null,
  case_id: null,
  data_class: 'C1',
  observed_at: AT,
  recorded_at: '2026-11-20T09:30:02Z',
};

const materialOut = {
  material_id: 'mat_018f3a73-7e21-7b3c-9d4e-5f6a7b8c9d0e',
  kind: 'text',
  media_type: 'text/plain',
  status: 'extracted',
  sha256: '3b7c1f0e9a2d4c6b8e0f1a3c5d7e9b2a4c6e8f0a1b3d5f7a9c0e2b4d6f8a0c1e',
  size_bytes: 74,
  retention_mode: 'standard',
  data_class: 'C1',
  case_id: null,
  upload: null,
  failure_reason: null,
  derivation: { extractor_version: 'text/1', extracted_at: '2026-11-20T09:30:01Z', items: 2, outcomes_only: false, bytes_stored: true },
  created_at: AT,
  updated_at: '2026-11-20T09:30:01Z',
};

/** Success examples of the answers that carry the central resources; parsed with each success schema by the same test. */
const CORE_RESPONSES: Readonly<Record<string, unknown>> = {
  createInquiry: inquiryResponse,
  getInquiry: inquiryResponse,
  expandCase: { ...inquiryResponse, assessment: { ...assessment, label: null } },
  createObservation: observationOut,
  createObservationBatch: [observationOut],
  createOutcome: { ...observationOut, kind: 'outcome', assessment_id: ASSESSMENT },
  createOutcomeBatch: [{ ...observationOut, kind: 'outcome', assessment_id: ASSESSMENT }],
  createCaseAssertion: { ...observationOut, kind: 'assertion', provenance_class: 'analyst_asserted', case_id: CASE },
  createMaterial: materialOut,
  getMaterial: materialOut,
  createCase: {
    ...caseOut,
    members: [],
    budget: { limit: 25, spent: 0, remaining: 25 },
    entity_ids: [],
    sequence: 1,
    updated_at: caseOut.created_at,
  },
  getCase: caseOut,
  listCases: [
    {
      case_id: CASE,
      state: caseOut.state,
      title: caseOut.title,
      purpose: caseOut.purpose,
      legal_hold: caseOut.legal_hold,
      created_at: caseOut.created_at,
      updated_at: caseOut.updated_at,
    },
  ],
  changeCaseMembers: caseOut,
  holdCase: { ...caseOut, legal_hold: true, sequence: 5 },
  releaseCase: { ...caseOut, sequence: 6 },
  reviewCase: { ...caseOut, state: 'signed_off', sequence: 7 },
  closeCase: { ...caseOut, state: 'closed', finding: 'Referred to the police', sequence: 8, closed_at: AT },
  exportCase: {
    export_id: '018f3a74-0a1b-7c2d-8e3f-4a5b6c7d8e9f',
    case_id: CASE,
    format: 'bundle',
    status: 'queued',
    manifest_sha256: null,
    download_url: null,
    expires_at: null,
    requested_at: AT,
  },
  getCaseExport: {
    export_id: '018f3a74-0a1b-7c2d-8e3f-4a5b6c7d8e9f',
    case_id: CASE,
    format: 'bundle',
    status: 'ready',
    manifest_sha256: 'c4e1a9f07b3d25e6081f4a9c3e7b5d2f1a0c8e6b4d2f0a9e7c5b3d1f9e8a7c6b',
    download_url: `https://tas.example/v1/cases/${CASE}/exports/018f3a74-0a1b-7c2d-8e3f-4a5b6c7d8e9f/bundle`,
    expires_at: '2026-11-27T09:30:00Z',
    requested_at: AT,
  },
  createMonitor: {
    monitor_id: '018f3a75-1b2c-7d3e-8f4a-5b6c7d8e9f0a',
    state: 'active',
    ...monitorCreate,
    case_id: null,
    next_run_at: '2026-11-21T09:30:00Z',
    last_assessment: null,
    last_checked_at: null,
    unchanged_rescans: 0,
    events_url: 'https://tas.example/v1/monitors/018f3a75-1b2c-7d3e-8f4a-5b6c7d8e9f0a/events',
    created_at: AT,
  },
};

const WEBHOOK = '018f3a76-2c3d-7e4f-9a5b-6c7d8e9f0a1b';
const KEY = '018f3a77-3d4e-7f5a-8b6c-7d8e9f0a1b2c';
const webhook = {
  webhook_id: WEBHOOK,
  url: 'https://hooks.example.com/tas',
  event_types: ['InquiryConcluded', 'MonitorTriggered'],
  description: 'Risk team',
  created_at: AT,
};
const keySummary = {
  key_id: KEY,
  name: 'checkout-backend',
  scopes: ['inquiries', 'outcomes'],
  mode: 'live',
  prefix: 'tas_live_7f3a',
  created_at: '2026-10-02T08:00:00Z',
  expires_at: '2027-11-20T00:00:00Z',
  revoked_at: null,
  last_used_at: '2026-11-20T09:29:00Z',
};
const policy = {
  allowed_purposes: ['fraud_prevention'],
  allowed_intents: ['pre_transaction', 'onboarding'],
  render_ceiling: 'template',
  show_findings: true,
  separate_sign_off: true,
  default_region: 'GB',
  allowed_origins: ['https://app.example.com'],
  rules: [
    { label: 'review', when: { score_lte: 40 } },
    { label: 'proceed', when: {} },
  ],
  policy_version: 3,
  created_at: AT,
  current: true,
};
const ledgerEntry = {
  entry_id: ASSESSMENT,
  sequence: 2,
  assessment,
  // The assessment above exactly: `tas score` over this entry reproduces it, summary included (test/scoring/scoreCli.test.ts).
  inputs: {
    methodology_version: 'trust-method/3',
    as_of: AT,
    evidence: [
      { provenance_class: 'computed', trust_band: 'high', observed_at: AT, disposition: 'neutral' },
      { provenance_class: 'computed', trust_band: 'high', observed_at: '2026-11-12T16:05:00Z', disposition: 'supports', strength: 'weak' },
      { provenance_class: 'computed', trust_band: 'medium', observed_at: AT, disposition: 'neutral' },
      { provenance_class: 'computed', trust_band: 'medium', observed_at: AT, disposition: 'neutral' },
      { provenance_class: 'computed', trust_band: 'low', observed_at: AT, disposition: 'neutral' },
      { provenance_class: 'tenant_supplied', trust_band: 'medium', observed_at: AT, disposition: 'weakens', strength: 'strong' },
    ],
    absences: 1,
  },
  recorded_at: AT,
};

/** Every JSON answer but the document itself and /healthz (free-form): the core resources and the rest. */
// A stream ticket (issue 40): the events_url carries it, never a key.
const ticketOf = (segment: string, id: string) => ({
  ticket: 'tst_…shown once…',
  events_url: `https://tas.example/v1/${segment}/${id}/events?ticket=tst_…`,
  expires_at: '2026-11-20T09:31:00Z',
});

export const RESPONSE_EXAMPLES: Readonly<Record<string, unknown>> = {
  mintInquiryEventsTicket: ticketOf('inquiries', INQUIRY),
  mintMonitorEventsTicket: ticketOf('monitors', '018f3a78-4e60-7b7c-8d9e-0f1a2b3c4d5f'),
  mintCaseEventsTicket: ticketOf('cases', CASE),
  ...CORE_RESPONSES,
  uploadMaterialContent: {
    ...materialOut,
    kind: 'document',
    media_type: 'application/pdf',
    status: 'received',
    size_bytes: 48213,
    derivation: { ...materialOut.derivation, extractor_version: null, extracted_at: null, items: 0 },
  },
  getMaterialExtraction: {
    material_id: materialOut.material_id,
    status: 'extracted',
    extractor_version: 'text/1',
    outcomes_only: false,
    items: [
      {
        type: 'EMAIL',
        value: 'jane.doe@example.org',
        binding: {
          binding_id: '018f3a73-7e22-7c4d-8e5f-6a7b8c9d0e1f',
          target_kind: 'artifact',
          target_id: 'EMAIL:jane.doe@example.org',
          locator_kind: 'text',
          locator: { start: 26, end: 46 },
          confidence: 0.98,
        },
      },
    ],
  },
  getEntity: {
    entity_id: ENTITY,
    presentations: subject.presentations.map((p) => ({ type: p.type, value: p.type === 'PHONE' ? '+442079460321' : p.value })),
    created_at: '2026-11-12T16:05:00Z',
    latest_assessment: assessment,
    ledger_url: `https://tas.example/v1/entities/${ENTITY}/ledger`,
  },
  getEntityLedger: [ledgerEntry],
  findEntities: {
    type: 'EMAIL',
    normalised: 'jane.doe@example.org',
    entities: [{ entity_id: ENTITY, held_as: 'anchor', first_seen_at: '2026-11-12T16:05:00Z', entity_url: `/v1/entities/${ENTITY}` }],
  },
  intakeCase: {
    intake_id: '018f3a78-4e5f-7a6b-9c7d-8e9f0a1b2c3d',
    case_id: CASE,
    sequence: 5,
    accepted: 2,
    duplicate: 0,
    rejected: 0,
    items: [
      { ref: 'row-1', status: 'accepted', rule: null, reason: null, target_id: ENTITY, upload: null },
      {
        ref: 'scan-1',
        status: 'accepted',
        rule: null,
        reason: null,
        target_id: 'mat_018f3a78-4e60-7b7c-8d9e-0f1a2b3c4d5e',
        upload: {
          url: 'https://tas.example/v1/material/mat_018f3a78-4e60-7b7c-8d9e-0f1a2b3c4d5e/content?token=…',
          method: 'PUT',
          headers: { 'Content-Type': 'image/png' },
          expires_at: '2026-11-20T10:30:00Z',
        },
      },
    ],
  },
  getMonitor: {
    ...(CORE_RESPONSES.createMonitor as Record<string, unknown>),
    last_assessment: assessment,
    last_checked_at: AT,
    unchanged_rescans: 4,
  },
  openSession: {
    session_id: '018f3a79-5f6a-7b7c-8d8e-9f0a1b2c3d4e',
    state: 'open',
    ws_url: 'wss://tas.example/v1/sessions/018f3a79-5f6a-7b7c-8d8e-9f0a1b2c3d4e/socket',
    token: 'tas_sess_…shown once…',
    expires_at: '2026-11-20T09:35:00Z',
    retention_mode: 'standard',
  },
  closeSession: { session_id: '018f3a79-5f6a-7b7c-8d8e-9f0a1b2c3d4e', state: 'closing', reason: 'closed by the tenant' },
  createKey: {
    key_id: KEY,
    name: 'checkout-backend',
    scopes: ['inquiries', 'outcomes'],
    mode: 'live',
    prefix: 'tas_live_7f3a',
    created_at: '2026-10-02T08:00:00Z',
    expires_at: '2027-11-20T00:00:00Z',
    secret: 'tas_live_7f3a…shown once…',
  },
  listKeys: [keySummary],
  rotateKey: {
    key_id: '018f3a7a-6a7b-7c8d-9e0f-1a2b3c4d5e6f',
    name: 'checkout-backend',
    scopes: ['inquiries', 'outcomes'],
    mode: 'live',
    prefix: 'tas_live_c21d',
    created_at: AT,
    expires_at: '2027-11-20T00:00:00Z',
    secret: 'tas_live_c21d…shown once…',
  },
  listPolicies: [policy],
  publishPolicy: policy,
  createWebhook: { ...webhook, secret: 'whsec_…shown once…' },
  listWebhooks: [{ ...webhook, enabled: true, disabled_reason: null }],
  getWebhook: { ...webhook, enabled: true, disabled_reason: null },
  updateWebhook: { ...webhook, event_types: ['InquiryConcluded'], enabled: false, disabled_reason: 'paused by the tenant' },
  rotateWebhookSecret: { ...webhook, secret: 'whsec_…shown once…' },
  redeliverWebhookMessage: {
    message_id: 'msg_018f3a7b7b8c',
    event_id: '018f3a7b-7b8c-7d9e-8f0a-1b2c3d4e5f6a',
    event_type: 'InquiryConcluded',
    queued_at: AT,
  },
  listWebhookDeliveries: [
    {
      message_id: 'msg_018f3a7b7b8c',
      event_id: '018f3a7b-7b8c-7d9e-8f0a-1b2c3d4e5f6a',
      event_type: 'InquiryConcluded',
      attempt: 1,
      status: 'retrying',
      http_status: 503,
      error: 'http 503',
      next_attempt_at: '2026-11-20T09:30:35Z',
      attempted_at: AT,
      latency_ms: 212,
    },
  ],
  listAudit: [
    {
      audit_id: '018f3a7c-8c9d-7e0f-9a1b-2c3d4e5f6a7b',
      occurred_at: AT,
      principal: 'key:checkout-backend',
      action: 'createInquiry',
      target_kind: 'inquiry',
      target_id: INQUIRY,
      status: 200,
      rule: null,
      purpose: 'fraud_prevention',
      key_id: KEY,
      cost_amount: 0,
      cost_currency: 'check-units',
    },
  ],
  getHealth: { status: 'ok' },
  getExportKeys: {
    keys: [
      { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo', kid: 'tas-export-2026-11', use: 'sig', alg: 'EdDSA' },
    ],
  },
  listArtifactTypes: [
    { id: 'EMAIL', description: 'An email address.', normaliser: 'email' },
    { id: 'PHONE', description: 'A telephone number.', normaliser: 'e164' },
  ],
  listIntents: [{ id: 'pre_transaction', description: 'Deciding whether to accept a payment or order.' }],
  listPurposes: [{ id: 'fraud_prevention', description: 'Preventing fraud against the tenant or its customers.' }],
  getCaseGraph: {
    case_id: CASE,
    nodes: [
      { node_id: `entity:${ENTITY}`, type: 'entity', label: 'entity', provenance_class: 'computed', entity_id: ENTITY },
      {
        node_id: 'EMAIL:ring.one@example.org',
        type: 'EMAIL',
        label: 'ring.one@example.org',
        provenance_class: 'tenant_supplied',
        entity_id: ENTITY,
      },
    ],
    edges: [
      {
        edge_id: 'identifies:1',
        from: 'EMAIL:ring.one@example.org',
        to: `entity:${ENTITY}`,
        relation: 'identifies',
        weight: 1,
        provenance_class: 'tenant_supplied',
      },
    ],
    generated_at: AT,
  },
  getCaseTimeline: [
    {
      event_id: '018f3a70-11ab-7e4f-8a5b-6c7d8e9f0a1b',
      type: 'CaseChanged',
      stream: 'case',
      stream_id: CASE,
      sequence: 1,
      occurred_at: '2026-11-19T14:00:00Z',
      data: { case_id: CASE, change: 'opened', state: 'open', legal_hold: false, principal: 'key:investigations', summary: 'Case opened' },
    },
  ],
};
