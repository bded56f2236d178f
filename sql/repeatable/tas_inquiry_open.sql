-- tas_inquiry_open: a new subject's inquiry in ONE call (issue 37), defined
-- here and only here (a repeatable migration, src/platform/db/repeatable.ts:
-- applied after the numbered files and again whenever this file changes, so
-- a change is an edit of this file, not a new file restating it whole).
-- 000110 created it and 000112 replaced it; both stay as they landed.
--
-- The service scores a subject it has never seen on the history such a
-- subject has (none: no owner of its identifiers, no other entity carrying
-- its values, no inquiry presenting them in the last day) and sends every row
-- of the answer here, as one jsonb argument. In one statement and one
-- implicit transaction the function takes the identifiers' locks, checks that
-- assumption, claims the idempotency key, and writes the inquiry and its
-- ledger entry; every other capability's rows it asks of that capability's
-- own function, in the same transaction: the entity with its identifiers and
-- links (tas_entity_open), the attached testimony (tas_observations_open),
-- the actor with its stream's events, their publish rows, the jobs and
-- timers (tas_actor_open), and the call's audit row (tas_audit_record), each
-- in its own file here. When the subject
-- turns out to be known it writes nothing and answers 'known': the service
-- then opens the inquiry the long way, reading the history first
-- (src/inquiries/engine.ts).
--
-- The rows are the ones the long way writes: the rows in the argument are
-- src/inquiries/openPlan.ts's and effects.ts's, and what this function adds
-- (the concluded_at rule of src/inquiries/store.ts inquiryInsert, the
-- publish rows of actors/store.ts appendEventsAndOutbox, the tenant and mode
-- of every row) is held to the TypeScript by test/inquiries/oneCallParity,
-- which compares the two ways' rows over generated requests.
--
-- SECURITY INVOKER: it runs as the caller, under every table's row-level
-- security, exactly as the transaction it replaces. It scopes itself as
-- scopeTransaction does (the tenant role and the tenant's settings, all
-- transaction-local) and refuses a call inside a transaction already scoped
-- to another tenant or mode, so it can never widen a scope, only take the one
-- its caller could take anyway. Every row takes the tenant and mode of the
-- argument, and the policies' checks refuse any other.
CREATE OR REPLACE FUNCTION tas_inquiry_open(p jsonb) RETURNS jsonb
  LANGUAGE plpgsql VOLATILE
  SET search_path = public, pg_temp
  SET jit = off
  AS $$
DECLARE
  v_tenant uuid := (p->>'tenant_id')::uuid;
  v_mode text := p->>'mode';
  v_inquiry uuid := (p->'inquiry'->>'id')::uuid;
  v_entity uuid := (p->'entity'->>'id')::uuid;
  v_value_types text[] := ARRAY(SELECT jsonb_array_elements_text(p->'values'->'types'));
  v_value_norms text[] := ARRAY(SELECT jsonb_array_elements_text(p->'values'->'normalised'));
  v_appended jsonb;
BEGIN
  IF coalesce(current_setting('tas.tenant_id', true), '') NOT IN ('', v_tenant::text)
     OR coalesce(current_setting('tas.mode', true), '') NOT IN ('', v_mode) THEN
    RAISE EXCEPTION 'tas_inquiry_open: the transaction is scoped to another tenant or mode' USING ERRCODE = '42501';
  END IF;
  PERFORM set_config('role', 'tas_service', true),
          set_config('tas.tenant_id', v_tenant::text, true),
          set_config('tas.mode', v_mode, true);

  -- The identifiers' locks, in the ascending order the service sorted them in, then their owners.
  IF jsonb_array_length(p->'entity'->'lock_keys') > 0 AND EXISTS (
    SELECT 1 FROM tas_lock_and_find_owners(
      ARRAY(SELECT jsonb_array_elements_text(p->'entity'->'lock_keys')::bigint),
      ARRAY(SELECT e->>'type' FROM jsonb_array_elements(p->'entity'->'identifiers') e),
      ARRAY(SELECT e->>'normalised' FROM jsonb_array_elements(p->'entity'->'identifiers') e),
      (p->>'max_chain_depth')::integer)) THEN
    RETURN jsonb_build_object('status', 'known');
  END IF;
  -- The history the service assumed: no other entity carries a value, no inquiry presented one.
  IF cardinality(v_value_types) > 0 AND (
    EXISTS (SELECT 1 FROM tas_shared_values(ARRAY[v_entity], v_value_types, v_value_norms, (p->>'link_window_days')::integer) s
            WHERE s.others > 0 OR s.adverse > 0)
    OR EXISTS (SELECT 1 FROM tas_presentation_velocity(v_value_types, v_value_norms) v WHERE v.last_hour > 0 OR v.last_day > 0)) THEN
    RETURN jsonb_build_object('status', 'known');
  END IF;

  IF jsonb_typeof(p->'idempotency') = 'object' THEN
    INSERT INTO idempotency_keys (tenant_id, mode, key, request_hash, inquiry_id)
    VALUES (v_tenant, v_mode, p->'idempotency'->>'key', p->'idempotency'->>'hash', v_inquiry)
    ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
      RETURN jsonb_build_object('status', 'clash');
    END IF;
  END IF;

  -- Each capability's rows by its own function (docs/architecture.md, "Who owns which table"); this
  -- function writes only inquiries' own: the idempotency key above, the inquiry and its ledger below.
  PERFORM tas_entity_open(v_tenant, v_mode, p->'entity');

  INSERT INTO inquiries (id, tenant_id, mode, entity_id, status, intent, purpose, request, principal, concluded_at)
  SELECT v_inquiry, v_tenant, v_mode, v_entity, i->>'status', i->>'intent', i->>'purpose', i->'request', i->>'principal',
         CASE WHEN i->>'status' IN ('concluded', 'rejected') THEN now() END
  FROM (SELECT p->'inquiry' AS i) x;
  PERFORM tas_observations_open(v_tenant, v_mode, v_entity, p->'observations');
  v_appended := tas_actor_open(v_tenant, v_mode, v_inquiry, p->'actor', p->'events', p->'outbox');
  -- The ledger in the order the machine recorded its assessments.
  INSERT INTO assessments (id, tenant_id, mode, inquiry_id, entity_id, score, low, high, preliminary, as_of,
                           methodology_version, label, evidence, inputs, findings)
  SELECT (a->>'id')::uuid, v_tenant, v_mode, v_inquiry, v_entity, (a->>'score')::integer, (a->>'low')::integer,
         (a->>'high')::integer, (a->>'preliminary')::boolean, (a->>'as_of')::timestamptz, a->>'methodology_version',
         a->'label', a->'evidence', a->'inputs', a->'findings'
  FROM jsonb_array_elements(p->'assessments') WITH ORDINALITY AS r(a, ord)
  ORDER BY r.ord;

  PERFORM tas_audit_record(p->'audit');

  RETURN jsonb_build_object('status', 'written') || v_appended;
END
$$;

REVOKE ALL ON FUNCTION tas_inquiry_open(jsonb) FROM PUBLIC;
-- The tenant pool's login calls it before any role is chosen (tas_app inherits nothing).
GRANT EXECUTE ON FUNCTION tas_inquiry_open(jsonb) TO tas_app, tas_service;
