-- 000031: the velocity look-up keeps its plan (issue 15).
-- tas_presentation_velocity was a LANGUAGE sql function. PostgreSQL 15 does
-- not cache the plans of a SQL function's statements: every call parsed and
-- planned its one statement afresh, and it could not be inlined either (it is
-- SECURITY DEFINER and carries SET clauses). Measured on this machine in a
-- loop of 2,000 calls: 0.11 ms per call as SQL, 0.03 ms as PL/pgSQL with the
-- plan cached; pg_stat_statements put the statement inside at 0.06 ms, the
-- rest was planning. PL/pgSQL keeps one plan per session. As for
-- tas_shared_values (000023), the plan is forced generic: the array arguments
-- make every custom plan look cheaper, and the statement is written so that
-- its one plan is the index probe per value (test/db/hotQueryPlans.test.ts).
-- Same arguments, result, owner rights, search path and grants.
CREATE OR REPLACE FUNCTION tas_presentation_velocity(p_types text[], p_normalised text[])
  RETURNS TABLE (type text, normalised text, last_hour integer, last_day integer)
  LANGUAGE plpgsql STABLE SECURITY DEFINER
  SET search_path = public
  SET plan_cache_mode = force_generic_plan
  SET jit = off
  AS $$
BEGIN
  RETURN QUERY
    SELECT p.type, p.normalised, c.last_hour, c.last_day
    FROM unnest(p_types, p_normalised) AS p(type, normalised)
    CROSS JOIN LATERAL (
      SELECT count(*) FILTER (WHERE i.created_at > now() - interval '1 hour')::int AS last_hour, count(*)::int AS last_day
      FROM inquiries i
      WHERE i.request->'presentations' @> jsonb_build_array(jsonb_build_object('type', p.type, 'normalised', p.normalised))
        AND i.tenant_id = tas_current_tenant() AND i.mode = tas_current_mode()
        AND i.created_at > now() - interval '1 day'
    ) c;
END
$$;
