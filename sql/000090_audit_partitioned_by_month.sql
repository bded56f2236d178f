-- 000090: the audit trail partitioned by month of occurrence (issue 40).
--
-- audit_log and audit_chain become range-partitioned on occurred_at (UTC
-- months; the chain carries its row's occurred_at, so a month's log rows and
-- their links live in partitions of the same month). Then:
--   - retention drops whole months (tas_audit_retain), no DELETE, no bloat;
--     the links it drops are summed up per chain in audit_chain_retained, so
--     the rest of each chain still verifies from where the dropped part ended;
--   - the sealer joins its work list to the log on (audit_id, occurred_at),
--     so each look-up reads one partition's index, whatever the log's size;
--   - a DEFAULT partition takes any row whose month has no partition yet, so
--     an insert never fails for want of one; the service creates the next
--     months ahead (tas_audit_partitions_ahead, at start and daily).
--
-- The partitions live in their own schema, audit_partitions, on which the
-- service's roles have no USAGE: they are reached only through the parents.
-- Each one is still under forced row-level security, with the parent's
-- policies and grants copied onto it (tas_audit_partition_secure), so a
-- partition reached by any other path holds the same rules as its parent.
--
-- Uniqueness on a partitioned table must include the partition key: the
-- primary keys become (audit_id, occurred_at) and the unique seq becomes
-- (seq, occurred_at). Every writer gives a row's occurred_at with its id
-- (a retried or replayed row carries the same pair), so an id is still
-- written once. The chain's (chain_key, position) uniqueness is kept per
-- partition; the sealer's advisory lock is what keeps one writer per chain.
--
-- The conversion copies every row (seq, ids and hashes unchanged) into the
-- new tables in one transaction, so every chain verifies after it as before.

CREATE SCHEMA IF NOT EXISTS audit_partitions;
REVOKE ALL ON SCHEMA audit_partitions FROM PUBLIC;

ALTER TABLE audit_chain DROP CONSTRAINT IF EXISTS audit_chain_audit_id_fkey;
ALTER TABLE audit_log RENAME TO audit_log_unpartitioned;
ALTER TABLE audit_chain RENAME TO audit_chain_unpartitioned;
ALTER TABLE audit_log_unpartitioned RENAME CONSTRAINT audit_log_pkey TO audit_log_unpartitioned_pkey;
ALTER TABLE audit_log_unpartitioned RENAME CONSTRAINT audit_log_seq_key TO audit_log_unpartitioned_seq_key;
ALTER INDEX audit_log_tenant_seq_idx RENAME TO audit_log_unpartitioned_tenant_seq_idx;
ALTER TABLE audit_chain_unpartitioned RENAME CONSTRAINT audit_chain_pkey TO audit_chain_unpartitioned_pkey;
ALTER TABLE audit_chain_unpartitioned RENAME CONSTRAINT audit_chain_position_key TO audit_chain_unpartitioned_position_key;
DROP TRIGGER audit_log_list_unsealed ON audit_log_unpartitioned;
-- The identity's sequence goes with the identity; the new one starts after the last value handed out.
CREATE TEMPORARY TABLE audit_seq_last ON COMMIT DROP AS SELECT last_value, is_called FROM audit_log_seq_seq;
ALTER TABLE audit_log_unpartitioned ALTER COLUMN seq DROP IDENTITY;

CREATE TABLE audit_log (
  seq bigint GENERATED ALWAYS AS IDENTITY,
  audit_id uuid NOT NULL,
  occurred_at timestamptz NOT NULL,
  tenant_id uuid,
  mode text,
  principal text NOT NULL,
  action text NOT NULL,
  target_kind text,
  target_id text,
  status integer NOT NULL,
  rule text,
  purpose text,
  cost_amount numeric,
  cost_currency text,
  request_id text,
  CONSTRAINT audit_log_pkey PRIMARY KEY (audit_id, occurred_at),
  CONSTRAINT audit_log_seq_key UNIQUE (seq, occurred_at),
  CONSTRAINT audit_log_mode_check CHECK (mode IS NULL OR mode IN ('live', 'test'))
) PARTITION BY RANGE (occurred_at);
-- Only a tenant's rows are ever listed by tenant (the read policy needs one):
-- calls refused before any tenant is known add no entry to this index.
CREATE INDEX audit_log_tenant_seq_idx ON audit_log (tenant_id, mode, seq) WHERE tenant_id IS NOT NULL;

