-- tas_observations_open: an inquiry's attached testimony as observations of
-- its entity, written for tas_inquiry_open's one call (the observations
-- capability's rows, written by its own function). The rows are the ones
-- src/observations' observationsInsert writes the long way.
--
-- No SET clauses: it runs inside tas_inquiry_open, which set the search path
-- and jit for the call, and a function with its own settings saves and
-- restores them on every call. SECURITY INVOKER, inside the caller's scoped
-- transaction: every row takes
-- the tenant and mode given, and row-level security refuses any other.
CREATE OR REPLACE FUNCTION tas_observations_open(p_tenant uuid, p_mode text, p_entity uuid, p_observations jsonb) RETURNS void
  LANGUAGE plpgsql VOLATILE
  AS $$
BEGIN
  INSERT INTO observations (id, tenant_id, mode, entity_id, kind, provenance_class, body, observed_at)
  SELECT (o->>'id')::uuid, p_tenant, p_mode, p_entity, o->>'kind', o->>'provenance_class', o->'body', (o->>'observed_at')::timestamptz
  FROM jsonb_array_elements(p_observations) o;
END
$$;

REVOKE ALL ON FUNCTION tas_observations_open(uuid, text, uuid, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION tas_observations_open(uuid, text, uuid, jsonb) TO tas_app, tas_service;
