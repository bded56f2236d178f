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

/** Ids the examples share, for the tests that check them. */
export const EXAMPLE_IDS = { ENTITY, ASSESSMENT, CASE, INQUIRY };
