-- 000026: resolving a subject takes its identifier locks and finds their
-- owners in one call (issue 15). The two were separate statements, and the
-- owners' recursive statement was planned on every inquiry (0.7 ms of
-- planning for a look-up by key). PL/pgSQL keeps one generic plan per
-- connection. VOLATILE on purpose: the owners are read by a statement that
-- starts after the locks are held, so it sees what a transaction that held
-- them before us committed, exactly as the two statements did. SECURITY
-- INVOKER (the default): the caller's row-level security applies.
CREATE FUNCTION tas_lock_and_find_owners(p_keys bigint[], p_types text[], p_normalised text[], p_max_depth integer)
  RETURNS TABLE (id uuid, created_at timestamptz)
  LANGUAGE plpgsql VOLATILE
  SET plan_cache_mode = force_generic_plan
  SET jit = off
  AS $$
BEGIN
  -- In the order given (ascending), so transactions sharing several values cannot deadlock.
  PERFORM pg_advisory_xact_lock(k) FROM unnest(p_keys) WITH ORDINALITY AS l(k, n) ORDER BY n;
  RETURN QUERY
    WITH RECURSIVE chain AS (
      SELECT e.id, e.merged_into, e.created_at, 0 AS depth
      FROM unnest(p_types, p_normalised) AS p(type, normalised)
      JOIN entity_identifiers i ON i.type = p.type AND i.normalised = p.normalised
      JOIN entities e ON e.id = i.entity_id
      UNION ALL
      SELECT e.id, e.merged_into, e.created_at, c.depth + 1
      FROM chain c JOIN entities e ON e.id = c.merged_into
      WHERE c.depth < p_max_depth
    )
    SELECT DISTINCT c.id, c.created_at FROM chain c WHERE c.merged_into IS NULL
    ORDER BY c.created_at, c.id;
END
$$;
REVOKE ALL ON FUNCTION tas_lock_and_find_owners(bigint[], text[], text[], integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION tas_lock_and_find_owners(bigint[], text[], text[], integer) TO tas_service;
