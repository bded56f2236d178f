-- 000111: the velocity probe's index holds one key per presented value
-- (issue 37).
--
-- The GIN index of 000080 indexed the tenant and the whole presentations
-- array with jsonb_path_ops: every leaf of every presentation (its type, its
-- value and its normalised form) and the tenant, thirteen keys for an
-- inquiry presenting four values. Five of them are the same for every
-- inquiry of a tenant (the tenant, and EMAIL, PHONE, DOMAIN, ACCOUNT), so
-- each inquiry appended to five posting trees as long as the tenant's
-- history, decompressing and rewriting their last segments: measured on a
-- new subject's one call (tas_inquiry_open, 2,000 calls in a row), 13 GIN
-- insert records and 6.5 KB of WAL per inquiry, a third of its WAL, and the
-- largest single part of the database's CPU besides the heap.
--
-- The probe asks one thing only: how many of this tenant's inquiries in
-- this mode presented this type with this normalised value in the last day.
-- The index now holds exactly that, one text key per presented value
-- ('<tenant> <mode> <type> <normalised>', built by tas_presentation_key),
-- and nothing else: four keys for four values, each almost always new, so an
-- insert is one entry-tree insertion per value, as a btree's would be. The
-- key carries the tenant and the mode, so the probe reads only the caller's
-- own inquiries; the policies' quals stay in the statement as before.
--
-- The key's parts cannot run into each other: a tenant is a uuid, a mode and
-- a type contain no space, and only the last part is free text.
CREATE FUNCTION tas_presentation_key(p_tenant uuid, p_mode text, p_type text, p_normalised text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN p_tenant::text || ' ' || p_mode || ' ' || p_type || ' ' || p_normalised;

-- Every presentation with a type and a normalised form; anything else in the
-- array (a value the service never writes) adds no key. PL/pgSQL, not SQL:
-- a SQL function in an index expression is planned again by every statement
-- that inserts a row (its plan lives only as long as the statement's index
-- state), while a PL/pgSQL function is compiled once per connection. No
-- SET clause (it would save and restore settings for every row); the one
-- function it calls is named with its schema instead.
CREATE FUNCTION tas_presentation_keys(p_tenant uuid, p_mode text, p_presentations jsonb) RETURNS text[]
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
DECLARE
  keys text[] := '{}';
  e jsonb;
BEGIN
  IF jsonb_typeof(p_presentations) <> 'array' THEN
    RETURN keys;
  END IF;
  FOR e IN SELECT jsonb_array_elements(p_presentations) LOOP
    IF jsonb_typeof(e) = 'object' AND e->>'type' IS NOT NULL AND e->>'normalised' IS NOT NULL THEN
      keys := keys || public.tas_presentation_key(p_tenant, p_mode, e->>'type', e->>'normalised');
    END IF;
  END LOOP;
  RETURN keys;
END
$$;

CREATE INDEX inquiries_presentation_keys_idx ON inquiries
  USING gin (tas_presentation_keys(tenant_id, mode, request->'presentations')) WITH (fastupdate = off);
DROP INDEX inquiries_tenant_text_presentations_idx;

-- Same arguments, result, owner, search path, settings and grants as 000080;
-- only the probe changes. The tenant is still compared as text, so no
-- btree can serve that qual and the one plan there is stays the index probe
-- (000080, test/db/velocityPlanYoungTable.test.ts).
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
      WHERE tas_presentation_keys(i.tenant_id, i.mode, i.request->'presentations')
              @> ARRAY[tas_presentation_key(tas_current_tenant(), tas_current_mode(), p.type, p.normalised)]
        AND i.tenant_id::text = tas_current_tenant()::text AND i.mode = tas_current_mode()
        AND i.created_at > now() - interval '1 day'
    ) c;
END
$$;
