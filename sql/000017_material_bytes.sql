-- 000017: material as bytes (issue 14). A declaration with sha256 and
-- size_bytes gets a signed, single-use, expiring upload URL; the PUT streams
-- the bytes here, and a worker extracts from them.
--
-- The URL's secret is kept only as its SHA-256 (like API keys), with its
-- expiry; `received_at` marks its single use. `failure_reason` says why
-- extraction gave up (a neutral code, never the file's content).
ALTER TABLE material
  ADD COLUMN upload_token_hash text,
  ADD COLUMN upload_expires_at timestamptz,
  ADD COLUMN received_at timestamptz,
  ADD COLUMN failure_reason text;

-- The bytes, content-addressed per tenant and mode and cut into chunks of at
-- most 1 MiB: PostgreSQL by default, so every edge and worker reads the same
-- store, with no second system to run (DESIGN decision in
-- docs/design-decisions.md). Two declarations of the same bytes share the
-- rows. Transient material's rows live only until its extraction ends (D35).
CREATE TABLE material_bytes (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  sha256 text NOT NULL,
  seq int NOT NULL,
  chunk bytea NOT NULL,
  CONSTRAINT material_bytes_pkey PRIMARY KEY (tenant_id, mode, sha256, seq),
  CONSTRAINT material_bytes_mode_check CHECK (mode IN ('live', 'test')),
  CONSTRAINT material_bytes_sha256_check CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  CONSTRAINT material_bytes_chunk_check CHECK (octet_length(chunk) BETWEEN 1 AND 1048576)
);
ALTER TABLE material_bytes ENABLE ROW LEVEL SECURITY;
CREATE POLICY material_bytes_isolation ON material_bytes TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
GRANT SELECT, INSERT, DELETE ON material_bytes TO tas_service;
-- The service's own cross-tenant role (000009) sees every table; it has no
-- use for the bytes today, but the rule is one policy per role everywhere.
CREATE POLICY material_bytes_system ON material_bytes TO tas_system USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, DELETE ON material_bytes TO tas_system;
