-- 000070: the look-ups that run under row-level security lead with the tenant.
--
-- Every statement on a tenant table carries the policy's qual
-- `tenant_id = tas_current_tenant()`. Once a table has an index leading with
-- tenant_id (000045 added a unique (tenant_id, id) beside each referenced
-- table's primary key), a generic plan on a table autovacuum has not yet
-- analysed estimates that qual at the default 0.5 % and may answer it with
-- that index: a walk of every row the tenant holds, filtered. Measured in
-- test/db/hotQueryPlans.test.ts on 100,000 inquiries: the velocity probe
-- went from a few dozen pages to 1,596 (25-50 ms an inquiry), and the
-- shared-values look-up to 1,674. An index that holds the tenant AND the
-- look-up's own key serves both quals in one probe, so the planner has no
-- cheaper walk to prefer, analysed or not; it is also the shape a
-- tenant-distributed (Citus) table wants.
--
-- btree_gin lets a GIN index carry the tenant's uuid beside the jsonb
-- containment the velocity probe asks (trusted extension, shipped with
-- PostgreSQL's contrib modules).
CREATE EXTENSION IF NOT EXISTS btree_gin;

CREATE INDEX inquiries_tenant_presentations_idx ON inquiries
  USING gin (tenant_id, (request->'presentations') jsonb_path_ops) WITH (fastupdate = off);
DROP INDEX inquiries_presentations_idx;

CREATE INDEX entities_tenant_merged_into_idx ON entities (tenant_id, merged_into) WHERE merged_into IS NOT NULL;
DROP INDEX entities_merged_into_idx;

CREATE INDEX observations_tenant_entity_idx ON observations (tenant_id, entity_id, observed_at);
DROP INDEX observations_entity_idx;
