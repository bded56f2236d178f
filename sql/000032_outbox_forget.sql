-- 000032: the relay forgets carried-out outbox rows in one round trip (issue 15).
-- Below saturation the relay's deletes are rarely grouped, and each took a
-- transaction of its own: START, the role and settings, the DELETE, COMMIT,
-- four round trips, about 0.6 of them per inquiry at half the maximum rate
-- (2.5 round trips per inquiry beside the inquiry's own five). This function
-- is that delete as one statement the service's login runs outside any
-- explicit transaction, with the asynchronous commit set in the same
-- statement (src/actors: deleteDispatchedLazily). Like tas_key_used (000015)
-- it is a narrow SECURITY DEFINER function: it can only delete outbox rows
-- by id, which only ever repeats an at-least-once delivery. Sequential scans
-- are priced out and the plan kept generic, so the plan cached for the
-- session is the primary-key look-up whatever size the outbox had when it
-- was made (test/db/plansCachedEmpty.test.ts).
CREATE FUNCTION tas_outbox_forget(p_ids bigint[]) RETURNS integer
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER
  SET search_path = public
  SET enable_seqscan = off
  SET plan_cache_mode = force_generic_plan
  SET jit = off
  AS $$
DECLARE
  forgotten integer;
BEGIN
  DELETE FROM outbox WHERE id = ANY(p_ids);
  GET DIAGNOSTICS forgotten = ROW_COUNT;
  RETURN forgotten;
END
$$;
REVOKE ALL ON FUNCTION tas_outbox_forget(bigint[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION tas_outbox_forget(bigint[]) TO tas_app, tas_system;
