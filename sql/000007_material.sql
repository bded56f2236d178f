-- 000007: material (DESIGN 2.8 "Material"): declared pieces of content, their
-- content-addressed raw text, and the identifiers extracted from them with
-- their bindings. Every table is tenant-owned and isolated by row-level
-- security like 000001 and 000002.
--
-- Rule D35: with retention_mode=transient nothing of the content is stored:
-- `material` keeps its SHA-256 and size, `material_extractions` the derived
-- values, and `material_content` never receives a row for it.

CREATE TABLE material (
  id text PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  kind text NOT NULL,
  media_type text NOT NULL,
  purpose text NOT NULL,
  sha256 text,
  size bigint,
  retention_mode text NOT NULL,
  data_class text NOT NULL,
  consent_ref text,
  case_id text,
  status text NOT NULL,
  extractor_version text,
  extracted_at timestamptz,
  items integer NOT NULL DEFAULT 0,
  bytes_stored boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT material_mode_check CHECK (mode IN ('live', 'test')),
  CONSTRAINT material_kind_check CHECK (kind IN ('text', 'document', 'image', 'audio', 'video')),
  CONSTRAINT material_retention_check CHECK (retention_mode IN ('standard', 'transient')),
  CONSTRAINT material_data_class_check CHECK (data_class IN ('C0', 'C1', 'C2')),
  CONSTRAINT material_status_check CHECK (status IN ('awaiting_upload', 'received', 'extracting', 'extracted', 'failed', 'discarded')),
  CONSTRAINT material_sha256_check CHECK (sha256 IS NULL OR sha256 ~ '^[0-9a-f]{64}$'),
  CONSTRAINT material_transient_check CHECK (NOT (retention_mode = 'transient' AND bytes_stored)),
  CONSTRAINT material_consent_check CHECK (kind NOT IN ('audio', 'video') OR consent_ref IS NOT NULL)
);
CREATE INDEX material_tenant_sha_idx ON material (tenant_id, mode, sha256);
ALTER TABLE material ENABLE ROW LEVEL SECURITY;
CREATE POLICY material_isolation ON material TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
GRANT SELECT, INSERT, UPDATE ON material TO tas_service;

-- Raw content by hash, per tenant and mode: two declarations of the same
-- content share one row. Only ever written for retention_mode=standard.
CREATE TABLE material_content (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  sha256 text NOT NULL,
  size bigint NOT NULL,
  content text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT material_content_pkey PRIMARY KEY (tenant_id, mode, sha256),
  CONSTRAINT material_content_mode_check CHECK (mode IN ('live', 'test')),
  CONSTRAINT material_content_sha256_check CHECK (sha256 ~ '^[0-9a-f]{64}$')
);
ALTER TABLE material_content ENABLE ROW LEVEL SECURITY;
CREATE POLICY material_content_isolation ON material_content TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
GRANT SELECT, INSERT ON material_content TO tas_service;

-- What was extracted, each with its binding (where it sits in the material).
-- `value` is null where only a fingerprint is kept (C2: outcomes only).
CREATE TABLE material_extractions (
  binding_id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  material_id text NOT NULL REFERENCES material (id),
  seq integer NOT NULL,
  type text NOT NULL,
  value text,
  target_kind text NOT NULL,
  target_id text NOT NULL,
  locator_kind text NOT NULL,
  locator jsonb NOT NULL,
  confidence double precision NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT material_extractions_seq_key UNIQUE (material_id, seq),
  CONSTRAINT material_extractions_mode_check CHECK (mode IN ('live', 'test')),
  CONSTRAINT material_extractions_target_check CHECK (target_kind IN ('artifact', 'fingerprint', 'signal', 'claim')),
  CONSTRAINT material_extractions_locator_check CHECK (locator_kind IN ('text', 'document', 'image', 'audio', 'video', 'structured')),
  CONSTRAINT material_extractions_confidence_check CHECK (confidence >= 0 AND confidence <= 1)
);
ALTER TABLE material_extractions ENABLE ROW LEVEL SECURITY;
CREATE POLICY material_extractions_isolation ON material_extractions TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
GRANT SELECT, INSERT ON material_extractions TO tas_service;
