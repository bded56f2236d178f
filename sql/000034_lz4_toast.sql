-- 000034: the large JSON values are compressed with lz4 instead of pglz (issue 15).
-- An assessment's findings are about 11 KB of JSON, larger than the 2 KB at
-- which PostgreSQL compresses a value before storing it; with the default
-- method (pglz) that compression was paid on every inquiry's write, inside
-- the backend. lz4 compresses several times faster for about the same size.
-- Only values written from now on use it; older ones stay readable as they
-- are. A server built without lz4 keeps pglz: the statement is skipped, not
-- failed, because the choice changes cost, never what is stored or read.
DO $$
BEGIN
  ALTER TABLE assessments ALTER COLUMN findings SET COMPRESSION lz4,
                          ALTER COLUMN inputs SET COMPRESSION lz4;
  ALTER TABLE idempotency_keys ALTER COLUMN response SET COMPRESSION lz4;
  ALTER TABLE actor_events ALTER COLUMN payload SET COMPRESSION lz4;
  ALTER TABLE outbox ALTER COLUMN payload SET COMPRESSION lz4;
  ALTER TABLE actors ALTER COLUMN snapshot SET COMPRESSION lz4;
  ALTER TABLE inquiries ALTER COLUMN request SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not available on this server; large values stay compressed with pglz';
END
$$;
