-- 000002: persisted actors (snapshot + version), their visible event streams,
-- the outbox the relay turns into jobs and publishes, and the inquiry read
-- side: policies, entities, inquiries, the append-only assessment ledger and
-- idempotency records. Every tenant-owned table carries tenant and mode and is
-- isolated by row-level security like 000001.

-- One row per XState actor (inquiry, monitor, session, case, material item).
-- `version` guards every write (optimistic check under the row lock);
-- `machine_version` says which machine definition wrote the snapshot.
CREATE TABLE actors (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  kind text NOT NULL,
  machine_version integer NOT NULL,
  snapshot jsonb NOT NULL,
  version integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT actors_mode_check CHECK (mode IN ('live', 'test'))
);
ALTER TABLE actors ENABLE ROW LEVEL SECURITY;
CREATE POLICY actors_isolation ON actors TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
GRANT SELECT, INSERT, UPDATE ON actors TO tas_service;

-- What a client may see of an actor, in order. `seq` is assigned under the
-- actor's row lock, so a stream's sequence numbers never commit out of order;
-- it is the SSE `id:` and the `after` cursor.
CREATE TABLE actor_events (
  stream_id uuid NOT NULL,
  seq integer NOT NULL,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  type text NOT NULL,
  payload jsonb NOT NULL,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT actor_events_pkey PRIMARY KEY (stream_id, seq)
);
ALTER TABLE actor_events ENABLE ROW LEVEL SECURITY;
CREATE POLICY actor_events_isolation ON actor_events TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
GRANT SELECT, INSERT ON actor_events TO tas_service;

-- Side effects decided in a transaction, carried out after it commits by the
-- relay (BullMQ jobs, delayed timers, Redis publishes). The relay is
-- infrastructure: it reads across tenants as the owner, never as tas_service.
CREATE TABLE outbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  actor_id uuid,
  kind text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  dispatched_at timestamptz
);
CREATE INDEX outbox_pending_idx ON outbox (id) WHERE dispatched_at IS NULL;
ALTER TABLE outbox ENABLE ROW LEVEL SECURITY;
CREATE POLICY outbox_isolation ON outbox TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
GRANT SELECT, INSERT ON outbox TO tas_service;

-- Policy versions, append-only; the highest version is current.
CREATE TABLE policies (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  version integer NOT NULL,
  body jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  CONSTRAINT policies_pkey PRIMARY KEY (tenant_id, mode, version),
  CONSTRAINT policies_version_check CHECK (version >= 1)
);
ALTER TABLE policies ENABLE ROW LEVEL SECURITY;
CREATE POLICY policies_isolation ON policies TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
GRANT SELECT, INSERT ON policies TO tas_service;

-- Resolved subjects. Overlapping presentations merge entities: the absorbed
-- one points at the survivor through `merged_into` and keeps its id valid.
CREATE TABLE entities (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  merged_into uuid REFERENCES entities (id),
  created_at timestamptz NOT NULL DEFAULT now()
);
-- Finding an entity's merged members happens on every inquiry.
CREATE INDEX entities_merged_into_idx ON entities (merged_into) WHERE merged_into IS NOT NULL;
ALTER TABLE entities ENABLE ROW LEVEL SECURITY;
CREATE POLICY entities_isolation ON entities TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
GRANT SELECT, INSERT, UPDATE (merged_into) ON entities TO tas_service;

-- The normalised identifiers that resolve to an entity (one owner per value).
CREATE TABLE entity_identifiers (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  type text NOT NULL,
  normalised text NOT NULL,
  value text NOT NULL,
  entity_id uuid NOT NULL REFERENCES entities (id),
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT entity_identifiers_pkey PRIMARY KEY (tenant_id, mode, type, normalised)
);
CREATE INDEX entity_identifiers_entity_idx ON entity_identifiers (entity_id);
ALTER TABLE entity_identifiers ENABLE ROW LEVEL SECURITY;
CREATE POLICY entity_identifiers_isolation ON entity_identifiers TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
GRANT SELECT, INSERT, UPDATE (entity_id) ON entity_identifiers TO tas_service;

-- The inquiry read model (the actor's snapshot is the source of its state).
CREATE TABLE inquiries (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  entity_id uuid REFERENCES entities (id),
  status text NOT NULL,
  intent text NOT NULL,
  purpose text NOT NULL,
  request jsonb NOT NULL,
  principal text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  concluded_at timestamptz,
  CONSTRAINT inquiries_status_check CHECK (status IN ('accepted', 'reasoning', 'preliminary', 'concluded', 'rejected'))
);
ALTER TABLE inquiries ENABLE ROW LEVEL SECURITY;
CREATE POLICY inquiries_isolation ON inquiries TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
GRANT SELECT, INSERT, UPDATE (status, concluded_at, entity_id) ON inquiries TO tas_service;

-- The ledger: every assessment ever issued, append-only, with what `tas score`
-- needs to reconstruct it (`inputs`). `ledger_seq` orders an entity's ledger.
CREATE TABLE assessments (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  inquiry_id uuid NOT NULL REFERENCES inquiries (id),
  entity_id uuid REFERENCES entities (id),
  ledger_seq bigint GENERATED ALWAYS AS IDENTITY,
  score integer NOT NULL,
  low integer NOT NULL,
  high integer NOT NULL,
  preliminary boolean NOT NULL,
  as_of timestamptz NOT NULL,
  methodology_version text NOT NULL,
  label jsonb,
  evidence jsonb NOT NULL,
  inputs jsonb NOT NULL,
  findings jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT assessments_bounds_check CHECK (0 <= low AND low <= score AND score <= high AND high <= 100)
);
CREATE INDEX assessments_entity_idx ON assessments (entity_id, ledger_seq);
CREATE INDEX assessments_inquiry_idx ON assessments (inquiry_id, ledger_seq);
ALTER TABLE assessments ENABLE ROW LEVEL SECURITY;
CREATE POLICY assessments_isolation ON assessments TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
GRANT SELECT, INSERT ON assessments TO tas_service;
CREATE TRIGGER assessments_append_only BEFORE UPDATE OR DELETE ON assessments
  FOR EACH ROW EXECUTE FUNCTION tas_refuse_change();

-- Idempotency keys, per tenant and mode, kept at least 24 hours.
CREATE TABLE idempotency_keys (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  inquiry_id uuid NOT NULL,
  status_code integer,
  response jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT idempotency_keys_pkey PRIMARY KEY (tenant_id, mode, key)
);
ALTER TABLE idempotency_keys ENABLE ROW LEVEL SECURITY;
CREATE POLICY idempotency_keys_isolation ON idempotency_keys TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
GRANT SELECT, INSERT, UPDATE (status_code, response) ON idempotency_keys TO tas_service;

-- Observations and outcomes (testimony about entities); feeds the history check.
CREATE TABLE observations (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  entity_id uuid REFERENCES entities (id),
  kind text NOT NULL,
  provenance_class text NOT NULL,
  body jsonb NOT NULL,
  observed_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT observations_kind_check CHECK (kind IN ('observation', 'outcome'))
);
CREATE INDEX observations_entity_idx ON observations (entity_id, observed_at);
ALTER TABLE observations ENABLE ROW LEVEL SECURITY;
CREATE POLICY observations_isolation ON observations TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
GRANT SELECT, INSERT ON observations TO tas_service;
