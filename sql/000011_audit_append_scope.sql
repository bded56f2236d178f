-- The group-committed audit append (tas_audit_append) runs as its owner and
-- takes each row's tenant from its caller. Until now any tenant-scoped
-- connection (tas_service) could call it and append rows for another tenant.
--
-- Now:
-- - only the service's own cross-tenant role (tas_system, 000009) may call
--   it: the audit writer's shared batches and the spool's replay;
-- - a tenant's own transaction writes its audit row through the table's
--   row-level security instead (src/db/audit.ts insertAudit);
-- - as defence in depth, a caller with a tenant set in its transaction
--   (tas.tenant_id) may append only that tenant's rows.
CREATE OR REPLACE FUNCTION tas_audit_append(p_rows jsonb) RETURNS void
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public
  AS $$
  DECLARE
    caller_tenant uuid := tas_current_tenant();
  BEGIN
    IF caller_tenant IS NOT NULL AND EXISTS (
      SELECT 1 FROM jsonb_to_recordset(p_rows) AS r(tenant_id uuid) WHERE r.tenant_id IS DISTINCT FROM caller_tenant
    ) THEN
      RAISE EXCEPTION 'audit rows of another tenant' USING ERRCODE = '42501';
    END IF;
    INSERT INTO audit_log (audit_id, occurred_at, tenant_id, mode, principal, action, target_kind, target_id,
                           status, rule, purpose, cost_amount, cost_currency, request_id)
    SELECT audit_id, occurred_at, tenant_id, mode, principal, action, target_kind, target_id,
           status, rule, purpose, cost_amount, cost_currency, request_id
    FROM jsonb_to_recordset(p_rows) AS r(audit_id uuid, occurred_at timestamptz, tenant_id uuid, mode text,
         principal text, action text, target_kind text, target_id text, status integer, rule text,
         purpose text, cost_amount numeric, cost_currency text, request_id text)
    ON CONFLICT (audit_id) DO NOTHING;
  END
  $$;
REVOKE ALL ON FUNCTION tas_audit_append(jsonb) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION tas_audit_append(jsonb) FROM tas_service;
GRANT EXECUTE ON FUNCTION tas_audit_append(jsonb) TO tas_system;
