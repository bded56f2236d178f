-- 000120: an audit trail per tenant (issue 50), distributed with the tenant's
-- rows, verifiable by the tenant alone.
--
-- Before: one audit_log for every call, calls refused before any tenant is
-- known (tenant_id NULL) among them, one work list, and chains per tenant and
-- mode (chain_key '<tenant>:<mode>') and one anonymous chain side by side in
-- audit_chain, all local to the Citus coordinator because of the NULL tenants.
-- Now:
--
--   audit_log, audit_chain, audit_unsealed, audit_chain_retained hold tenant
--     rows only: tenant_id (and mode) NOT NULL, in every primary key and unique
--     constraint, so Citus distributes them by tenant with the tenant's other
--     tables (sql/citus/distribute.sql). The inquiry's one call (000112) already
--     writes its row into audit_log; that insert now lands in the tenant's shard
--     group, so an inquiry's transaction touches one node.
--   audit_seals: one seal per chain (tenant and mode) and UTC day of sealing:
--     the positions the sealer linked that day, the link before the first and
--     the last link. A day's seal grows while its day lasts, then never changes
--     (a trigger). The seals of a period anchor a tenant's export.
--   audit_refusals, audit_refusal_links, audit_refusals_unsealed,
--     audit_refusals_retained, audit_refusal_seals: the anonymous trail, the
--     same shape without tenant or mode, on the coordinator
--     (docs/design-decisions.md, "Refusals without a tenant"). A flood of
--     refusals never touches a tenant's table, chain or work list.
--
-- Existing rows migrate: each chain sealed so far is closed by a closing seal
-- (period -infinity) naming its last link; a tenant's chain continues from
-- it, position after position, so a verification from the first link still
-- covers every row written before. The anonymous rows, their links (one-row
-- and batch: 000100), their work list entries and retained runs move to the
-- anonymous tables unchanged (seq, ids and hashes kept), so the anonymous
-- chain verifies as before.

-- 1. The anonymous trail's tables.
CREATE TABLE audit_refusals (
  seq bigint GENERATED ALWAYS AS IDENTITY,
  audit_id uuid NOT NULL,
  occurred_at timestamptz NOT NULL,
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
  CONSTRAINT audit_refusals_pkey PRIMARY KEY (audit_id, occurred_at),
  CONSTRAINT audit_refusals_seq_key UNIQUE (seq, occurred_at)
) PARTITION BY RANGE (occurred_at);

CREATE TABLE audit_refusal_links (
  audit_id uuid NOT NULL,
  occurred_at timestamptz NOT NULL,
  chain_key text NOT NULL DEFAULT 'anonymous',
  position bigint NOT NULL,
  prev_hash bytea NOT NULL,
  hash bytea NOT NULL,
  sealed_at timestamptz NOT NULL DEFAULT now(),
  -- A batch link (000100): the seq of each audit_refusals row it links, in the order hashed. NULL: the
  -- link of the one row audit_id names (anonymous links sealed before 000100).
  members bigint[],
  CONSTRAINT audit_refusal_links_pkey PRIMARY KEY (audit_id, occurred_at),
  CONSTRAINT audit_refusal_links_position_key UNIQUE (chain_key, position, occurred_at),
  CONSTRAINT audit_refusal_links_chain_check CHECK (chain_key = 'anonymous'),
  CONSTRAINT audit_refusal_links_members_check CHECK (members IS NULL OR cardinality(members) > 0)
) PARTITION BY RANGE (occurred_at);

CREATE TABLE audit_refusals_unsealed (
  seq bigint PRIMARY KEY,
  audit_id uuid NOT NULL,
  occurred_at timestamptz NOT NULL,
  CONSTRAINT audit_refusals_unsealed_audit_id_key UNIQUE (audit_id)
);

CREATE TABLE audit_refusals_retained (
  chain_key text NOT NULL DEFAULT 'anonymous',
  first_position bigint NOT NULL,
  last_position bigint NOT NULL,
  first_prev bytea NOT NULL,
  last_hash bytea NOT NULL,
  month date NOT NULL,
  retained_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT audit_refusals_retained_pkey PRIMARY KEY (chain_key, first_position)
);