CREATE TABLE audit_chain (
  audit_id uuid NOT NULL,
  occurred_at timestamptz NOT NULL,
  chain_key text NOT NULL,
  tenant_id uuid,
  mode text,
  position bigint NOT NULL,
  prev_hash bytea NOT NULL,
  hash bytea NOT NULL,
  sealed_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT audit_chain_pkey PRIMARY KEY (audit_id, occurred_at),
  CONSTRAINT audit_chain_position_key UNIQUE (chain_key, position, occurred_at)
) PARTITION BY RANGE (occurred_at);

-- The same rules as before, on the parents.
ALTER TABLE audit_log ENABLE ROW LEVEL SECURITY;
ALTER TABLE audit_log FORCE ROW LEVEL SECURITY;
CREATE POLICY audit_log_read ON audit_log FOR SELECT TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
CREATE POLICY audit_log_append ON audit_log FOR INSERT TO tas_service
  WITH CHECK (tenant_id IS NULL OR (tenant_id = tas_current_tenant() AND mode = tas_current_mode()));
CREATE POLICY audit_log_system ON audit_log TO tas_system USING (true) WITH CHECK (true);
CREATE POLICY audit_log_definer ON audit_log TO tas_definer USING (true) WITH CHECK (true);
GRANT SELECT, INSERT ON audit_log TO tas_service;
GRANT SELECT, INSERT, UPDATE, DELETE ON audit_log TO tas_system, tas_definer;
GRANT USAGE, SELECT ON SEQUENCE audit_log_seq_seq TO tas_system, tas_definer;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION tas_refuse_change();

ALTER TABLE audit_chain ENABLE ROW LEVEL SECURITY;
ALTER TABLE audit_chain FORCE ROW LEVEL SECURITY;
CREATE POLICY audit_chain_read ON audit_chain FOR SELECT TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
CREATE POLICY audit_chain_system ON audit_chain TO tas_system USING (true) WITH CHECK (true);
CREATE POLICY audit_chain_definer ON audit_chain TO tas_definer USING (true) WITH CHECK (true);
GRANT SELECT ON audit_chain TO tas_service;
GRANT SELECT, INSERT, UPDATE, DELETE ON audit_chain TO tas_system, tas_definer;
CREATE TRIGGER audit_chain_append_only BEFORE UPDATE OR DELETE ON audit_chain
  FOR EACH ROW EXECUTE FUNCTION tas_refuse_change();

-- What retention dropped of each chain: per run of consecutive positions
-- dropped, the link before its first (first_prev) and its last link
-- (last_hash), so the verifier joins what is left across the gap.
CREATE TABLE audit_chain_retained (
  chain_key text NOT NULL,
  first_position bigint NOT NULL,
  last_position bigint NOT NULL,
  first_prev bytea NOT NULL,
  last_hash bytea NOT NULL,
  month date NOT NULL,
  retained_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT audit_chain_retained_pkey PRIMARY KEY (chain_key, first_position)
);
REVOKE ALL ON audit_chain_retained FROM PUBLIC;
GRANT SELECT ON audit_chain_retained TO tas_system;
CREATE TRIGGER audit_chain_retained_append_only BEFORE UPDATE OR DELETE ON audit_chain_retained
  FOR EACH ROW EXECUTE FUNCTION tas_refuse_change();

-- A partition gets its parent's row-level security (forced), policies and grants.
CREATE FUNCTION tas_audit_partition_secure(p_partition regclass, p_parent regclass) RETURNS void
  LANGUAGE plpgsql SET search_path = public, pg_temp
  AS $$
