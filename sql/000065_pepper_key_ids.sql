-- Keys derived per purpose from the pepper, with a key id (issue 40).
--
-- A key's stored hash now names the pepper it was made under (pepper_kid, the
-- id `src/auth/keyring.ts` derives from a pepper; NULL for a hash made before
-- derivation per purpose). While the pepper rotates, the edge offers the
-- hashes of every pepper it holds in one call, and a key that matched an
-- earlier one is hashed again under the current pepper on that use, so
-- `tas keys rotate-pepper` can count the keys still waiting.
ALTER TABLE api_keys ADD COLUMN pepper_kid text;

-- The same door as tas_key_verify (000035): the row only to a caller that
-- holds one of the key's keyed hashes; the hash that matched comes back so
-- the caller knows which pepper made it.
CREATE FUNCTION tas_key_verify_any(p_id uuid, p_hashes bytea[])
  RETURNS TABLE (id uuid, tenant_id uuid, mode text, name text, scopes text[], expires_at timestamptz, revoked_at timestamptz, hash bytea, pepper_kid text)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$ SELECT id, tenant_id, mode, name, scopes, expires_at, revoked_at, hash, pepper_kid FROM api_keys
        WHERE id = p_id AND hash = ANY (p_hashes) AND cardinality(p_hashes) <= 4 $$;

-- Rehash on use: only a caller that presents the stored hash (it holds the
-- key and a pepper) may replace it, and only with a hash under a named pepper.
CREATE FUNCTION tas_key_rehash(p_id uuid, p_old bytea, p_new bytea, p_kid text) RETURNS boolean
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$ WITH moved AS (UPDATE api_keys SET hash = p_new, pepper_kid = p_kid
                       WHERE id = p_id AND hash = p_old AND p_kid IS NOT NULL RETURNING 1)
        SELECT EXISTS (SELECT 1 FROM moved) $$;

-- The single-hash door is replaced by the one above.
DROP FUNCTION tas_key_verify(uuid, bytea);

REVOKE ALL ON FUNCTION tas_key_verify_any(uuid, bytea[]) FROM PUBLIC;
REVOKE ALL ON FUNCTION tas_key_rehash(uuid, bytea, bytea, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION tas_key_verify_any(uuid, bytea[]) TO tas_service, tas_app;
GRANT EXECUTE ON FUNCTION tas_key_rehash(uuid, bytea, bytea, text) TO tas_service, tas_app;

-- Owned by tas_definer like every SECURITY DEFINER function (000035).
GRANT CREATE ON SCHEMA public TO tas_definer;
ALTER FUNCTION tas_key_verify_any(uuid, bytea[]) OWNER TO tas_definer;
ALTER FUNCTION tas_key_rehash(uuid, bytea, bytea, text) OWNER TO tas_definer;
REVOKE CREATE ON SCHEMA public FROM tas_definer;
