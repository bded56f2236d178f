-- 000028: the material sweep (src/material/retention.ts) looks only at
-- material still waiting for its bytes or its extraction, a handful of rows
-- among all a tenant ever declared: a partial index keeps that look-up from
-- reading the rest.
CREATE INDEX material_open_idx ON material (status, upload_expires_at, received_at)
  WHERE status IN ('awaiting_upload', 'received');
