-- 000021: the sealer's work list (issue 15). The sealer found its rows with an
-- anti-join of audit_log against audit_chain, which walks the log from its
-- first row on every run (78-94 ms at 144,000 rows) and falls further behind
-- as the log grows. Now every appended row is also listed here, in the same
-- statement, by a trigger; the sealer reads the list in order, links what it
-- takes and deletes it in the same transaction, so a run costs what it seals,
-- whatever the size of the log. Being exact, the list needs no high-water mark
-- and no assumption about when a late transaction commits: a row enters it
-- exactly when it enters the log, and leaves it exactly when it is chained.
CREATE TABLE audit_unsealed (
  seq bigint PRIMARY KEY,
  audit_id uuid NOT NULL UNIQUE,
  occurred_at timestamptz NOT NULL
);
REVOKE ALL ON audit_unsealed FROM PUBLIC;
GRANT SELECT, DELETE ON audit_unsealed TO tas_system;

-- One INSERT per appending statement (a batch of audit rows lists in one step).
CREATE FUNCTION tas_audit_list_unsealed() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public
  AS $$
BEGIN
  INSERT INTO audit_unsealed (seq, audit_id, occurred_at)
  SELECT seq, audit_id, occurred_at FROM appended;
  RETURN NULL;
END
$$;
REVOKE ALL ON FUNCTION tas_audit_list_unsealed() FROM PUBLIC;

-- Created before the backfill: the trigger's lock holds appends back until this
-- migration commits, so no row can fall between the backfill and the trigger.
CREATE TRIGGER audit_log_list_unsealed AFTER INSERT ON audit_log
  REFERENCING NEW TABLE AS appended
  FOR EACH STATEMENT EXECUTE FUNCTION tas_audit_list_unsealed();

INSERT INTO audit_unsealed (seq, audit_id, occurred_at)
SELECT l.seq, l.audit_id, l.occurred_at
FROM audit_log l LEFT JOIN audit_chain c ON c.audit_id = l.audit_id
WHERE c.audit_id IS NULL
ON CONFLICT DO NOTHING;
