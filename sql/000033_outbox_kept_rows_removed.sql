-- 000033: the rows the relay used to keep after carrying them out (issue 15).
-- Until 2026-11-26 the relay marked a row `dispatched_at` and kept it; since
-- then it deletes it (docs/design-decisions.md, "The outbox is a queue"). The
-- rows kept before are work already done: nothing reads them, and left in
-- place they would keep the table at its old size. Pending rows
-- (`dispatched_at IS NULL`) are untouched: the relay and the sweep still
-- carry them out. On a deployment that ran long under the old relay this
-- delete is as large as the table; autovacuum reclaims the space afterwards.
DELETE FROM outbox WHERE dispatched_at IS NOT NULL;
