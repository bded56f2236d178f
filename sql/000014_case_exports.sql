-- 000014: evidentiary exports of signed-off cases (DESIGN.md section 3,
-- "Evidentiary bundle"; issue 14).
--
-- export_signing_keys: the service's Ed25519 keys. The public half is
-- published as a JWKS at /.well-known/tas-export-keys.json, retired keys
-- included, so a bundle signed before a rotation still verifies; the private
-- half is sealed (AES-256-GCM under a key derived from the key pepper) and
-- only the service's own role (tas_system) reads it. One key is active.
CREATE TABLE export_signing_keys (
  kid text PRIMARY KEY,
  public_jwk jsonb NOT NULL,
  private_sealed bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  retired_at timestamptz,
  CONSTRAINT export_signing_keys_kid_check CHECK (kid ~ '^[A-Za-z0-9_-]{8,64}$')
);
CREATE UNIQUE INDEX export_signing_keys_one_active ON export_signing_keys ((true)) WHERE retired_at IS NULL;
GRANT SELECT, INSERT, UPDATE ON export_signing_keys TO tas_system;

-- case_exports: one bundle per signed-off state of a case and format. The
-- bundle's bytes are kept with the row (PostgreSQL, so any edge can serve
-- the download); `case_sequence` is the case's event sequence when the
-- export was asked, so asking again before anything changes returns the same
-- export instead of building a second one.
CREATE TABLE case_exports (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  case_id uuid NOT NULL,
  case_sequence integer NOT NULL,
  format text NOT NULL,
  status text NOT NULL,
  -- Asking again for a failed export queues it again: the job id is the export id and this attempt number.
  attempt integer NOT NULL DEFAULT 1,
  requested_by text NOT NULL,
  requested_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  manifest_sha256 text,
  kid text REFERENCES export_signing_keys (kid),
  bundle bytea,
  size bigint,
  failure text,
  CONSTRAINT case_exports_mode_check CHECK (mode IN ('live', 'test')),
  CONSTRAINT case_exports_status_check CHECK (status IN ('queued', 'building', 'ready', 'failed')),
  CONSTRAINT case_exports_ready_check CHECK (status <> 'ready' OR (bundle IS NOT NULL AND manifest_sha256 IS NOT NULL AND kid IS NOT NULL)),
  CONSTRAINT case_exports_once UNIQUE (tenant_id, mode, case_id, case_sequence, format)
);
CREATE INDEX case_exports_open_idx ON case_exports (requested_at) WHERE status IN ('queued', 'building');
ALTER TABLE case_exports ENABLE ROW LEVEL SECURITY;
CREATE POLICY case_exports_isolation ON case_exports TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
CREATE POLICY case_exports_system ON case_exports TO tas_system USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE ON case_exports TO tas_service;
GRANT SELECT, INSERT, UPDATE ON case_exports TO tas_system;