-- A chain's seal per UTC day of sealing; period -infinity: the closing seal of what was sealed before 000120.
CREATE TABLE audit_refusal_seals (
  chain_key text NOT NULL DEFAULT 'anonymous',
  period date NOT NULL,
  first_position bigint NOT NULL,
  last_position bigint NOT NULL,
  links bigint NOT NULL,
  first_prev bytea NOT NULL,
  last_hash bytea NOT NULL,
  sealed_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT audit_refusal_seals_pkey PRIMARY KEY (chain_key, period)
);

CREATE TABLE audit_seals (
  tenant_id uuid NOT NULL,
  mode text NOT NULL,
  period date NOT NULL,
  first_position bigint NOT NULL,
  last_position bigint NOT NULL,
  links bigint NOT NULL,
  first_prev bytea NOT NULL,
  last_hash bytea NOT NULL,
  sealed_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT audit_seals_pkey PRIMARY KEY (tenant_id, mode, period),
  CONSTRAINT audit_seals_mode_check CHECK (mode IN ('live', 'test'))
);

-- Append-only, as the rest of the trail.
CREATE TRIGGER audit_refusals_append_only BEFORE UPDATE OR DELETE ON audit_refusals
  FOR EACH ROW EXECUTE FUNCTION tas_refuse_change();
CREATE TRIGGER audit_refusal_links_append_only BEFORE UPDATE OR DELETE ON audit_refusal_links
  FOR EACH ROW EXECUTE FUNCTION tas_refuse_change();
CREATE TRIGGER audit_refusals_retained_append_only BEFORE UPDATE OR DELETE ON audit_refusals_retained
  FOR EACH ROW EXECUTE FUNCTION tas_refuse_change();

-- A seal only grows while its day lasts: same day, same start, further end; a past day's seal never changes.
CREATE FUNCTION tas_audit_seal_grows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR NEW.period <> OLD.period OR NEW.first_position <> OLD.first_position
     OR NEW.first_prev <> OLD.first_prev OR NEW.last_position <= OLD.last_position
     OR OLD.period < (now() AT TIME ZONE 'UTC')::date THEN
    RAISE EXCEPTION '% only grows within its day', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER audit_seals_grow_only BEFORE UPDATE OR DELETE ON audit_seals
  FOR EACH ROW EXECUTE FUNCTION tas_audit_seal_grows();
CREATE TRIGGER audit_refusal_seals_grow_only BEFORE UPDATE OR DELETE ON audit_refusal_seals
  FOR EACH ROW EXECUTE FUNCTION tas_audit_seal_grows();

-- Who may do what: the anonymous trail is the service's own (tas_system: the sealer, the verifier;
-- tas_definer: the batched append and the work list's trigger); a tenant reads its own seals.
ALTER TABLE audit_refusals ENABLE ROW LEVEL SECURITY;
ALTER TABLE audit_refusals FORCE ROW LEVEL SECURITY;
ALTER TABLE audit_refusal_links ENABLE ROW LEVEL SECURITY;
ALTER TABLE audit_refusal_links FORCE ROW LEVEL SECURITY;
ALTER TABLE audit_seals ENABLE ROW LEVEL SECURITY;
ALTER TABLE audit_seals FORCE ROW LEVEL SECURITY;
CREATE POLICY audit_refusals_system ON audit_refusals TO tas_system USING (true) WITH CHECK (true);
CREATE POLICY audit_refusals_definer ON audit_refusals TO tas_definer USING (true) WITH CHECK (true);
CREATE POLICY audit_refusal_links_system ON audit_refusal_links TO tas_system USING (true) WITH CHECK (true);
CREATE POLICY audit_refusal_links_definer ON audit_refusal_links TO tas_definer USING (true) WITH CHECK (true);
CREATE POLICY audit_seals_read ON audit_seals FOR SELECT TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
CREATE POLICY audit_seals_system ON audit_seals TO tas_system USING (true) WITH CHECK (true);
CREATE POLICY audit_seals_definer ON audit_seals TO tas_definer USING (true) WITH CHECK (true);
REVOKE ALL ON audit_refusals, audit_refusal_links, audit_refusals_unsealed, audit_refusals_retained,
  audit_refusal_seals, audit_seals FROM PUBLIC;
