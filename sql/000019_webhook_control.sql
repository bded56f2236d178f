-- 000019: the webhook control plane (issue 18): update an endpoint, rotate
-- its signing secret with an overlap, and redeliver one message.
--
-- During a rotation's overlap the previous secret stays (sealed like the
-- current one) until `previous_secret_expires_at`: deliveries carry a
-- signature under each, as Standard Webhooks allows, so a receiver can move
-- to the new secret at its own pace.
ALTER TABLE webhook_endpoints
  ADD COLUMN previous_secret_sealed bytea,
  ADD COLUMN previous_secret_expires_at timestamptz,
  ADD COLUMN updated_at timestamptz,
  ADD CONSTRAINT webhook_endpoints_previous_secret_check
    CHECK ((previous_secret_sealed IS NULL) = (previous_secret_expires_at IS NULL));
GRANT UPDATE (url, event_types, description, secret_sealed, previous_secret_sealed, previous_secret_expires_at, updated_at)
  ON webhook_endpoints TO tas_service;

-- Which event a logged attempt carried, so one message can be sent again.
-- Null on attempts logged before this migration (those cannot be redelivered).
ALTER TABLE webhook_deliveries
  ADD COLUMN stream_id uuid,
  ADD COLUMN seq integer,
  ADD COLUMN stream text;
