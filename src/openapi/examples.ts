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
      provenance_class: 'tenant_supplied', summary: 'Delivered and signed for', stance: 'supports', observed_at: AT, purpose: 'fraud_prevention',
    },
    {
      subject: { entity_id: ENTITY },
      provenance_class: 'tenant_supplied', summary: 'Card declined three times in ten minutes', observed_at: AT, purpose: 'fraud_prevention',
    },
  ],
  createOutcome: { assessment_id: ASSESSMENT, decision_ref: 'order-88213', kind: 'reversed', observed_at: AT, detail: 'Chargeback, reason 10.4' },
  createOutcomeBatch: [
    { assessment_id: ASSESSMENT, decision_ref: 'order-88213', kind: 'reversed', observed_at: AT },
    { assessment_id: '018f3a6e-2c1e-7c11-8f02-3b9d4e6a1c78', decision_ref: 'loan-5521', kind: 'repaid', observed_at: AT },
  ],
  createMaterial: {
    kind: 'text', media_type: 'text/plain', purpose: 'fraud_prevention',
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
        kind: 'material', ref: 'scan-1', material_kind: 'image', media_type: 'image/png',
        sha256: '9f2a4c1e0b7d3f5a8c6e1d2b4a7f9c0e3d5b8a1c4e7f0a2b5d8c1e4f7a0b3c6d', size_bytes: 48213,
      },
    ],
    note: 'Seized phone, export of contacts',
  },
  expandCase: { seed: { presentations: [{ type: 'PHONE', value: '+44 20 7946 0555' }] }, intent: 'investigation', human_gate: true, max_cost: 5 },
  createCaseAssertion: {
    subject: { presentations: [{ type: 'EMAIL', value: 'ring.one@example.org' }] },
    statement: 'Opened three accounts with the same device in one evening',
    disposition: 'weakens',
    observed_at: AT,
  },
  holdCase: { reason: 'Preservation order received', reference: 'PO-2026-118' },
  releaseCase: { reason: 'Preservation order lifted', reference: 'PO-2026-118' },
  reviewCase: { outcome: 'sign_off', note: 'Evidence complete for referral' },
  createMonitor: {
    subject: { presentations: [{ type: 'DOMAIN', value: 'example-shop.example' }] },
    intent: 'counterparty_check',
    purpose: 'fraud_prevention',
    stake: { kind: 'listing' },
    cadence_seconds: 86_400,
    triggers: { label_change: true, score_below: 40 },
  },
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
  low: 12,
  high: 63,
  preliminary: false,
  as_of: AT,
  methodology_version: 'trust-method/2',
  label: { value: 'review', policy_version: 3 },
  evidence: {
    signals: 6, failed_signals: 1, contradictions: 1,
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
        finding_id: 'f-1', about: 'jane.doe@example.org', about_type: 'EMAIL', kind: 'disposable_email',
        statement: 'The domain example.org is not a throw-away inbox provider.', provenance_class: 'computed', trust_band: 'high',
        observed_at: AT, data_class: 'C1', disposition: 'neutral',
      },
      {
        finding_id: 'f-2', about: '+44 20 7946 0321', about_type: 'PHONE', kind: 'graph_shared_value',
        statement: 'The phone number is also carried by 2 other entities of yours, 1 of them with an adverse outcome.', provenance_class: 'tenant_supplied',
        trust_band: 'medium', observed_at: AT, data_class: 'C1', disposition: 'weakens', strength: 'strong',
      },
    ],
    absences: [{ about: 'example.org', about_type: 'DOMAIN', kind: 'timeout', reason: 'The domain registration look-up did not answer within its time.' }],
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

/**
 * Success examples for the operations whose answers carry the central
 * resources; parsed with each operation's success schema by the same test.
 */
export const RESPONSE_EXAMPLES: Readonly<Record<string, unknown>> = {
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
  createCase: { ...caseOut, members: [], budget: { limit: 25, spent: 0, remaining: 25 }, entity_ids: [], sequence: 1, updated_at: caseOut.created_at },
  getCase: caseOut,
  changeCaseMembers: caseOut,
  holdCase: { ...caseOut, legal_hold: true, sequence: 5 },
  releaseCase: { ...caseOut, sequence: 6 },
  reviewCase: { ...caseOut, state: 'signed_off', sequence: 7 },
  closeCase: { ...caseOut, state: 'closed', finding: 'Referred to the police', sequence: 8, closed_at: AT },
  exportCase: {
    export_id: '018f3a74-0a1b-7c2d-8e3f-4a5b6c7d8e9f', case_id: CASE, format: 'bundle', status: 'queued',
    manifest_sha256: null, download_url: null, expires_at: null, requested_at: AT,
  },
  getCaseExport: {
    export_id: '018f3a74-0a1b-7c2d-8e3f-4a5b6c7d8e9f', case_id: CASE, format: 'bundle', status: 'ready',
    manifest_sha256: 'c4e1a9f07b3d25e6081f4a9c3e7b5d2f1a0c8e6b4d2f0a9e7c5b3d1f9e8a7c6b',
    download_url: `https://tas.example/v1/cases/${CASE}/exports/018f3a74-0a1b-7c2d-8e3f-4a5b6c7d8e9f/bundle`,
    expires_at: '2026-11-27T09:30:00Z', requested_at: AT,
  },
  createMonitor: {
    monitor_id: '018f3a75-1b2c-7d3e-8f4a-5b6c7d8e9f0a',
    state: 'active',
    subject: { presentations: [{ type: 'DOMAIN', value: 'example-shop.example' }] },
    intent: 'counterparty_check',
    purpose: 'fraud_prevention',
    stake: { kind: 'listing' },
    cadence_seconds: 86_400,
    triggers: { label_change: true, score_below: 40 },
    case_id: null,
    next_run_at: '2026-11-21T09:30:00Z',
    last_assessment: null,
    last_checked_at: null,
    unchanged_rescans: 0,
    events_url: 'https://tas.example/v1/monitors/018f3a75-1b2c-7d3e-8f4a-5b6c7d8e9f0a/events',
    created_at: AT,
  },
};

/** Ids the examples share, for the tests that check them. */
export const EXAMPLE_IDS = { ENTITY, ASSESSMENT, CASE, INQUIRY };
