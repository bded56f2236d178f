-- 000009: the service logs in as `tas_app`, a role that is not a superuser,
-- owns no table, cannot bypass row-level security and, on its own, may touch
-- no table at all. Migrations keep running as the owner (DATABASE_OWNER_URL).
--
-- Every transaction the service runs picks one of two roles first
-- (SET LOCAL ROLE, transaction-scoped):
--   tas_service  a tenant's work, held to that tenant by the policies of
--                000001-000007 (unchanged);
--   tas_system   the service's own cross-tenant work (outbox relay, audit
--                batches and sealing, provisioning, schedules), with explicit
--                policies below; never a superuser, never an owner, so a bug
--                cannot alter the schema, read files or switch identity.
-- A statement run without choosing (or after RESET ROLE) runs as tas_app and
-- is refused: mistakes fail closed.
--
-- Roles are cluster-wide; the password of tas_app (if any) is the operator's
-- business (ALTER ROLE tas_app PASSWORD ...); local development uses trust.

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tas_system') THEN
    CREATE ROLE tas_system NOLOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT NOCREATEDB NOCREATEROLE;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tas_app') THEN
    CREATE ROLE tas_app LOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT NOCREATEDB NOCREATEROLE;
  END IF;
END
$$;

GRANT tas_service TO tas_app;
GRANT tas_system TO tas_app;
GRANT USAGE ON SCHEMA public TO tas_system;

-- Key verification runs before any tenant is known, on every call; the
-- function is already the narrow door (one row by id), so the login role may
-- call it without a transaction around it.
GRANT EXECUTE ON FUNCTION tas_key_lookup(uuid) TO tas_app;

GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO tas_system;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO tas_system;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO tas_system;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO tas_system;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO tas_system;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT EXECUTE ON FUNCTIONS TO tas_system;

-- The system role sees every tenant's rows of every table under row-level
-- security. A later migration that adds such a table adds its tas_system
-- policy beside its tas_service one (test/db/serviceRole.test.ts checks).
DO $$
DECLARE t record;
BEGIN
  FOR t IN SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relrowsecurity LOOP
    EXECUTE format('CREATE POLICY %I ON %I TO tas_system USING (true) WITH CHECK (true)', t.relname || '_system', t.relname);
  END LOOP;
END
$$;

-- The migrations bookkeeping table stays the owner's.
REVOKE ALL ON TABLE schema_migrations FROM tas_system;
