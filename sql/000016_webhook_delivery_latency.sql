-- 000016: how long each webhook delivery attempt took (issue 18): from the
-- start of the attempt to the receiver's answer, its refusal or the timeout,
-- in milliseconds. Null on attempts recorded before this migration.
ALTER TABLE webhook_deliveries ADD COLUMN latency_ms integer;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_latency_check CHECK (latency_ms IS NULL OR latency_ms >= 0);
