-- 000036: export signing keys get a validity window and a revoked state (issue 40).
--
-- A key signs from created_at until retired_at (its window, published as the
-- JWK's nbf and exp); a bundle verifies under it only if its manifest's
-- created_at falls within that window, so a retired key that leaked cannot
-- sign a bundle dated after its retirement. A revoked key (revoked_at) is
-- published as revoked and verifies nothing: a leaked key could backdate.
ALTER TABLE export_signing_keys ADD COLUMN revoked_at timestamptz;