GRANT SELECT, INSERT, UPDATE, DELETE ON audit_refusals, audit_refusal_links, audit_refusal_seals, audit_seals
  TO tas_system, tas_definer;
GRANT SELECT, DELETE ON audit_refusals_unsealed TO tas_system;
GRANT INSERT ON audit_refusals_unsealed TO tas_definer;
GRANT SELECT ON audit_refusals_retained TO tas_system;
GRANT USAGE, SELECT ON SEQUENCE audit_refusals_seq_seq TO tas_system, tas_definer;
GRANT SELECT ON audit_seals TO tas_service;

-- The anonymous work list, filled in the appending statement as the tenants' is (000021).
CREATE FUNCTION tas_audit_list_refusals() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
BEGIN
  INSERT INTO audit_refusals_unsealed (seq, audit_id, occurred_at)
  SELECT seq, audit_id, occurred_at FROM appended;
  RETURN NULL;
END
$$;
REVOKE ALL ON FUNCTION tas_audit_list_refusals() FROM PUBLIC;
GRANT CREATE ON SCHEMA public TO tas_definer;
ALTER FUNCTION tas_audit_list_refusals() OWNER TO tas_definer;
REVOKE CREATE ON SCHEMA public FROM tas_definer;

-- 2. Monthly partitions for both trails (000090's functions, now over two pairs of tables).
CREATE OR REPLACE FUNCTION tas_audit_partition_month(p_month date) RETURNS boolean
  LANGUAGE plpgsql SET search_path = public, pg_temp
  AS $$
DECLARE
  lo timestamptz := (date_trunc('month', p_month::timestamp)) AT TIME ZONE 'UTC';
  hi timestamptz := (date_trunc('month', p_month::timestamp) + interval '1 month') AT TIME ZONE 'UTC';
  suffix text := to_char(p_month, 'YYYY_MM');
  tables text[] := ARRAY['audit_log', 'audit_chain', 'audit_refusals', 'audit_refusal_links'];
  t text;
  free boolean;
BEGIN
  -- Every table's month together: a row and its link always share a month's partition, and a month is
  -- partitioned in both trails or in neither (retention drops it from both at once).
  FOREACH t IN ARRAY tables LOOP
    IF to_regclass(format('audit_partitions.%I', t || '_default')) IS NOT NULL THEN
      EXECUTE format('SELECT NOT EXISTS (SELECT 1 FROM audit_partitions.%I WHERE occurred_at >= $1 AND occurred_at < $2)', t || '_default')
        INTO free USING lo, hi;
      IF NOT free THEN RETURN false; END IF;
    END IF;
  END LOOP;
  FOREACH t IN ARRAY tables LOOP
    IF to_regclass(format('audit_partitions.%I', t || '_p' || suffix)) IS NOT NULL THEN CONTINUE; END IF;
    EXECUTE format('CREATE TABLE audit_partitions.%I PARTITION OF public.%I FOR VALUES FROM (%L) TO (%L)', t || '_p' || suffix, t, lo, hi);
    PERFORM tas_audit_partition_secure(format('audit_partitions.%I', t || '_p' || suffix)::regclass, t::regclass);
  END LOOP;
  RETURN true;
END
$$;

CREATE OR REPLACE FUNCTION tas_audit_partitions_ahead(p_months integer, p_today date DEFAULT NULL) RETURNS integer
  LANGUAGE plpgsql SET search_path = public, pg_temp
  AS $$
DECLARE
  i integer;
  m text;
  made integer := 0;
BEGIN
  p_today := coalesce(p_today, (now() AT TIME ZONE 'UTC')::date);
  FOR i IN 0..p_months LOOP
    m := to_char(p_today + make_interval(months => i), 'YYYY_MM');
    IF to_regclass(format('audit_partitions.%I', 'audit_log_p' || m)) IS NULL
       OR to_regclass(format('audit_partitions.%I', 'audit_refusals_p' || m)) IS NULL THEN
      IF tas_audit_partition_month((p_today + make_interval(months => i))::date) THEN made := made + 1; END IF;
    END IF;
  END LOOP;
  RETURN made;
END
$$;

-- The anonymous trail's months: every month the tenants' trail has, and a DEFAULT partition.
DO $$
DECLARE
  m date;
BEGIN
  FOR m IN SELECT to_date(substring(c.relname FROM 'p(\d{4}_\d{2})$'), 'YYYY_MM')
           FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
           WHERE i.inhparent = 'public.audit_log'::regclass AND c.relname ~ '^audit_log_p\d{4}_\d{2}$' LOOP
    PERFORM tas_audit_partition_month(m);
  END LOOP;
  -- Months whose rows sit in the tenants' DEFAULT partition: the refusals of those months go to this DEFAULT too.
  CREATE TABLE audit_partitions.audit_refusals_default PARTITION OF public.audit_refusals DEFAULT;
  CREATE TABLE audit_partitions.audit_refusal_links_default PARTITION OF public.audit_refusal_links DEFAULT;
  PERFORM tas_audit_partition_secure('audit_partitions.audit_refusals_default'::regclass, 'audit_refusals'::regclass);
  PERFORM tas_audit_partition_secure('audit_partitions.audit_refusal_links_default'::regclass, 'audit_refusal_links'::regclass);
END
$$;

-- 3. The anonymous rows, links, work list entries and retained runs move, unchanged. The trails are
-- under forced row-level security (000035): a migrating owner that is no superuser moves them through
-- policies of its own, dropped at the end of this file.
CREATE POLICY audit_log_migration_000120 ON audit_log TO CURRENT_USER USING (true) WITH CHECK (true);
CREATE POLICY audit_chain_migration_000120 ON audit_chain TO CURRENT_USER USING (true) WITH CHECK (true);
CREATE POLICY audit_refusals_migration_000120 ON audit_refusals TO CURRENT_USER USING (true) WITH CHECK (true);
CREATE POLICY audit_refusal_links_migration_000120 ON audit_refusal_links TO CURRENT_USER USING (true) WITH CHECK (true);
CREATE POLICY audit_seals_migration_000120 ON audit_seals TO CURRENT_USER USING (true) WITH CHECK (true);
INSERT INTO audit_refusals (seq, audit_id, occurred_at, principal, action, target_kind, target_id, status, rule, purpose,
                            cost_amount, cost_currency, request_id)
OVERRIDING SYSTEM VALUE
SELECT seq, audit_id, occurred_at, principal, action, target_kind, target_id, status, rule, purpose,
       cost_amount, cost_currency, request_id
FROM audit_log WHERE tenant_id IS NULL ORDER BY seq;
-- Only the rows the old work list held stay listed (the list's trigger is created after the move).
INSERT INTO audit_refusals_unsealed (seq, audit_id, occurred_at)
SELECT u.seq, u.audit_id, u.occurred_at FROM audit_unsealed u
JOIN audit_log l ON l.audit_id = u.audit_id AND l.occurred_at = u.occurred_at
WHERE l.tenant_id IS NULL;
INSERT INTO audit_refusal_links (audit_id, occurred_at, chain_key, position, prev_hash, hash, sealed_at, members)
SELECT audit_id, occurred_at, chain_key, position, prev_hash, hash, sealed_at, members
FROM audit_chain WHERE chain_key = 'anonymous';
INSERT INTO audit_refusals_retained (chain_key, first_position, last_position, first_prev, last_hash, month, retained_at)
SELECT chain_key, first_position, last_position, first_prev, last_hash, month, retained_at
FROM audit_chain_retained WHERE chain_key = 'anonymous';
SELECT setval(pg_get_serial_sequence('audit_refusals', 'seq'), coalesce((SELECT max(seq) FROM audit_refusals), 1),
              EXISTS (SELECT 1 FROM audit_refusals));

DO $$
BEGIN
  IF (SELECT count(*) FROM audit_refusals) <> (SELECT count(*) FROM audit_log WHERE tenant_id IS NULL)
     OR (SELECT count(*) FROM audit_refusal_links) <> (SELECT count(*) FROM audit_chain WHERE chain_key = 'anonymous') THEN
    RAISE EXCEPTION 'the anonymous trail''s move would lose rows';
  END IF;
END
$$;

-- The append-only triggers step aside for the move only (dropped and made again in this transaction).
DROP TRIGGER audit_log_append_only ON audit_log;
DROP TRIGGER audit_chain_append_only ON audit_chain;
DROP TRIGGER audit_chain_retained_append_only ON audit_chain_retained;
DELETE FROM audit_unsealed u USING audit_log l
WHERE l.audit_id = u.audit_id AND l.occurred_at = u.occurred_at AND l.tenant_id IS NULL;
DELETE FROM audit_chain WHERE chain_key = 'anonymous';
DELETE FROM audit_log WHERE tenant_id IS NULL;
DELETE FROM audit_chain_retained WHERE chain_key = 'anonymous';

-- 4. The tenants' tables: tenant and mode in every row and every key.
ALTER TABLE audit_chain_retained ADD COLUMN tenant_id uuid, ADD COLUMN mode text;
UPDATE audit_chain_retained SET tenant_id = split_part(chain_key, ':', 1)::uuid, mode = split_part(chain_key, ':', 2);
ALTER TABLE audit_chain_retained ALTER COLUMN tenant_id SET NOT NULL, ALTER COLUMN mode SET NOT NULL;
ALTER TABLE audit_chain_retained DROP CONSTRAINT audit_chain_retained_pkey,
  ADD CONSTRAINT audit_chain_retained_pkey PRIMARY KEY (chain_key, first_position, tenant_id);

ALTER TABLE audit_unsealed ADD COLUMN tenant_id uuid, ADD COLUMN mode text;
UPDATE audit_unsealed u SET tenant_id = l.tenant_id, mode = l.mode
FROM audit_log l WHERE l.audit_id = u.audit_id AND l.occurred_at = u.occurred_at;
ALTER TABLE audit_unsealed ALTER COLUMN tenant_id SET NOT NULL, ALTER COLUMN mode SET NOT NULL;
ALTER TABLE audit_unsealed DROP CONSTRAINT audit_unsealed_pkey, DROP CONSTRAINT audit_unsealed_audit_id_key,
  ADD CONSTRAINT audit_unsealed_pkey PRIMARY KEY (seq, tenant_id),
  ADD CONSTRAINT audit_unsealed_audit_id_key UNIQUE (audit_id, tenant_id);

ALTER TABLE audit_log ALTER COLUMN tenant_id SET NOT NULL, ALTER COLUMN mode SET NOT NULL;
ALTER TABLE audit_log DROP CONSTRAINT audit_log_pkey, DROP CONSTRAINT audit_log_seq_key,
  ADD CONSTRAINT audit_log_pkey PRIMARY KEY (audit_id, occurred_at, tenant_id),
  ADD CONSTRAINT audit_log_seq_key UNIQUE (seq, occurred_at, tenant_id);
ALTER TABLE audit_chain ALTER COLUMN tenant_id SET NOT NULL, ALTER COLUMN mode SET NOT NULL;
ALTER TABLE audit_chain DROP CONSTRAINT audit_chain_pkey, DROP CONSTRAINT audit_chain_position_key,
  ADD CONSTRAINT audit_chain_pkey PRIMARY KEY (audit_id, occurred_at, tenant_id),
  ADD CONSTRAINT audit_chain_position_key UNIQUE (chain_key, position, occurred_at, tenant_id);

CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION tas_refuse_change();
CREATE TRIGGER audit_chain_append_only BEFORE UPDATE OR DELETE ON audit_chain
  FOR EACH ROW EXECUTE FUNCTION tas_refuse_change();
CREATE TRIGGER audit_chain_retained_append_only BEFORE UPDATE OR DELETE ON audit_chain_retained
  FOR EACH ROW EXECUTE FUNCTION tas_refuse_change();
-- The anonymous work list's trigger, created after the move so the moved rows were listed only as the old list had them.
CREATE TRIGGER audit_refusals_list_unsealed AFTER INSERT ON audit_refusals
  REFERENCING NEW TABLE AS appended
  FOR EACH STATEMENT EXECUTE FUNCTION tas_audit_list_refusals();

-- Tenant tables under forced row-level security like every other (000035): the service's own roles see
-- every tenant's, a tenant's role reads its own.
ALTER TABLE audit_unsealed ENABLE ROW LEVEL SECURITY;
ALTER TABLE audit_unsealed FORCE ROW LEVEL SECURITY;
ALTER TABLE audit_chain_retained ENABLE ROW LEVEL SECURITY;
ALTER TABLE audit_chain_retained FORCE ROW LEVEL SECURITY;
CREATE POLICY audit_unsealed_read ON audit_unsealed FOR SELECT TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
CREATE POLICY audit_unsealed_system ON audit_unsealed TO tas_system USING (true) WITH CHECK (true);
CREATE POLICY audit_unsealed_definer ON audit_unsealed TO tas_definer USING (true) WITH CHECK (true);
CREATE POLICY audit_chain_retained_read ON audit_chain_retained FOR SELECT TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
CREATE POLICY audit_chain_retained_system ON audit_chain_retained TO tas_system USING (true) WITH CHECK (true);
CREATE POLICY audit_chain_retained_definer ON audit_chain_retained TO tas_definer USING (true) WITH CHECK (true);
-- Retention runs as the owner: its own policy, as the migration's.
CREATE POLICY audit_chain_retained_owner ON audit_chain_retained TO CURRENT_USER USING (true) WITH CHECK (true);
GRANT SELECT ON audit_unsealed, audit_chain_retained TO tas_service;
GRANT SELECT, INSERT, DELETE ON audit_unsealed TO tas_definer;
GRANT SELECT, INSERT ON audit_chain_retained TO tas_definer;

-- The tenants' work list names each row's tenant and mode, so the sealer reads and Citus places it by tenant.
CREATE OR REPLACE FUNCTION tas_audit_list_unsealed() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
BEGIN
  INSERT INTO audit_unsealed (seq, audit_id, occurred_at, tenant_id, mode)
  SELECT seq, audit_id, occurred_at, tenant_id, mode FROM appended;
  RETURN NULL;
END
$$;

-- 5. The closing seals: every chain sealed so far, closed at its last link.
INSERT INTO audit_seals (tenant_id, mode, period, first_position, last_position, links, first_prev, last_hash)
SELECT h.tenant_id, h.mode, '-infinity', 1, h.position, h.position, '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea, h.hash
FROM (
  SELECT DISTINCT ON (tenant_id, mode) tenant_id, mode, position, hash FROM (
    SELECT tenant_id, mode, position, hash FROM audit_chain
    UNION ALL
    SELECT tenant_id, mode, last_position, last_hash FROM audit_chain_retained
  ) x ORDER BY tenant_id, mode, position DESC
) h;
INSERT INTO audit_refusal_seals (period, first_position, last_position, links, first_prev, last_hash)
SELECT '-infinity', 1, h.position, h.position, '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea, h.hash
FROM (
  SELECT position, hash FROM audit_refusal_links
  UNION ALL
  SELECT last_position, last_hash FROM audit_refusals_retained
  ORDER BY 1 DESC LIMIT 1
) h;

-- 6. The batched append: a tenant's rows to its trail, the others to the anonymous one.
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
    -- Nothing to insert into a trail whose rows the batch has none of: no statement, no trigger.
    IF jsonb_path_exists(p_rows, '$[*] ? (@.tenant_id != null)') THEN
      INSERT INTO audit_log (audit_id, occurred_at, tenant_id, mode, principal, action, target_kind, target_id,
                             status, rule, purpose, cost_amount, cost_currency, request_id)
      SELECT audit_id, occurred_at, tenant_id, mode, principal, action, target_kind, target_id,
             status, rule, purpose, cost_amount, cost_currency, request_id
      FROM jsonb_to_recordset(p_rows) AS r(audit_id uuid, occurred_at timestamptz, tenant_id uuid, mode text,
           principal text, action text, target_kind text, target_id text, status integer, rule text,
           purpose text, cost_amount numeric, cost_currency text, request_id text)
      WHERE tenant_id IS NOT NULL
      ON CONFLICT (audit_id, occurred_at, tenant_id) DO NOTHING;
    END IF;
    IF jsonb_path_exists(p_rows, '$[*] ? (@.tenant_id == null)') THEN
      INSERT INTO audit_refusals (audit_id, occurred_at, principal, action, target_kind, target_id,
                                  status, rule, purpose, cost_amount, cost_currency, request_id)
      SELECT audit_id, occurred_at, principal, action, target_kind, target_id,
             status, rule, purpose, cost_amount, cost_currency, request_id
      FROM jsonb_to_recordset(p_rows) AS r(audit_id uuid, occurred_at timestamptz, tenant_id uuid,
           principal text, action text, target_kind text, target_id text, status integer, rule text,
           purpose text, cost_amount numeric, cost_currency text, request_id text)
      WHERE tenant_id IS NULL
      ON CONFLICT (audit_id, occurred_at) DO NOTHING;
    END IF;
  END
  $$;

-- 7. Retention over both trails: each trail's months wholly before p_before, its runs summed up first.
CREATE OR REPLACE FUNCTION tas_audit_retain(p_before date) RETURNS text[]
  LANGUAGE plpgsql SET search_path = public, pg_temp
  AS $$
DECLARE
  m date;
  dropped text[] := ARRAY[]::text[];
  trail text[];
  chain_part text;
  lo timestamptz;
  hi timestamptz;
BEGIN
  -- Every month partitioned in either trail and wholly before p_before. A month still holding rows not
  -- yet sealed, in either trail, is kept in both (the sealer has not linked them; the next run takes it).
  FOR m IN
    SELECT DISTINCT to_date(substring(c.relname FROM 'p(\d{4}_\d{2})$'), 'YYYY_MM')
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent IN ('public.audit_log'::regclass, 'public.audit_refusals'::regclass)
      AND c.relname ~ '^audit_(log|refusals)_p\d{4}_\d{2}$'
    ORDER BY 1
  LOOP
    EXIT WHEN m + interval '1 month' > p_before::timestamp;
    lo := m::timestamp AT TIME ZONE 'UTC';
    hi := (m + interval '1 month')::timestamp AT TIME ZONE 'UTC';
    CONTINUE WHEN EXISTS (SELECT 1 FROM audit_unsealed u WHERE u.occurred_at >= lo AND u.occurred_at < hi)
               OR EXISTS (SELECT 1 FROM audit_refusals_unsealed u WHERE u.occurred_at >= lo AND u.occurred_at < hi);
    -- Per trail: log, links, retained runs, the runs' extra columns (a tenant's chain names its tenant and mode).
    FOREACH trail SLICE 1 IN ARRAY ARRAY[
      ['audit_log', 'audit_chain', 'audit_chain_retained', 'tenant_id, mode, '],
      ['audit_refusals', 'audit_refusal_links', 'audit_refusals_retained', '']] LOOP
      chain_part := trail[2] || '_p' || to_char(m, 'YYYY_MM');
      IF to_regclass(format('audit_partitions.%I', chain_part)) IS NOT NULL THEN
        -- Runs of consecutive positions (gaps and islands), each with its first prev and last hash.
        EXECUTE format($q$
          INSERT INTO %I (chain_key, %s first_position, last_position, first_prev, last_hash, month)
          SELECT chain_key, %s min(position), max(position),
                 (array_agg(prev_hash ORDER BY position))[1], (array_agg(hash ORDER BY position DESC))[1], $1
          FROM (SELECT chain_key, %s position, prev_hash, hash,
                       position - row_number() OVER (PARTITION BY chain_key ORDER BY position) AS island
                FROM audit_partitions.%I) runs
          GROUP BY chain_key, %s island
          ON CONFLICT DO NOTHING$q$, trail[3], trail[4], trail[4], trail[4], chain_part, trail[4]) USING m;
        EXECUTE format('DROP TABLE audit_partitions.%I', chain_part);
      END IF;
      EXECUTE format('DROP TABLE IF EXISTS audit_partitions.%I', trail[1] || '_p' || to_char(m, 'YYYY_MM'));
    END LOOP;
    dropped := dropped || to_char(m, 'YYYY-MM');
  END LOOP;
  RETURN dropped;
END
$$;

DROP POLICY audit_log_migration_000120 ON audit_log;
DROP POLICY audit_chain_migration_000120 ON audit_chain;
DROP POLICY audit_refusals_migration_000120 ON audit_refusals;
DROP POLICY audit_refusal_links_migration_000120 ON audit_refusal_links;
DROP POLICY audit_seals_migration_000120 ON audit_seals;
