-- 000140: signed seals (issue 50). Each seal of either trail carries an Ed25519
-- signature by the service's export signing key (the case bundles' key,
-- 000014, published at /.well-known/tas-export-keys.json), over the seal's
-- statement (src/audit/sealSignature.ts): a tenant checks the seals of its
-- exported trail offline with the published keys alone.
--
--   kid, signed_at, signature: all three or none. None: a seal not signed yet
--   (made before 000140, or by a sealer without the key); the sealer signs it
--   on a later pass.
--
-- The seal's trigger (000120) lets a seal grow within its day and nothing
-- else; it now also lets a seal be signed once, at any time, when nothing
-- else about it changes. A grown seal is signed anew in the same statement.

ALTER TABLE audit_seals ADD COLUMN kid text, ADD COLUMN signed_at timestamptz, ADD COLUMN signature bytea,
  ADD CONSTRAINT audit_seals_signed_check CHECK ((kid IS NULL) = (signature IS NULL) AND (kid IS NULL) = (signed_at IS NULL));
ALTER TABLE audit_refusal_seals ADD COLUMN kid text, ADD COLUMN signed_at timestamptz, ADD COLUMN signature bytea,
  ADD CONSTRAINT audit_refusal_seals_signed_check CHECK ((kid IS NULL) = (signature IS NULL) AND (kid IS NULL) = (signed_at IS NULL));

-- The seals waiting for a signature: the sealer's look-up each pass, an empty index once all are signed.
CREATE INDEX audit_seals_unsigned ON audit_seals (tenant_id, mode, period) WHERE signature IS NULL;
CREATE INDEX audit_refusal_seals_unsigned ON audit_refusal_seals (chain_key, period) WHERE signature IS NULL;

CREATE OR REPLACE FUNCTION tas_audit_seal_grows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Signed once: every other column as it was.
  IF TG_OP = 'UPDATE' AND OLD.signature IS NULL AND NEW.signature IS NOT NULL
     AND to_jsonb(NEW) - ARRAY['kid', 'signed_at', 'signature'] = to_jsonb(OLD) - ARRAY['kid', 'signed_at', 'signature'] THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE' OR NEW.period <> OLD.period OR NEW.first_position <> OLD.first_position
     OR NEW.first_prev <> OLD.first_prev OR NEW.last_position <= OLD.last_position
     OR OLD.period < (now() AT TIME ZONE 'UTC')::date THEN
    RAISE EXCEPTION '% only grows within its day, and is signed once', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END
$$;
