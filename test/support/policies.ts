import { bearer } from './service.js';

/**
 * Publishes a tenant policy over the API, as an admin would: fraud
 * prevention before a transaction or at onboarding, template rendering, the
 * findings shown, no rules, and whatever the test sets on top (allowed
 * origins, a default region...). Answers the response, so the test asserts
 * its 201.
 */
export function publishPolicy(base: string, adminKey: string, extra: Record<string, unknown> = {}): Promise<Response> {
  return fetch(`${base}/v1/admin/policies`, {
    method: 'POST',
    headers: { ...bearer(adminKey), 'content-type': 'application/json' },
    body: JSON.stringify({
      allowed_purposes: ['fraud_prevention'],
      allowed_intents: ['pre_transaction', 'onboarding'],
      render_ceiling: 'template',
      show_findings: true,
      rules: [],
      ...extra,
    }),
  });
}
