-- tas_audit_record: one call's audit row, given whole as the jsonb of an
-- audit_log row, written for tas_inquiry_open's one call (the audit
-- capability's row, written by its own function). The row is the one
-- src/audit's auditInsert writes the long way; nothing when it is null.
--
-- No SET clauses: it runs inside tas_inquiry_open, which set the search path
-- and jit for the call, and a function with its own settings saves and
-- restores them on every call. SECURITY INVOKER, inside the caller's scoped
-- transaction: the row carries
-- its own tenant, and row-level security refuses one of another tenant.
CREATE OR REPLACE FUNCTION tas_audit_record(p_audit jsonb) RETURNS void
  LANGUAGE plpgsql VOLATILE
  AS $$
BEGIN
  IF jsonb_typeof(p_audit) = 'object' THEN
    INSERT INTO audit_log (audit_id, occurred_at, tenant_id, mode, principal, action, target_kind, target_id,
                           status, rule, purpose, cost_amount, cost_currency, request_id)
    SELECT r.audit_id, r.occurred_at, r.tenant_id, r.mode, r.principal, r.action, r.target_kind, r.target_id,
           r.status, r.rule, r.purpose, r.cost_amount, r.cost_currency, r.request_id
    FROM jsonb_populate_record(NULL::audit_log, p_audit) r;
  END IF;
END
$$;

REVOKE ALL ON FUNCTION tas_audit_record(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION tas_audit_record(jsonb) TO tas_app, tas_service;
