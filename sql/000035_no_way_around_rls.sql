-- 000035: no way around row-level security (issue 40).
--
-- Until now the service's login, tas_app, could SET ROLE tas_system, whose
-- policies are USING (true) on every table: one injected or mistaken
-- statement on a request's connection could read every tenant. Now:
--
--   tas_app     the service's login for tenants' work. It can become
--               tas_service only (held to one tenant and mode by the
--               policies), and call the narrow functions granted below.
--   tas_ops     a separate login for the service's own cross-tenant work
--               (outbox relay, audit batches and sealing, sweeps,
--               provisioning). It can become tas_system; tas_app cannot.
--               The service opens a small pool of its own for it
--               (DATABASE_SYSTEM_URL, src/db/pool.ts: withSystem).
--   tas_definer owns every SECURITY DEFINER function: not a superuser, not a
--               login, no member, so nobody can become it; its USING (true)
--               policies serve only the functions' own narrow statements.
--
-- Every SECURITY DEFINER function gets a pinned search_path with pg_temp
-- last (a temporary object can never shadow a table or function it uses).
-- Every table under row-level security is FORCEd, so an owner that is not a
-- superuser is held by the policies too. A later migration that writes rows
-- of such a table as a non-superuser owner must do it through a role with a
-- policy (test/db/rlsEscape.test.ts lists what it checks).
--
-- Roles are cluster-wide; passwords are the operator's business
-- (ALTER ROLE tas_ops PASSWORD ...); local development uses trust.

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tas_ops') THEN
    CREATE ROLE tas_ops LOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT NOCREATEDB NOCREATEROLE;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tas_definer') THEN
    CREATE ROLE tas_definer NOLOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT NOCREATEDB NOCREATEROLE;
  END IF;
  IF pg_has_role('tas_app', 'tas_system', 'MEMBER') THEN
    REVOKE tas_system FROM tas_app;
  END IF;
END
$$;

GRANT tas_system TO tas_ops;
GRANT USAGE ON SCHEMA public TO tas_definer;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO tas_definer;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO tas_definer;
REVOKE ALL ON TABLE schema_migrations FROM tas_definer;

-- The functions' own statements see what they filter for themselves (each
-- checks the tenant it is given or the caller's tenant).
DO $$
DECLARE t record;
BEGIN
  FOR t IN SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relrowsecurity LOOP
    EXECUTE format('CREATE POLICY %I ON %I TO tas_definer USING (true) WITH CHECK (true)', t.relname || '_definer', t.relname);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t.relname);
  END LOOP;
END
$$;

-- The relay forgets carried-out rows naming each row's tenant: a row is
-- deleted only where id and tenant agree. The old form, callable by tas_app,
-- deleted any tenant's rows by id.
DROP FUNCTION tas_outbox_forget(bigint[]);
CREATE FUNCTION tas_outbox_forget(p_ids bigint[], p_tenants uuid[]) RETURNS integer
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER
  SET search_path = public, pg_temp
  SET enable_seqscan = off
  SET plan_cache_mode = force_generic_plan
  SET jit = off
  AS $$
DECLARE
  forgotten integer;
BEGIN
  IF cardinality(p_ids) IS DISTINCT FROM cardinality(p_tenants) THEN
    RAISE EXCEPTION 'one tenant per outbox id' USING ERRCODE = '22023';
  END IF;
  DELETE FROM outbox o USING unnest(p_ids, p_tenants) AS f(id, tenant_id)
  WHERE o.id = f.id AND o.tenant_id = f.tenant_id;
  GET DIAGNOSTICS forgotten = ROW_COUNT;
  RETURN forgotten;
END
$$;
REVOKE ALL ON FUNCTION tas_outbox_forget(bigint[], uuid[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION tas_outbox_forget(bigint[], uuid[]) TO tas_ops, tas_system;

-- The last-used mark names the key's tenant (known from the verified key):
-- no call can touch another tenant's key.
DROP FUNCTION tas_key_used(uuid);
CREATE FUNCTION tas_key_used(p_id uuid, p_tenant uuid) RETURNS void
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$ UPDATE api_keys SET last_used_at = now()
        WHERE id = p_id AND tenant_id = p_tenant
          AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute') $$;
REVOKE ALL ON FUNCTION tas_key_used(uuid, uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION tas_key_used(uuid, uuid) TO tas_service, tas_app;

-- Verifying a key before the tenant is known: tas_key_lookup returned any
-- key's row (tenant, scopes, verifier) to whoever named its id, and key ids
-- are public like user names. Now the door takes the proof first: the salt
-- alone (random bytes, nothing of the tenant), then the row only to a caller
-- that presents the key's own keyed hash, which needs the key and the pepper.
DROP FUNCTION tas_key_lookup(uuid);
CREATE FUNCTION tas_key_salt(p_id uuid) RETURNS bytea
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$ SELECT salt FROM api_keys WHERE id = p_id $$;
CREATE FUNCTION tas_key_verify(p_id uuid, p_hash bytea)
  RETURNS TABLE (id uuid, tenant_id uuid, mode text, name text, scopes text[], expires_at timestamptz, revoked_at timestamptz)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$ SELECT id, tenant_id, mode, name, scopes, expires_at, revoked_at FROM api_keys WHERE id = p_id AND hash = p_hash $$;
REVOKE ALL ON FUNCTION tas_key_salt(uuid) FROM PUBLIC;
REVOKE ALL ON FUNCTION tas_key_verify(uuid, bytea) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION tas_key_salt(uuid) TO tas_service, tas_app;
GRANT EXECUTE ON FUNCTION tas_key_verify(uuid, bytea) TO tas_service, tas_app;

-- Every SECURITY DEFINER function: owned by tas_definer, search path pinned.
-- (A non-superuser migrator needs CREATE on the schema for the new owner for
-- the moment of the change; it is taken back at once.)
GRANT CREATE ON SCHEMA public TO tas_definer;
DO $$
DECLARE f record;
BEGIN
  FOR f IN SELECT p.oid::regprocedure AS sig FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
           WHERE n.nspname = 'public' AND p.prosecdef LOOP
    EXECUTE format('ALTER FUNCTION %s OWNER TO tas_definer', f.sig);
    EXECUTE format('ALTER FUNCTION %s SET search_path = public, pg_temp', f.sig);
  END LOOP;
END
$$;
REVOKE CREATE ON SCHEMA public FROM tas_definer;
