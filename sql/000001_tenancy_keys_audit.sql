-- 000001: tenants, registry grants, API keys and the audit trail, with the
-- service role and row-level security that isolate tenants (and live from test).
--
-- The service connects as the migration owner but runs every request's
-- transaction as `tas_service` (SET LOCAL ROLE), a role without BYPASSRLS that
-- owns no table, so the policies below always apply. The current tenant and
-- mode are per-transaction settings `tas.tenant_id` and `tas.mode`.

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tas_service') THEN
    CREATE ROLE tas_service NOLOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT;
  END IF;
END
$$;

GRANT USAGE ON SCHEMA public TO tas_service;

CREATE FUNCTION tas_current_tenant() RETURNS uuid
  LANGUAGE sql STABLE
  AS $$ SELECT nullif(current_setting('tas.tenant_id', true), '')::uuid $$;

CREATE FUNCTION tas_current_mode() RETURNS text
  LANGUAGE sql STABLE
  AS $$ SELECT nullif(current_setting('tas.mode', true), '') $$;

CREATE TABLE tenants (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  investigative boolean NOT NULL DEFAULT false,
  authorization_ref text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT tenants_name_key UNIQUE (name)
);
ALTER TABLE tenants ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenants_own ON tenants FOR SELECT TO tas_service USING (id = tas_current_tenant());
GRANT SELECT ON tenants TO tas_service;

-- The catalog every grant is drawn from; not tenant-owned, readable by all.
CREATE TABLE registry_catalog (
  kind text NOT NULL,
  id text NOT NULL,
  description text NOT NULL,
  CONSTRAINT registry_catalog_pkey PRIMARY KEY (kind, id),
  CONSTRAINT registry_catalog_kind_check CHECK (kind IN ('artifact_type', 'intent', 'purpose'))
);
GRANT SELECT ON registry_catalog TO tas_service;

INSERT INTO registry_catalog (kind, id, description) VALUES
  ('artifact_type', 'EMAIL', 'An email address.'),
  ('artifact_type', 'PHONE', 'A telephone number, any format; normalised to E.164.'),
  ('artifact_type', 'DOMAIN', 'An internet domain name.'),
  ('artifact_type', 'URL', 'A web address.'),
  ('artifact_type', 'IP', 'An IPv4 or IPv6 address.'),
  ('artifact_type', 'NAME', 'A person''s or organisation''s name as presented.'),
  ('artifact_type', 'ACCOUNT', 'An account identifier on a platform, as presented.'),
  ('intent', 'pre_transaction', 'Before money or goods move; a preliminary answer is allowed.'),
  ('intent', 'onboarding', 'Opening an account or relationship.'),
  ('intent', 'listing_review', 'Reviewing a listing or offer before publishing it.'),
  ('intent', 'counterparty_check', 'Checking a counterparty before dealing with it.'),
  ('intent', 'investigation', 'Working a case (investigative tenants).'),
  ('purpose', 'fraud_prevention', 'Preventing fraud against the tenant or its users.'),
  ('purpose', 'account_security', 'Protecting accounts from takeover and abuse.'),
  ('purpose', 'credit_risk', 'Assessing the risk of extending credit.'),
  ('purpose', 'marketplace_safety', 'Keeping a marketplace''s buyers and sellers safe.'),
  ('purpose', 'trust_and_safety', 'Protecting users of a platform from harm.'),
  ('purpose', 'investigation', 'A documented investigation under an authorization record.');

CREATE TABLE tenant_grants (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  kind text NOT NULL,
  grant_id text NOT NULL,
  CONSTRAINT tenant_grants_pkey PRIMARY KEY (tenant_id, mode, kind, grant_id),
  CONSTRAINT tenant_grants_catalog_fkey FOREIGN KEY (kind, grant_id) REFERENCES registry_catalog (kind, id),
  CONSTRAINT tenant_grants_mode_check CHECK (mode IN ('live', 'test'))
);
ALTER TABLE tenant_grants ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_grants_isolation ON tenant_grants TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
GRANT SELECT ON tenant_grants TO tas_service;

