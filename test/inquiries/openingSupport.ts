import { randomUUID } from 'node:crypto';
import type { AuditSink, Principal } from '../../src/auth/index.js';
import { auditInsert } from '../../src/audit/index.js';
import type { AuditRecord } from '../../src/audit/index.js';
import { statusOf, type CallOutcome } from '../../src/platform/outcomes.js';

/** What the tests of an inquiry's opening share: a caller of a tenant, and an audit sink as the edge wires one. */
export const SCOPES: ReadonlySet<string> = new Set(['inquiries:write', 'inquiries:read', 'findings']);

export const principalOf = (tenantId: string): Principal => ({
  tenantId,
  mode: 'test',
  keyId: randomUUID(),
  scopes: new Set(SCOPES),
  label: 'key:one-call-test',
});

/** An audit sink as the edge wires one (src/edge/pipeline.ts), writing the call's row with its inquiry. */
export function sinkFor(principal: Principal): AuditSink {
  const ctx: AuditSink = {
    audit: {
      action: 'createInquiry',
      target_kind: null,
      target_id: null,
      purpose: null,
      rule: null,
      cost_amount: null,
      cost_currency: null,
    },
    auditInTx: () => Promise.resolve(),
    auditRow: (outcome) => auditInsert(record(outcome)),
    auditRecord: (outcome) => record(outcome),
  };
  const auditId = randomUUID();
  const record = (outcome: CallOutcome): AuditRecord => ({
    audit_id: auditId,
    occurred_at: new Date().toISOString(),
    tenant_id: principal.tenantId,
    mode: principal.mode,
    principal: principal.label,
    status: statusOf(outcome),
    request_id: null,
    ...ctx.audit,
  });
  return ctx;
}
