-- 000046: every primary key and unique constraint of a tenant table holds
-- tenant_id (issue 39, docs/scaling.md "A Citus-ready schema"). Citus can
-- enforce uniqueness only within one shard, so it refuses to distribute a
-- table whose key lacks the distribution column; this migration closes the
-- gaps test/platform/citusReady.test.ts listed for the tenant tables.
--
-- Each key gains tenant_id as its LAST column: (id) becomes (id, tenant_id),
-- (stream_id, seq) becomes (stream_id, seq, tenant_id), and so on. Citus
-- needs the column in the key, not in front. Kept behind, the key still
-- serves every look-up it served, by id alone too: the relay's outbox rows
-- (as tas_system), the key checks before any tenant is known
-- (tas_key_verify_any, tas_key_salt, tas_key_rehash), the session token claim,
-- the owner look-up's entities, the chain of actor events by stream. No
-- second index on (id) is needed, and none is written to.
--
-- Put in front it would cost more than a second index: on tables not yet
-- analysed (a busy tenant's before autovacuum comes), the planner ANDs a scan
-- of the tenant's whole range of such an index with the right one; measured
-- on test/db/hotQueryPlans.test.ts's 100,000 rows, the shared-values look-up
-- touched 9,494 pages with (tenant_id, id) keys on entities and observations,
-- 1,674 with 000045's unique (tenant_id, id) beside the key of entities, and
-- 86 with the keys below.
--
-- For the tables other tables reference, the new primary key replaces
-- 000045's unique (tenant_id, id), so they hold one index fewer than since
-- 000045; their foreign keys are dropped and made again against it (same
-- columns (tenant_id, x) -> (tenant_id, id), same NO ACTION: a foreign key is
-- bound to the index it was made against, and the unique constraint cannot go
-- while keys use it; PostgreSQL matches the referenced columns to a key as a
-- set, whatever their order in it).
--
-- Ids stay unique across tenants by how they are made (random uuids,
-- sequences); the database now guarantees them per tenant.
--
-- The audit tables (audit_log, audit_chain, audit_unsealed) are left as they
-- are: calls refused before any tenant is known are audited with a NULL
-- tenant_id, the log is one sequence across tenants and the sealer works
-- across them; Citus keeps them as local tables on the coordinator
-- (docs/scaling.md).
--
-- Building a key reads its table, and making a foreign key again reads the
-- referencing table once: on a large deployment, run it in a quiet hour.

-- Foreign keys against the unique pairs 000045 added, dropped to be made again below.
ALTER TABLE entities DROP CONSTRAINT entities_merged_into_fkey;
ALTER TABLE entity_identifiers DROP CONSTRAINT entity_identifiers_entity_id_fkey;
ALTER TABLE entity_links DROP CONSTRAINT entity_links_entity_id_fkey;
ALTER TABLE inquiries DROP CONSTRAINT inquiries_entity_id_fkey;
ALTER TABLE observations DROP CONSTRAINT observations_entity_id_fkey;
ALTER TABLE assessments DROP CONSTRAINT assessments_entity_id_fkey, DROP CONSTRAINT assessments_inquiry_id_fkey;
ALTER TABLE monitors DROP CONSTRAINT monitors_last_assessment_id_fkey;
ALTER TABLE sessions DROP CONSTRAINT sessions_inquiry_id_fkey, DROP CONSTRAINT sessions_opened_by_key_fkey;
ALTER TABLE session_frames DROP CONSTRAINT session_frames_session_id_fkey;
ALTER TABLE material_extractions DROP CONSTRAINT material_extractions_material_id_fkey;
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_endpoint_id_fkey;

-- The referenced tables: the key (id, tenant_id) replaces both the key on id and the unique pair.
ALTER TABLE entities DROP CONSTRAINT entities_tenant_id_id_key, DROP CONSTRAINT entities_pkey,
  ADD CONSTRAINT entities_pkey PRIMARY KEY (id, tenant_id);
ALTER TABLE inquiries DROP CONSTRAINT inquiries_tenant_id_id_key, DROP CONSTRAINT inquiries_pkey,
  ADD CONSTRAINT inquiries_pkey PRIMARY KEY (id, tenant_id);
ALTER TABLE assessments DROP CONSTRAINT assessments_tenant_id_id_key, DROP CONSTRAINT assessments_pkey,
  ADD CONSTRAINT assessments_pkey PRIMARY KEY (id, tenant_id);
ALTER TABLE sessions DROP CONSTRAINT sessions_tenant_id_id_key, DROP CONSTRAINT sessions_pkey,
  ADD CONSTRAINT sessions_pkey PRIMARY KEY (id, tenant_id);
ALTER TABLE api_keys DROP CONSTRAINT api_keys_tenant_id_id_key, DROP CONSTRAINT api_keys_pkey,
  ADD CONSTRAINT api_keys_pkey PRIMARY KEY (id, tenant_id);
ALTER TABLE material DROP CONSTRAINT material_tenant_id_id_key, DROP CONSTRAINT material_pkey,
  ADD CONSTRAINT material_pkey PRIMARY KEY (id, tenant_id);
ALTER TABLE webhook_endpoints DROP CONSTRAINT webhook_endpoints_tenant_id_id_key, DROP CONSTRAINT webhook_endpoints_pkey,
  ADD CONSTRAINT webhook_endpoints_pkey PRIMARY KEY (id, tenant_id);

-- The others.
ALTER TABLE outbox DROP CONSTRAINT outbox_pkey, ADD CONSTRAINT outbox_pkey PRIMARY KEY (id, tenant_id);
ALTER TABLE actors DROP CONSTRAINT actors_pkey, ADD CONSTRAINT actors_pkey PRIMARY KEY (id, tenant_id);
ALTER TABLE actor_events DROP CONSTRAINT actor_events_pkey, ADD CONSTRAINT actor_events_pkey PRIMARY KEY (stream_id, seq, tenant_id);
ALTER TABLE case_exports DROP CONSTRAINT case_exports_pkey, ADD CONSTRAINT case_exports_pkey PRIMARY KEY (id, tenant_id);
ALTER TABLE monitors DROP CONSTRAINT monitors_pkey, ADD CONSTRAINT monitors_pkey PRIMARY KEY (id, tenant_id);
ALTER TABLE observations DROP CONSTRAINT observations_pkey, ADD CONSTRAINT observations_pkey PRIMARY KEY (id, tenant_id);
ALTER TABLE session_frames DROP CONSTRAINT session_frames_pkey, ADD CONSTRAINT session_frames_pkey PRIMARY KEY (session_id, seq, tenant_id);
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_pkey, ADD CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (id, tenant_id);
ALTER TABLE material_extractions DROP CONSTRAINT material_extractions_pkey, DROP CONSTRAINT material_extractions_seq_key,
  ADD CONSTRAINT material_extractions_pkey PRIMARY KEY (binding_id, tenant_id),
  ADD CONSTRAINT material_extractions_seq_key UNIQUE (material_id, seq, tenant_id);

-- The foreign keys again, now against the primary keys.
ALTER TABLE entities ADD CONSTRAINT entities_merged_into_fkey FOREIGN KEY (tenant_id, merged_into) REFERENCES entities (tenant_id, id);
ALTER TABLE entity_identifiers ADD CONSTRAINT entity_identifiers_entity_id_fkey FOREIGN KEY (tenant_id, entity_id) REFERENCES entities (tenant_id, id);
ALTER TABLE entity_links ADD CONSTRAINT entity_links_entity_id_fkey FOREIGN KEY (tenant_id, entity_id) REFERENCES entities (tenant_id, id);
ALTER TABLE inquiries ADD CONSTRAINT inquiries_entity_id_fkey FOREIGN KEY (tenant_id, entity_id) REFERENCES entities (tenant_id, id);
ALTER TABLE observations ADD CONSTRAINT observations_entity_id_fkey FOREIGN KEY (tenant_id, entity_id) REFERENCES entities (tenant_id, id);
ALTER TABLE assessments ADD CONSTRAINT assessments_entity_id_fkey FOREIGN KEY (tenant_id, entity_id) REFERENCES entities (tenant_id, id),
  ADD CONSTRAINT assessments_inquiry_id_fkey FOREIGN KEY (tenant_id, inquiry_id) REFERENCES inquiries (tenant_id, id);
ALTER TABLE monitors ADD CONSTRAINT monitors_last_assessment_id_fkey FOREIGN KEY (tenant_id, last_assessment_id) REFERENCES assessments (tenant_id, id);
ALTER TABLE sessions ADD CONSTRAINT sessions_inquiry_id_fkey FOREIGN KEY (tenant_id, inquiry_id) REFERENCES inquiries (tenant_id, id),
  ADD CONSTRAINT sessions_opened_by_key_fkey FOREIGN KEY (tenant_id, opened_by_key) REFERENCES api_keys (tenant_id, id);
ALTER TABLE session_frames ADD CONSTRAINT session_frames_session_id_fkey FOREIGN KEY (tenant_id, session_id) REFERENCES sessions (tenant_id, id);
ALTER TABLE material_extractions ADD CONSTRAINT material_extractions_material_id_fkey FOREIGN KEY (tenant_id, material_id) REFERENCES material (tenant_id, id);
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_endpoint_id_fkey FOREIGN KEY (tenant_id, endpoint_id) REFERENCES webhook_endpoints (tenant_id, id);
