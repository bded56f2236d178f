-- tas_entity_open: a new subject's entity, its identifiers and its links,
-- written for tas_inquiry_open's one call (the entities capability's rows,
-- written by its own function; docs/architecture.md "Who owns which table").
-- The rows are the ones src/entities' resolution writes the long way
-- (newEntityPlan); test/inquiries/oneCallParity compares the two.
--
-- No SET clauses: it runs inside tas_inquiry_open, which set the search path
-- and jit for the call, and a function with its own settings saves and
-- restores them on every call. SECURITY INVOKER, inside the caller's scoped
-- transaction: every row takes
-- the tenant and mode given, and row-level security refuses any other.
CREATE OR REPLACE FUNCTION tas_entity_open(p_tenant uuid, p_mode text, p_entity jsonb) RETURNS void
  LANGUAGE plpgsql VOLATILE
  AS $$
DECLARE
  v_entity uuid := (p_entity->>'id')::uuid;
BEGIN
  INSERT INTO entities (id, tenant_id, mode) VALUES (v_entity, p_tenant, p_mode);
  INSERT INTO entity_identifiers (tenant_id, mode, type, normalised, value, entity_id)
  SELECT p_tenant, p_mode, e->>'type', e->>'normalised', e->>'value', v_entity
  FROM jsonb_array_elements(p_entity->'identifiers') e
  ON CONFLICT ON CONSTRAINT entity_identifiers_pkey DO NOTHING;
  INSERT INTO entity_links (tenant_id, mode, type, normalised, value, entity_id)
  SELECT p_tenant, p_mode, e->>'type', e->>'normalised', e->>'value', v_entity
  FROM jsonb_array_elements(p_entity->'links') e
  ON CONFLICT ON CONSTRAINT entity_links_pkey DO UPDATE SET last_seen_at = now();
END
$$;

REVOKE ALL ON FUNCTION tas_entity_open(uuid, text, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION tas_entity_open(uuid, text, jsonb) TO tas_app, tas_service;