DECLARE
  p record;
  g record;
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', p_partition);
  EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', p_partition);
  FOR p IN SELECT polname, polcmd, polpermissive,
                  (SELECT string_agg(quote_ident(r::regrole::text), ', ') FROM unnest(polroles) AS r) AS roles,
                  pg_get_expr(polqual, polrelid) AS qual, pg_get_expr(polwithcheck, polrelid) AS checked
           FROM pg_policy WHERE polrelid = p_parent LOOP
    IF NOT EXISTS (SELECT 1 FROM pg_policy WHERE polrelid = p_partition AND polname = p.polname) THEN
      EXECUTE format('CREATE POLICY %I ON %s AS %s FOR %s TO %s%s%s', p.polname, p_partition,
        CASE WHEN p.polpermissive THEN 'PERMISSIVE' ELSE 'RESTRICTIVE' END,
        CASE p.polcmd WHEN 'r' THEN 'SELECT' WHEN 'a' THEN 'INSERT' WHEN 'w' THEN 'UPDATE' WHEN 'd' THEN 'DELETE' ELSE 'ALL' END,
        p.roles,
        CASE WHEN p.qual IS NULL THEN '' ELSE format(' USING (%s)', p.qual) END,
        CASE WHEN p.checked IS NULL THEN '' ELSE format(' WITH CHECK (%s)', p.checked) END);
    END IF;
  END LOOP;
  EXECUTE format('REVOKE ALL ON %s FROM PUBLIC', p_partition);
  FOR g IN SELECT a.grantee::regrole AS grantee, a.privilege_type
           FROM pg_class c, aclexplode(c.relacl) AS a
           WHERE c.oid = p_parent AND a.grantee <> c.relowner AND a.grantee <> 0 LOOP
    EXECUTE format('GRANT %s ON %s TO %s', g.privilege_type, p_partition, g.grantee);
  END LOOP;
END
$$;
REVOKE ALL ON FUNCTION tas_audit_partition_secure(regclass, regclass) FROM PUBLIC;

-- One month's partitions of both tables (p_month: any day of it, UTC). A
-- month whose rows already fell into the DEFAULT partition is left there (its
-- rows are written and read all the same, only not pruned); false then.
CREATE FUNCTION tas_audit_partition_month(p_month date) RETURNS boolean
  LANGUAGE plpgsql SET search_path = public, pg_temp
  AS $$
DECLARE
  lo timestamptz := (date_trunc('month', p_month::timestamp)) AT TIME ZONE 'UTC';
  hi timestamptz := (date_trunc('month', p_month::timestamp) + interval '1 month') AT TIME ZONE 'UTC';
  suffix text := to_char(p_month, 'YYYY_MM');
  t text;
  free boolean;
BEGIN
  -- Both tables' months together: a log row and its link always share a month's partition.
  FOREACH t IN ARRAY ARRAY['audit_log', 'audit_chain'] LOOP
    IF to_regclass(format('audit_partitions.%I', t || '_default')) IS NOT NULL THEN
      EXECUTE format('SELECT NOT EXISTS (SELECT 1 FROM audit_partitions.%I WHERE occurred_at >= $1 AND occurred_at < $2)', t || '_default')
        INTO free USING lo, hi;
      IF NOT free THEN RETURN false; END IF;
    END IF;
  END LOOP;
  FOREACH t IN ARRAY ARRAY['audit_log', 'audit_chain'] LOOP
    IF to_regclass(format('audit_partitions.%I', t || '_p' || suffix)) IS NOT NULL THEN CONTINUE; END IF;
    EXECUTE format('CREATE TABLE audit_partitions.%I PARTITION OF public.%I FOR VALUES FROM (%L) TO (%L)', t || '_p' || suffix, t, lo, hi);
    PERFORM tas_audit_partition_secure(format('audit_partitions.%I', t || '_p' || suffix)::regclass, t::regclass);
  END LOOP;
  RETURN true;
