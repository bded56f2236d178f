-- 000025: the append-only tables an inquiry writes no longer reference
-- tenants (issue 15). Each insert into a table with such a foreign key takes
-- a KEY SHARE lock on the tenant's row; every inquiry writes eight of these
-- tables, so all of one tenant's concurrent inquiries lock the same row, and
-- at 32 connections PostgreSQL turns the shared locks into MultiXacts (17
-- foreign-key checks per inquiry were measured). The key protects nothing
-- here that is not already protected:
-- - a row's tenant_id is never taken from a request: it is the tenant of the
--   authenticated key (api_keys keeps its foreign key, so a key always
--   belongs to a real tenant), set as tas.tenant_id for the transaction;
-- - row-level security refuses any inserted row whose tenant_id is not that
--   tenant (each table's policy condition, which applies to new rows as well
--   as to reads);
-- - tenants are never deleted (no operation or command deletes one).
-- Configuration tables (keys, policies, grants, webhooks, monitors, cases'
-- exports, material) keep theirs: they are written rarely and their rows are
-- what an operator would expect a tenant's removal to be checked against.
ALTER TABLE inquiries DROP CONSTRAINT IF EXISTS inquiries_tenant_id_fkey;
ALTER TABLE actors DROP CONSTRAINT IF EXISTS actors_tenant_id_fkey;
ALTER TABLE actor_events DROP CONSTRAINT IF EXISTS actor_events_tenant_id_fkey;
ALTER TABLE outbox DROP CONSTRAINT IF EXISTS outbox_tenant_id_fkey;
ALTER TABLE assessments DROP CONSTRAINT IF EXISTS assessments_tenant_id_fkey;
ALTER TABLE audit_log DROP CONSTRAINT IF EXISTS audit_log_tenant_id_fkey;
ALTER TABLE audit_chain DROP CONSTRAINT IF EXISTS audit_chain_tenant_id_fkey;
ALTER TABLE entities DROP CONSTRAINT IF EXISTS entities_tenant_id_fkey;
ALTER TABLE entity_identifiers DROP CONSTRAINT IF EXISTS entity_identifiers_tenant_id_fkey;
ALTER TABLE entity_links DROP CONSTRAINT IF EXISTS entity_links_tenant_id_fkey;
ALTER TABLE observations DROP CONSTRAINT IF EXISTS observations_tenant_id_fkey;
ALTER TABLE idempotency_keys DROP CONSTRAINT IF EXISTS idempotency_keys_tenant_id_fkey;
