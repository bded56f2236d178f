-- 000020: the Idempotency-Key header on the POSTs that create (issue 16).
-- One row per (tenant, mode, operation, key): the request's hash, and once
-- answered its status and body, replayed to a retry with the same key and
-- body. Answers that carry a secret (keys, webhook secrets, session tokens,
-- upload URLs) are never stored, so those operations do not take the header.
CREATE TABLE request_replays (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  operation text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  status_code integer,
  response jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  answered_at timestamptz,
  CONSTRAINT request_replays_pkey PRIMARY KEY (tenant_id, mode, operation, key),
  CONSTRAINT request_replays_mode_check CHECK (mode IN ('live', 'test')),
  CONSTRAINT request_replays_answered_check CHECK ((status_code IS NULL) = (answered_at IS NULL))
);
ALTER TABLE request_replays ENABLE ROW LEVEL SECURITY;
CREATE POLICY request_replays_isolation ON request_replays TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
CREATE POLICY request_replays_system ON request_replays TO tas_system USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE (request_hash, status_code, response, answered_at, created_at), DELETE ON request_replays TO tas_service;
GRANT SELECT, INSERT, UPDATE, DELETE ON request_replays TO tas_system;