END
$$;
REVOKE ALL ON FUNCTION tas_audit_partition_month(date) FROM PUBLIC;

-- This month and the next p_months, from p_today (the service calls it at start and daily).
CREATE FUNCTION tas_audit_partitions_ahead(p_months integer, p_today date DEFAULT NULL) RETURNS integer
  LANGUAGE plpgsql SET search_path = public, pg_temp
  AS $$
DECLARE
  i integer;
  made integer := 0;
BEGIN
  p_today := coalesce(p_today, (now() AT TIME ZONE 'UTC')::date);
  FOR i IN 0..p_months LOOP
    IF to_regclass(format('audit_partitions.%I', 'audit_log_p' || to_char(p_today + make_interval(months => i), 'YYYY_MM'))) IS NULL THEN
      IF tas_audit_partition_month((p_today + make_interval(months => i))::date) THEN made := made + 1; END IF;
    END IF;
  END LOOP;
  RETURN made;
END
$$;
REVOKE ALL ON FUNCTION tas_audit_partitions_ahead(integer, date) FROM PUBLIC;

-- Retention: every month wholly before p_before is dropped, both tables at
-- once, after its chain runs are summed up in audit_chain_retained. A month
-- that still holds rows not yet sealed is kept (the sealer has not linked
-- them; the next run takes it). Returns the months dropped.
CREATE FUNCTION tas_audit_retain(p_before date) RETURNS text[]
  LANGUAGE plpgsql SET search_path = public, pg_temp
  AS $$
DECLARE
  part record;
  dropped text[] := ARRAY[]::text[];
  chain_part text;
BEGIN
  FOR part IN
    SELECT c.relname, to_date(substring(c.relname FROM 'p(\d{4}_\d{2})$'), 'YYYY_MM') AS month
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'public.audit_log'::regclass AND c.relname ~ '^audit_log_p\d{4}_\d{2}$'
    ORDER BY 2
  LOOP
    EXIT WHEN part.month + interval '1 month' > p_before::timestamp;
    IF EXISTS (SELECT 1 FROM audit_unsealed u
               WHERE u.occurred_at >= part.month::timestamp AT TIME ZONE 'UTC'
                 AND u.occurred_at < (part.month + interval '1 month')::timestamp AT TIME ZONE 'UTC') THEN
      CONTINUE;
    END IF;
    chain_part := 'audit_chain_p' || to_char(part.month, 'YYYY_MM');
    -- Runs of consecutive positions (gaps and islands), each with its first prev and last hash.
    EXECUTE format($q$
      INSERT INTO audit_chain_retained (chain_key, first_position, last_position, first_prev, last_hash, month)
      SELECT chain_key, min(position), max(position),
             (array_agg(prev_hash ORDER BY position))[1], (array_agg(hash ORDER BY position DESC))[1], $1
      FROM (SELECT chain_key, position, prev_hash, hash,
                   position - row_number() OVER (PARTITION BY chain_key ORDER BY position) AS island
            FROM audit_partitions.%I) runs
      GROUP BY chain_key, island
      ON CONFLICT DO NOTHING$q$, chain_part) USING part.month;
    EXECUTE format('DROP TABLE audit_partitions.%I', chain_part);
    EXECUTE format('DROP TABLE audit_partitions.%I', part.relname);
    dropped := dropped || to_char(part.month, 'YYYY-MM');
  END LOOP;
  RETURN dropped;
END
$$;
REVOKE ALL ON FUNCTION tas_audit_retain(date) FROM PUBLIC;

-- The partitions: every month that holds a row, this one and three ahead, and the DEFAULT.
DO $$
DECLARE
  m date;
