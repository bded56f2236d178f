-- 000060: the sessions that hold a place, for the per-key and per-tenant caps
-- on open sessions (issue 40, src/db/sessions.ts countOpenSessions). Closed
-- sessions are the bulk of the table and are never counted, so the index
-- holds only the others: counting them reads a handful of entries however
-- long the tenant's history of sessions grows.
CREATE INDEX sessions_open_idx ON sessions (tenant_id, mode, opened_by_key) WHERE state <> 'closed';
