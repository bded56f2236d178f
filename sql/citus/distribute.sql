-- Citus: which tables are distributed, co-located and replicated (issue 39).
--
-- NOT RUN by this project: Citus is not among Debian's packages, so no test
-- or CI run here has a Citus coordinator to run it on. What is checked, on
-- every test run, is the schema this script needs (test/platform/citusReady.test.ts):
-- every key of a distributed table holds its distribution column (since
-- migration 000046), and no foreign key crosses tenants (since 000045).
--
-- Run once, as the owner, on the coordinator of an empty or freshly
-- restored database after `tas migrate`, in this order (a referenced table
-- is distributed before the tables that reference it):
--
-- 1. Reference tables: the same rows on every node, for joins and foreign
--    keys from any shard. Small, read on the hot path, written rarely.
--    tenants is one: one row per tenant, written only by provisioning, its
--    name unique across tenants, referenced by every tenant table.
-- 2. Every tenant table distributed by tenant_id, all co-located with the
--    first (entities), so one tenant's rows of every table live in the same
--    shard group and an inquiry's transaction runs on one worker node.
-- 3. Local tables stay on the coordinator, not distributed: schema_migrations,
--    and the audit tables audit_log, audit_chain and audit_unsealed. Calls
--    refused before any tenant is known (401s) are audited with a NULL
--    tenant_id, the log is one sequence across tenants, and the sealer chains
--    and seals across them; no tenant table references them. Every call
--    writes one audit row on the coordinator: the audit log does not spread
--    over the workers (docs/scaling.md, "A Citus-ready schema").

CREATE EXTENSION IF NOT EXISTS citus;

-- 1. Reference tables
SELECT create_reference_table('tenants');
SELECT create_reference_table('registry_catalog');
SELECT create_reference_table('export_signing_keys');

-- 2. Distributed by tenant, co-located
SELECT create_distributed_table('entities', 'tenant_id');
SELECT create_distributed_table('actor_events', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('actors', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('api_keys', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('inquiries', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('assessments', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('case_exports', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('entity_identifiers', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('entity_links', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('idempotency_keys', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('material', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('material_bytes', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('material_content', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('material_extractions', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('monitors', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('observations', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('outbox', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('policies', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('request_replays', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('sessions', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('session_frames', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('tenant_grants', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('webhook_endpoints', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('webhook_deliveries', 'tenant_id', colocate_with => 'entities');

-- 4. Functions stay on the coordinator. tas_inquiry_open (000110), a new
--    subject's whole inquiry in one call, is not delegated to a worker with
--    create_distributed_function: it writes the call's audit row, a local
--    table, in the same transaction as the tenant's rows. Its statements
--    each name one tenant, so each is routed to that tenant's shard group,
--    and the transaction commits on one worker and the coordinator.
