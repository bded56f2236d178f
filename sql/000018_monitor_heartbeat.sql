-- 000018: a monitor's unchanged rescans (issue 18). A rescan whose answer
-- equals the monitor's last assessment appends nothing to the ledger and
-- notifies no one; it only marks when the subject was last checked and
-- counts such quiet rescans, one small UPDATE of the monitor's own row.
ALTER TABLE monitors
  ADD COLUMN last_checked_at timestamptz,
  ADD COLUMN unchanged_rescans bigint NOT NULL DEFAULT 0;
GRANT UPDATE (last_checked_at, unchanged_rescans) ON monitors TO tas_service;
