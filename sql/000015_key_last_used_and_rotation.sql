-- 000015: when a key was last used, and rotation (issue 18).
--
-- last_used_at is approximate by design: a key is verified against the
-- database at most every 750 ms per process (the rest come from the
-- in-process cache), and the mark is written at most once a minute, so a
-- busy key costs one small write a minute, never one per call. Verification
-- happens before the tenant is known, so the mark goes through a narrow
-- SECURITY DEFINER function, like the look-up itself (000001).
ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz;

CREATE FUNCTION tas_key_used(p_id uuid) RETURNS void
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public
  AS $$ UPDATE api_keys SET last_used_at = now()
        WHERE id = p_id AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute') $$;
REVOKE ALL ON FUNCTION tas_key_used(uuid) FROM PUBLIC;
-- Called where tas_key_lookup is: by the service login itself, before any role is chosen (000009).
GRANT EXECUTE ON FUNCTION tas_key_used(uuid) TO tas_service, tas_app;

-- Rotation ends the old key at the end of its grace period by its expiry.
GRANT UPDATE (expires_at) ON api_keys TO tas_service;
