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
--    and the anonymous audit trail (000120): audit_refusals,
--    audit_refusal_links, audit_refusals_unsealed, audit_refusals_retained and
--    audit_refusal_seals. Calls refused before any tenant is known have no
--    tenant to place them by; they are batch-inserted by the audit writer and
--    sealed a batch per link, and no tenant's transaction touches them
--    (docs/design-decisions.md, "Refusals without a tenant"). A tenant's audit
--    rows, chain, work list, retained runs and seals are tenant tables like
--    any other, distributed below: every call of a tenant writes its audit row
--    in the tenant's shard group (docs/scaling.md, "The audit path on Citus").

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
-- The tenants' audit trail (000120), partitioned by month (Citus distributes a partitioned table with its
-- partitions; partitions made later by tas_audit_partitions_ahead are distributed as they attach).
SELECT create_distributed_table('audit_log', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('audit_chain', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('audit_unsealed', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('audit_chain_retained', 'tenant_id', colocate_with => 'entities');
SELECT create_distributed_table('audit_seals', 'tenant_id', colocate_with => 'entities');

-- 4. Functions stay on the coordinator. tas_inquiry_open (000110, 000112), a
--    new subject's whole inquiry in one call, takes one jsonb argument, so it
--    cannot be delegated by a distribution argument. Every statement in it,
--    the call's audit row included (audit_log, and the work list's trigger
--    into audit_unsealed), names one tenant and is routed to that tenant's
--    shard group: the transaction touches one worker node, and the
--    coordinator only routes. The audit writer's batches (tas_audit_append)
--    of calls that change nothing span tenants: one distributed transaction
--    per batch of up to 500 rows, not per call, with the anonymous rows of
--    the batch on the coordinator. The sealer's pass over the tenants' trail
--    is one background transaction over the shards that hold due rows.
--
--    Not run here (see above): whether Citus accepts the statement trigger
--    with a transition table that lists audit_log's rows in audit_unsealed
--    (000021) on a distributed table is untested; if it does not, the
--    trigger's insert moves into the statements that write audit_log.