BEGIN
  FOR m IN SELECT DISTINCT date_trunc('month', occurred_at AT TIME ZONE 'UTC')::date FROM audit_log_unpartitioned LOOP
    PERFORM tas_audit_partition_month(m);
  END LOOP;
  PERFORM tas_audit_partitions_ahead(3);
  CREATE TABLE audit_partitions.audit_log_default PARTITION OF public.audit_log DEFAULT;
  CREATE TABLE audit_partitions.audit_chain_default PARTITION OF public.audit_chain DEFAULT;
  PERFORM tas_audit_partition_secure('audit_partitions.audit_log_default'::regclass, 'audit_log'::regclass);
  PERFORM tas_audit_partition_secure('audit_partitions.audit_chain_default'::regclass, 'audit_chain'::regclass);
END
$$;

INSERT INTO audit_log (seq, audit_id, occurred_at, tenant_id, mode, principal, action, target_kind, target_id,
                       status, rule, purpose, cost_amount, cost_currency, request_id)
OVERRIDING SYSTEM VALUE
SELECT seq, audit_id, occurred_at, tenant_id, mode, principal, action, target_kind, target_id,
       status, rule, purpose, cost_amount, cost_currency, request_id
FROM audit_log_unpartitioned ORDER BY seq;

INSERT INTO audit_chain (audit_id, occurred_at, chain_key, tenant_id, mode, position, prev_hash, hash, sealed_at)
SELECT c.audit_id, l.occurred_at, c.chain_key, c.tenant_id, c.mode, c.position, c.prev_hash, c.hash, c.sealed_at
FROM audit_chain_unpartitioned c JOIN audit_log_unpartitioned l ON l.audit_id = c.audit_id ORDER BY c.chain_key, c.position;

DO $$
DECLARE
  lost bigint;
BEGIN
  SELECT (SELECT count(*) FROM audit_log_unpartitioned) - (SELECT count(*) FROM audit_log)
       + (SELECT count(*) FROM audit_chain_unpartitioned) - (SELECT count(*) FROM audit_chain) INTO lost;
  IF lost <> 0 THEN
    RAISE EXCEPTION 'the audit trail''s conversion would lose % rows', lost;
  END IF;
END
$$;

SELECT setval(pg_get_serial_sequence('audit_log', 'seq'),
              greatest((SELECT last_value FROM audit_seq_last), coalesce((SELECT max(seq) FROM audit_log), 1)),
              (SELECT is_called FROM audit_seq_last) OR EXISTS (SELECT 1 FROM audit_log));

-- The sealer's work list is filled by the new parent's statement trigger.
CREATE TRIGGER audit_log_list_unsealed AFTER INSERT ON audit_log
  REFERENCING NEW TABLE AS appended
  FOR EACH STATEMENT EXECUTE FUNCTION tas_audit_list_unsealed();

DROP TABLE audit_chain_unpartitioned;
DROP TABLE audit_log_unpartitioned;

-- The batched append names the new key (an id is written once: a replay carries the same occurred_at).
CREATE OR REPLACE FUNCTION tas_audit_append(p_rows jsonb) RETURNS void
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
  DECLARE
    caller_tenant uuid := tas_current_tenant();
  BEGIN
    IF caller_tenant IS NOT NULL AND EXISTS (
      SELECT 1 FROM jsonb_to_recordset(p_rows) AS r(tenant_id uuid) WHERE r.tenant_id IS DISTINCT FROM caller_tenant
    ) THEN
      RAISE EXCEPTION 'audit rows of another tenant' USING ERRCODE = '42501';
    END IF;
    INSERT INTO audit_log (audit_id, occurred_at, tenant_id, mode, principal, action, target_kind, target_id,
                           status, rule, purpose, cost_amount, cost_currency, request_id)
    SELECT audit_id, occurred_at, tenant_id, mode, principal, action, target_kind, target_id,
           status, rule, purpose, cost_amount, cost_currency, request_id
    FROM jsonb_to_recordset(p_rows) AS r(audit_id uuid, occurred_at timestamptz, tenant_id uuid, mode text,
         principal text, action text, target_kind text, target_id text, status integer, rule text,
         purpose text, cost_amount numeric, cost_currency text, request_id text)
    ON CONFLICT (audit_id, occurred_at) DO NOTHING;
  END
  $$;
