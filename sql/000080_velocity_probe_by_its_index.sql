-- 000080: the velocity probe reaches inquiries through its GIN index only,
-- whatever the table looked like when a connection planned it (issue 37).
--
-- tas_presentation_velocity keeps one generic plan per connection (000031),
-- made at the connection's first inquiry. Since 000046 the primary key of
-- inquiries is (id, tenant_id), and on an empty or small unanalysed table
-- the planner's cheapest answer to `tenant_id = tas_current_tenant()` is a
-- walk of that key on its second column: every inquiry of every tenant,
-- filtered. A service that starts on a young table keeps that plan for as
-- long as its connections live (nothing analyses the table meanwhile), and
-- each inquiry reads more than the one before: measured on the bench's
-- service after 320 inquiries, 351 heap pages of inquiries per inquiry
-- against 4.6 at a6a99f9; the inquiry's throughput fell from 188 to 112
-- req/s in 10 s runs (bench/README, "Session of 2026-11-27").
--
-- The tenant is now compared as text, and the GIN index holds the same
-- expression beside the presentations: the primary key cannot serve that
-- qual, the index serves both (tenant and value in one probe, as 000070
-- wanted), so the one plan there is, on an empty table as on a large one,
-- is the index probe. enable_seqscan = off keeps a tiny table's sequential
-- scan from being chosen over it. Same arguments, result, owner (000035
-- made every SECURITY DEFINER function tas_definer's; CREATE OR REPLACE
-- keeps the owner), search path and grants.
CREATE INDEX inquiries_tenant_text_presentations_idx ON inquiries
  USING gin ((tenant_id::text), (request->'presentations') jsonb_path_ops) WITH (fastupdate = off);
DROP INDEX inquiries_tenant_presentations_idx;

CREATE OR REPLACE FUNCTION tas_presentation_velocity(p_types text[], p_normalised text[])
  RETURNS TABLE (type text, normalised text, last_hour integer, last_day integer)
  LANGUAGE plpgsql STABLE SECURITY DEFINER
  SET search_path = public, pg_temp
  SET plan_cache_mode = force_generic_plan
  SET enable_seqscan = off
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
        AND i.tenant_id::text = tas_current_tenant()::text AND i.mode = tas_current_mode()
        AND i.created_at > now() - interval '1 day'
    ) c;
END
$$;
