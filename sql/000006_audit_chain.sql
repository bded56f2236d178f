-- 000006: the audit trail's hash chain (DESIGN 2.6). Rows are chained per
-- tenant and mode (anonymous calls in a chain of their own) by a sealer that
-- runs after the fact, so the request path never serialises on a chain head.
-- A row's link is sha256(previous link || canonical row); `position` is the
-- order of sealing, which is the chain's order. Like the audit log itself,
-- the chain is append-only.

CREATE TABLE audit_chain (
  audit_id uuid PRIMARY KEY REFERENCES audit_log (audit_id),
  chain_key text NOT NULL,
  tenant_id uuid REFERENCES tenants (id),
  mode text,
  position bigint NOT NULL,
  prev_hash bytea NOT NULL,
  hash bytea NOT NULL,
  sealed_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT audit_chain_position_key UNIQUE (chain_key, position)
);
ALTER TABLE audit_chain ENABLE ROW LEVEL SECURITY;
CREATE POLICY audit_chain_read ON audit_chain FOR SELECT TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
GRANT SELECT ON audit_chain TO tas_service;
CREATE TRIGGER audit_chain_append_only BEFORE UPDATE OR DELETE ON audit_chain
  FOR EACH ROW EXECUTE FUNCTION tas_refuse_change();
