-- 000022: the velocity look-up reads the index, under row-level security too
-- (issue 15). Row-level security lets an index serve a condition only when
-- its operator is leakproof; jsonb containment (@>) is not, so under the
-- service role the planner could never use inquiries_presentations_idx and
-- read every inquiry of the last day instead: 18 ms per inquiry within a
-- 15-second benchmark, 85 % of PostgreSQL's time (pg_stat_statements), and
-- growing with the tenant's traffic. This narrow SECURITY DEFINER function
-- asks the same question as the owner, scoped by hand to the caller's tenant
-- and mode exactly as the policy scopes it, and returns counts only.
CREATE FUNCTION tas_presentation_velocity(p_types text[], p_normalised text[])
  RETURNS TABLE (type text, normalised text, last_hour integer, last_day integer)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
  AS $$
    SELECT p.type, p.normalised, c.last_hour, c.last_day
    FROM unnest(p_types, p_normalised) AS p(type, normalised)
    CROSS JOIN LATERAL (
      SELECT count(*) FILTER (WHERE i.created_at > now() - interval '1 hour')::int AS last_hour, count(*)::int AS last_day
      FROM inquiries i
      WHERE i.request->'presentations' @> jsonb_build_array(jsonb_build_object('type', p.type, 'normalised', p.normalised))
        AND i.tenant_id = tas_current_tenant() AND i.mode = tas_current_mode()
        AND i.created_at > now() - interval '1 day'
    ) c
  $$;
REVOKE ALL ON FUNCTION tas_presentation_velocity(text[], text[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION tas_presentation_velocity(text[], text[]) TO tas_service;

-- A GIN index buffers new entries in a pending list that every search reads
-- in full until a vacuum merges it; at inquiry rates that list grows faster
-- than autovacuum empties it. Without it each insert updates the index in
-- place, a cost paid once per inquiry instead of on every later search.
ALTER INDEX inquiries_presentations_idx SET (fastupdate = off);
SELECT gin_clean_pending_list('inquiries_presentations_idx'::regclass);
