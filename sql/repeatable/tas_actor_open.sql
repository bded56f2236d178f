-- tas_actor_open: a new actor, its stream's first events each with its
-- publish row naming it, then its jobs and timers as emitted; written for
-- tas_inquiry_open's one call (the actor runtime's rows, written by its own
-- function). The statement is the one actors/store.ts actorInsert and
-- appendEventsAndOutbox send for a stream that is new; its answer is what
-- that append answers (the events' sequence numbers and times, the outbox
-- rows' ids), which actors/runtime.ts createWith reads back.
--
-- No SET clauses: it runs inside tas_inquiry_open, which set the search path
-- and jit for the call, and a function with its own settings saves and
-- restores them on every call. SECURITY INVOKER, inside the caller's scoped
-- transaction: every row takes
-- the tenant and mode given, and row-level security refuses any other.
CREATE OR REPLACE FUNCTION tas_actor_open(p_tenant uuid, p_mode text, p_id uuid, p_actor jsonb, p_events jsonb, p_outbox jsonb)
  RETURNS jsonb
  LANGUAGE plpgsql VOLATILE
  AS $$
DECLARE
  v_events jsonb;
  v_published jsonb;
  v_others jsonb;
BEGIN
  INSERT INTO actors (id, tenant_id, mode, kind, machine_version, snapshot, version)
  VALUES (p_id, p_tenant, p_mode, p_actor->>'kind', (p_actor->>'machine_version')::integer, p_actor->'snapshot', 1);
  WITH ev AS (
    INSERT INTO actor_events (stream_id, seq, tenant_id, mode, type, payload)
    SELECT p_id, r.ord::int, p_tenant, p_mode, r.elem->>'type', r.elem->'payload'
    FROM jsonb_array_elements(p_events) WITH ORDINALITY AS r(elem, ord)
    RETURNING stream_id, seq, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS occurred_at
  ), published AS (
    INSERT INTO outbox (tenant_id, mode, actor_id, kind, payload)
    SELECT p_tenant, p_mode, p_id, 'publish', jsonb_build_object('stream_id', stream_id, 'seq', seq)
    FROM (SELECT * FROM ev ORDER BY seq) e
    RETURNING id
  )
  SELECT coalesce((SELECT jsonb_agg(jsonb_build_array(seq, occurred_at) ORDER BY seq) FROM ev), '[]'::jsonb),
         coalesce((SELECT jsonb_agg(id ORDER BY id) FROM published), '[]'::jsonb)
  INTO v_events, v_published;
  WITH others AS (
    INSERT INTO outbox (tenant_id, mode, actor_id, kind, payload)
    SELECT p_tenant, p_mode, p_id, r.elem->>'kind', r.elem->'payload'
    FROM jsonb_array_elements(p_outbox) WITH ORDINALITY AS r(elem, ord)
    ORDER BY r.ord
    RETURNING id
  )
  SELECT coalesce((SELECT jsonb_agg(id ORDER BY id) FROM others), '[]'::jsonb) INTO v_others;
  RETURN jsonb_build_object('events', v_events, 'published', v_published, 'others', v_others);
END
$$;

REVOKE ALL ON FUNCTION tas_actor_open(uuid, text, uuid, jsonb, jsonb, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION tas_actor_open(uuid, text, uuid, jsonb, jsonb, jsonb) TO tas_app, tas_service;
