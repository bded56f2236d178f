-- 000029: the owner look-up reads each presented value by its key (issue 15).
-- In 000026 the presented values were joined to entity_identifiers as a
-- plain join; on tables that have not been analysed the planner took the
-- tenant's whole identifier index (its leading tenant and mode columns,
-- which row-level security supplies) and filtered every entry against the
-- values: 3,171 pages for one look-up among 100,000 identifiers, growing with
-- the tenant (test/db/hotQueryPlans.test.ts), and on the bench the statement
-- went from about 1 ms to 5 ms within a minute as identifiers accumulated.
-- One LATERAL look-up per value (as tas_shared_values does, 000023) leaves
-- the planner a single plan: the full primary key of entity_identifiers.
-- Same arguments, locks, result and grants as 000026.
CREATE OR REPLACE FUNCTION tas_lock_and_find_owners(p_keys bigint[], p_types text[], p_normalised text[], p_max_depth integer)
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
      CROSS JOIN LATERAL (
        SELECT i.entity_id FROM entity_identifiers i
        WHERE i.type = p.type AND i.normalised = p.normalised
        OFFSET 0
      ) owned
      JOIN entities e ON e.id = owned.entity_id
      UNION ALL
      SELECT e.id, e.merged_into, e.created_at, c.depth + 1
      FROM chain c JOIN entities e ON e.id = c.merged_into
      WHERE c.depth < p_max_depth
    )
    SELECT DISTINCT c.id, c.created_at FROM chain c WHERE c.merged_into IS NULL
    ORDER BY c.created_at, c.id;
END
$$;
