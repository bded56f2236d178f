-- 000030: a returning subject's known values read by its entity (issue 15).
-- Row-level security adds `tenant_id = ... AND mode = ...` to every read of
-- entity_identifiers and entity_links, and without good statistics the
-- planner takes those two equalities on the primary key's leading columns
-- for more selective than `entity_id = ...` on the entity index alone: it
-- read every identifier of the tenant and filtered them (100,000 rows for
-- one entity's few in test/db/hotQueryPlans.test.ts; 2.4 ms per inquiry on
-- the bench's returning subjects, and growing with the tenant).
--
-- The entity indexes now carry the same two columns after the entity, so
-- for a read by entity they match all three conditions and are the planner's
-- one good choice however the statistics stand. They lead with the entity on
-- purpose: an index leading with tenant and mode would also match a look-up
-- by value, and a plan cached while the tables were still empty took it for
-- the owner and shared-values look-ups, which then read the tenant's whole
-- range (tried on the bench and measured: 2,700 pages per look-up). The old
-- single-column indexes are a prefix of the new ones and are dropped.
CREATE INDEX entity_identifiers_owner_idx ON entity_identifiers (entity_id, tenant_id, mode);
DROP INDEX entity_identifiers_entity_idx;
CREATE INDEX entity_links_owner_idx ON entity_links (entity_id, tenant_id, mode);
DROP INDEX entity_links_entity_idx;
