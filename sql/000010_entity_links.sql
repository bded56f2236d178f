-- Linkage beside merging (issue 10, docs/design-decisions.md "Merging and linkage").
--
-- An entity is resolved on its anchor values only (the strongest personal
-- type presented: ACCOUNT, then EMAIL, then PHONE). The other personal values
-- presented with it (a phone beside an email, say) are links: many entities
-- may carry the same linked value, and that sharing is evidence (a phone
-- farm, one device behind many accounts) instead of a reason to merge them.
CREATE TABLE entity_links (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  type text NOT NULL,
  normalised text NOT NULL,
  entity_id uuid NOT NULL REFERENCES entities (id),
  value text NOT NULL,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT entity_links_pkey PRIMARY KEY (tenant_id, mode, type, normalised, entity_id),
  CONSTRAINT entity_links_mode_check CHECK (mode IN ('live', 'test'))
);
CREATE INDEX entity_links_entity_idx ON entity_links (entity_id);
ALTER TABLE entity_links ENABLE ROW LEVEL SECURITY;
CREATE POLICY entity_links_isolation ON entity_links TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
CREATE POLICY entity_links_system ON entity_links TO tas_system USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE (last_seen_at) ON entity_links TO tas_service;
GRANT SELECT, INSERT, UPDATE, DELETE ON entity_links TO tas_system;