-- Rule I11: only a salted keyed hash of the secret is kept. `lookup` is the
-- public, non-secret part of the token that finds the row.
CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  name text NOT NULL,
  scopes text[] NOT NULL,
  salt bytea NOT NULL,
  hash bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  revoked_at timestamptz,
  CONSTRAINT api_keys_mode_check CHECK (mode IN ('live', 'test'))
);
ALTER TABLE api_keys ENABLE ROW LEVEL SECURITY;
CREATE POLICY api_keys_isolation ON api_keys TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
GRANT SELECT, INSERT, UPDATE (revoked_at) ON api_keys TO tas_service;

-- Verifying a key happens before the tenant is known, so the look-up is a
-- narrow SECURITY DEFINER function returning one row by id, not table access.
CREATE FUNCTION tas_key_lookup(p_id uuid)
  RETURNS TABLE (id uuid, tenant_id uuid, mode text, name text, scopes text[], salt bytea, hash bytea,
                 expires_at timestamptz, revoked_at timestamptz)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
  AS $$ SELECT id, tenant_id, mode, name, scopes, salt, hash, expires_at, revoked_at FROM api_keys WHERE id = p_id $$;
REVOKE ALL ON FUNCTION tas_key_lookup(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION tas_key_lookup(uuid) TO tas_service;

-- One row per call, refused and unauthenticated ones included (tenant NULL).
-- Append-only: the service role may insert and read, never update or delete,
-- and a trigger refuses both to anyone else too.
CREATE TABLE audit_log (
  seq bigint GENERATED ALWAYS AS IDENTITY,
  audit_id uuid PRIMARY KEY,
  occurred_at timestamptz NOT NULL,
  tenant_id uuid REFERENCES tenants (id),
  mode text,
  principal text NOT NULL,
  action text NOT NULL,
  target_kind text,
  target_id text,
  status integer NOT NULL,
  rule text,
  purpose text,
  cost_amount numeric,
  cost_currency text,
  request_id text,
  CONSTRAINT audit_log_seq_key UNIQUE (seq),
  CONSTRAINT audit_log_mode_check CHECK (mode IS NULL OR mode IN ('live', 'test'))
);
CREATE INDEX audit_log_tenant_seq_idx ON audit_log (tenant_id, mode, seq);
ALTER TABLE audit_log ENABLE ROW LEVEL SECURITY;
CREATE POLICY audit_log_read ON audit_log FOR SELECT TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
CREATE POLICY audit_log_append ON audit_log FOR INSERT TO tas_service
  WITH CHECK (tenant_id IS NULL OR (tenant_id = tas_current_tenant() AND mode = tas_current_mode()));
GRANT SELECT, INSERT ON audit_log TO tas_service;

CREATE FUNCTION tas_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION tas_refuse_change();

-- Calls that change nothing (reads, refusals, 401s) append their audit rows in
-- batches from many tenants at once; this function is the one narrow door for
-- that, and it can only append.
CREATE FUNCTION tas_audit_append(p_rows jsonb) RETURNS void
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public
  AS $$
    INSERT INTO audit_log (audit_id, occurred_at, tenant_id, mode, principal, action, target_kind, target_id,
                           status, rule, purpose, cost_amount, cost_currency, request_id)
    SELECT audit_id, occurred_at, tenant_id, mode, principal, action, target_kind, target_id,
           status, rule, purpose, cost_amount, cost_currency, request_id
    FROM jsonb_to_recordset(p_rows) AS r(audit_id uuid, occurred_at timestamptz, tenant_id uuid, mode text,
         principal text, action text, target_kind text, target_id text, status integer, rule text,
         purpose text, cost_amount numeric, cost_currency text, request_id text)
    ON CONFLICT (audit_id) DO NOTHING
  $$;
REVOKE ALL ON FUNCTION tas_audit_append(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION tas_audit_append(jsonb) TO tas_service;
