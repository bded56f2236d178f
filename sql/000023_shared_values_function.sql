-- 000023: the shared-values statement planned once per connection (issue 15).
-- Sent as a parameterised statement it was planned on every inquiry: 2.5 ms
-- of planning for 0.3 ms of execution, a fifth of PostgreSQL's time per
-- inquiry in the bench (pg_stat_statements with track_planning). PL/pgSQL
-- keeps the plan of a statement for the session, so each pooled connection
-- plans it a few times and then reuses it. SECURITY INVOKER (the default):
-- it reads as the caller, under the caller's row-level security, exactly as
-- the statement did. The statement is the one src/entities/history.ts
-- documents; one LATERAL per value keeps every step a look-up.
CREATE FUNCTION tas_shared_values(p_members uuid[], p_types text[], p_normalised text[], p_link_window_days integer)
  RETURNS TABLE (type text, normalised text, others integer, adverse integer)
  LANGUAGE plpgsql STABLE
  -- The plan cache would otherwise keep planning afresh (custom plans) because the
  -- array arguments make each custom plan look cheaper than the generic one; the
  -- statement is written so the one generic plan is the right one for every input.
  SET plan_cache_mode = force_generic_plan
  AS $$
BEGIN
  RETURN QUERY
    SELECT p.type, p.normalised, s.others, s.adverse
    FROM unnest(p_types, p_normalised) AS p(type, normalised)
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS others, count(*) FILTER (WHERE o.adverse)::int AS adverse
      FROM (
        SELECT x.survivor,
          EXISTS (SELECT 1 FROM observations ob WHERE ob.entity_id = x.survivor
                    AND ((ob.kind = 'outcome' AND ob.body->>'kind' IN ('defaulted', 'reversed', 'exposed'))
                         OR (ob.kind = 'observation' AND ob.body->>'stance' = 'weakens')))
          OR EXISTS (SELECT 1 FROM entities m JOIN observations ob ON ob.entity_id = m.id WHERE m.merged_into = x.survivor
                    AND ((ob.kind = 'outcome' AND ob.body->>'kind' IN ('defaulted', 'reversed', 'exposed'))
                         OR (ob.kind = 'observation' AND ob.body->>'stance' = 'weakens')))
            AS adverse
        FROM (
          SELECT DISTINCT COALESCE(e.merged_into, e.id) AS survivor
          FROM (
            SELECT i.entity_id FROM entity_identifiers i WHERE i.type = p.type AND i.normalised = p.normalised
            UNION
            SELECT l.entity_id FROM entity_links l
            WHERE l.type = p.type AND l.normalised = p.normalised AND l.last_seen_at > now() - make_interval(days => p_link_window_days)
          ) c
          JOIN entities e ON e.id = c.entity_id
          WHERE NOT (e.id = ANY(p_members)) AND NOT (COALESCE(e.merged_into, e.id) = ANY(p_members))
          OFFSET 0
        ) x
      ) o
    ) s;
END
$$;
REVOKE ALL ON FUNCTION tas_shared_values(uuid[], text[], text[], integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION tas_shared_values(uuid[], text[], text[], integer) TO tas_service;
