import { randomUUID } from 'node:crypto';
import type { AuditRecord } from '../../src/audit/store.js';

/**
 * One audit row for a test: a keyed call of the tenant (live mode, status 200),
 * or an anonymous refusal (401) when the tenant is null, a minute ago unless
 * the test says otherwise.
 */
export function auditRecord(tenantId: string | null, overrides: Partial<AuditRecord> = {}): AuditRecord {
  return {
    audit_id: randomUUID(),
    occurred_at: new Date(Date.now() - 60_000).toISOString(),
    tenant_id: tenantId,
    mode: tenantId ? 'live' : null,
    principal: tenantId ? 'key:x' : 'anonymous',
    action: 'test',
    target_kind: null,
    target_id: null,
    status: tenantId ? 200 : 401,
    rule: null,
    purpose: null,
    cost_amount: null,
    cost_currency: null,
    request_id: null,
    ...overrides,
  };
}
