-- 000045: a reference from one tenant's row to another's is refused by the
-- database itself (issue 39, docs/scaling.md "A Citus-ready schema").
--
-- Until now each of these foreign keys named an id alone, so it only checked
-- that the referenced row existed, in any tenant: an assessment could name
-- another tenant's entity if a bug ever wrote it (row-level security hides
-- the row from reads, not from a foreign key). Each now pairs the tenant:
-- (tenant_id, x) -> (tenant_id, id). That is also the shape Citus needs,
-- where every foreign key between distributed tables carries the
-- distribution column.
--
-- The referenced tables get a unique (tenant_id, id) beside their primary
-- key, which stays as it is: statements and look-ups by id keep their index.
-- (Replacing the primary keys by (tenant_id, id) is the remaining Citus
-- work, listed in test/platform/citusReady.test.ts.) The cost is one more
-- index entry per row written to those tables: for an inquiry, its row, its
-- assessment and, for a new subject, the entity.
--
-- Every one of these columns is NOT NULL or the referencing row's tenant_id
-- is, and every key was plain (NO ACTION), as the new ones are. The audit
-- chain's key to audit_log is left alone: audit rows of calls without a
-- tenant (401s) have a NULL tenant_id, which a paired key would not check.
-- Adding a key validates it against the rows present, so on a large
-- deployment this migration reads each referencing table once.

ALTER TABLE entities ADD CONSTRAINT entities_tenant_id_id_key UNIQUE (tenant_id, id);
ALTER TABLE inquiries ADD CONSTRAINT inquiries_tenant_id_id_key UNIQUE (tenant_id, id);
ALTER TABLE assessments ADD CONSTRAINT assessments_tenant_id_id_key UNIQUE (tenant_id, id);
ALTER TABLE sessions ADD CONSTRAINT sessions_tenant_id_id_key UNIQUE (tenant_id, id);
ALTER TABLE api_keys ADD CONSTRAINT api_keys_tenant_id_id_key UNIQUE (tenant_id, id);
ALTER TABLE material ADD CONSTRAINT material_tenant_id_id_key UNIQUE (tenant_id, id);
ALTER TABLE webhook_endpoints ADD CONSTRAINT webhook_endpoints_tenant_id_id_key UNIQUE (tenant_id, id);

ALTER TABLE entities DROP CONSTRAINT entities_merged_into_fkey,
  ADD CONSTRAINT entities_merged_into_fkey FOREIGN KEY (tenant_id, merged_into) REFERENCES entities (tenant_id, id);
ALTER TABLE entity_identifiers DROP CONSTRAINT entity_identifiers_entity_id_fkey,
  ADD CONSTRAINT entity_identifiers_entity_id_fkey FOREIGN KEY (tenant_id, entity_id) REFERENCES entities (tenant_id, id);
ALTER TABLE entity_links DROP CONSTRAINT entity_links_entity_id_fkey,
  ADD CONSTRAINT entity_links_entity_id_fkey FOREIGN KEY (tenant_id, entity_id) REFERENCES entities (tenant_id, id);
ALTER TABLE inquiries DROP CONSTRAINT inquiries_entity_id_fkey,
  ADD CONSTRAINT inquiries_entity_id_fkey FOREIGN KEY (tenant_id, entity_id) REFERENCES entities (tenant_id, id);
ALTER TABLE observations DROP CONSTRAINT observations_entity_id_fkey,
  ADD CONSTRAINT observations_entity_id_fkey FOREIGN KEY (tenant_id, entity_id) REFERENCES entities (tenant_id, id);
ALTER TABLE assessments DROP CONSTRAINT assessments_entity_id_fkey,
  ADD CONSTRAINT assessments_entity_id_fkey FOREIGN KEY (tenant_id, entity_id) REFERENCES entities (tenant_id, id);
ALTER TABLE assessments DROP CONSTRAINT assessments_inquiry_id_fkey,
  ADD CONSTRAINT assessments_inquiry_id_fkey FOREIGN KEY (tenant_id, inquiry_id) REFERENCES inquiries (tenant_id, id);
ALTER TABLE monitors DROP CONSTRAINT monitors_last_assessment_id_fkey,
  ADD CONSTRAINT monitors_last_assessment_id_fkey FOREIGN KEY (tenant_id, last_assessment_id) REFERENCES assessments (tenant_id, id);
ALTER TABLE sessions DROP CONSTRAINT sessions_inquiry_id_fkey,
  ADD CONSTRAINT sessions_inquiry_id_fkey FOREIGN KEY (tenant_id, inquiry_id) REFERENCES inquiries (tenant_id, id);
ALTER TABLE sessions DROP CONSTRAINT sessions_opened_by_key_fkey,
  ADD CONSTRAINT sessions_opened_by_key_fkey FOREIGN KEY (tenant_id, opened_by_key) REFERENCES api_keys (tenant_id, id);
ALTER TABLE session_frames DROP CONSTRAINT session_frames_session_id_fkey,
  ADD CONSTRAINT session_frames_session_id_fkey FOREIGN KEY (tenant_id, session_id) REFERENCES sessions (tenant_id, id);
ALTER TABLE material_extractions DROP CONSTRAINT material_extractions_material_id_fkey,
  ADD CONSTRAINT material_extractions_material_id_fkey FOREIGN KEY (tenant_id, material_id) REFERENCES material (tenant_id, id);
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_endpoint_id_fkey,
  ADD CONSTRAINT webhook_deliveries_endpoint_id_fkey FOREIGN KEY (tenant_id, endpoint_id) REFERENCES webhook_endpoints (tenant_id, id);
