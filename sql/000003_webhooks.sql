-- 000003: webhook endpoints and their delivery log (DESIGN 2.8 "Webhooks").
-- Both tables are tenant-owned and isolated by row-level security like 000001.
--
-- The signing secret has to be recoverable (we sign every delivery with it),
-- so unlike API keys it cannot be kept as a hash. It is kept sealed:
-- AES-256-GCM under a key derived with HKDF-SHA256 from the service's key
-- pepper (TAS_KEY_PEPPER), with the tenant and endpoint ids as associated
-- data so a sealed secret copied onto another row does not open. The layout
-- of `secret_sealed` is: version byte (1) | 12-byte IV | 16-byte tag |
-- ciphertext (src/webhooks/secret.ts). A database dump alone never yields a
-- secret; rotating the pepper means re-sealing every row.

CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  url text NOT NULL,
  event_types text[] NOT NULL,
  description text,
  secret_sealed bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  disabled_at timestamptz,
  disabled_reason text,
  CONSTRAINT webhook_endpoints_mode_check CHECK (mode IN ('live', 'test')),
  CONSTRAINT webhook_endpoints_event_types_check CHECK (cardinality(event_types) >= 1),
  CONSTRAINT webhook_endpoints_disabled_check CHECK ((disabled_at IS NULL) = (disabled_reason IS NULL))
);
-- Every published event of a webhook type looks up its tenant's enabled endpoints.
CREATE INDEX webhook_endpoints_enabled_idx ON webhook_endpoints (tenant_id, mode) WHERE disabled_at IS NULL;
ALTER TABLE webhook_endpoints ENABLE ROW LEVEL SECURITY;
CREATE POLICY webhook_endpoints_isolation ON webhook_endpoints TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
GRANT SELECT, INSERT, UPDATE (disabled_at, disabled_reason) ON webhook_endpoints TO tas_service;

-- One row per delivery attempt, appended by the webhook worker. `webhook_id`
-- is the Standard Webhooks `webhook-id` header: derived from endpoint and
-- event, so every retry of one delivery carries the same one. `error` is
-- neutral text of our own (`timeout`, `http 503`, ...), never the
-- receiver's body. `next_attempt_at` is set on `retrying` rows only.
CREATE TABLE webhook_deliveries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id),
  webhook_id text NOT NULL,
  event_id uuid NOT NULL,
  event_type text NOT NULL,
  attempt integer NOT NULL,
  status text NOT NULL,
  http_status integer,
  error text,
  next_attempt_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT webhook_deliveries_mode_check CHECK (mode IN ('live', 'test')),
  CONSTRAINT webhook_deliveries_attempt_check CHECK (attempt >= 1),
  CONSTRAINT webhook_deliveries_status_check CHECK (status IN ('succeeded', 'failed', 'retrying', 'gave_up', 'disabled')),
  CONSTRAINT webhook_deliveries_next_attempt_check CHECK ((status = 'retrying') = (next_attempt_at IS NOT NULL))
);
-- The log is read per endpoint and per delivery, newest last.
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, webhook_id, id);
ALTER TABLE webhook_deliveries ENABLE ROW LEVEL SECURITY;
CREATE POLICY webhook_deliveries_isolation ON webhook_deliveries TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
-- Append-only for the service: an attempt, once logged, is history.
GRANT SELECT, INSERT ON webhook_deliveries TO tas_service;
