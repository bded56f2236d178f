-- 000005: live intake sessions (DESIGN 2.8 "Sessions") and the metadata of
-- every frame they received. Both tables are tenant-owned and isolated by
-- row-level security like 000001.
--
-- A session is an actor (kind `session`, machines/sessionMachine.ts) and owns
-- one inquiry row, so each assessment it issues is an ordinary ledger entry.
--
-- The connection token is shown once (in the 201 of POST /v1/sessions) and
-- kept only as its SHA-256: it is 256 random bits, so an unsalted digest is
-- enough to make a database dump useless for connecting. It is single-use and
-- expires; `tas_session_claim` is the one door that spends it.
--
-- Rule D35: frames are never stored. `session_frames` keeps, per frame, its
-- position, declared type (only when it is one of ours), size, the SHA-256 of
-- its bytes, whether it was accepted, the refusing rule, and derived values
-- (normalised identifiers with their offsets), never the frame's content.

CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  inquiry_id uuid NOT NULL REFERENCES inquiries (id),
  -- The key that opened it: its revocation ends the socket, and the upgrade
  -- is refused once the key is revoked or expired.
  opened_by_key uuid NOT NULL REFERENCES api_keys (id),
  principal text NOT NULL,
  purpose text NOT NULL,
  retention_mode text NOT NULL,
  consent_ref text,
  case_id uuid,
  idle_timeout_seconds integer NOT NULL,
  token_sha256 bytea NOT NULL,
  token_expires_at timestamptz NOT NULL,
  token_used_at timestamptz,
  state text NOT NULL DEFAULT 'open',
  close_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz,
  CONSTRAINT sessions_mode_check CHECK (mode IN ('live', 'test')),
  CONSTRAINT sessions_state_check CHECK (state IN ('open', 'closing', 'closed')),
  CONSTRAINT sessions_retention_check CHECK (retention_mode IN ('standard', 'transient')),
  CONSTRAINT sessions_idle_check CHECK (idle_timeout_seconds BETWEEN 10 AND 3600),
  CONSTRAINT sessions_closed_check CHECK ((state = 'closed') = (closed_at IS NOT NULL))
);
CREATE INDEX sessions_inquiry_idx ON sessions (inquiry_id);
ALTER TABLE sessions ENABLE ROW LEVEL SECURITY;
CREATE POLICY sessions_isolation ON sessions TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
-- The token columns are written once at insert; only tas_session_claim spends it.
GRANT SELECT, INSERT, UPDATE (state, close_reason, closed_at) ON sessions TO tas_service;

CREATE TABLE session_frames (
  session_id uuid NOT NULL REFERENCES sessions (id),
  seq integer NOT NULL,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  -- `presentation`, `text`, `observation`, `claim`, `close`, or `unknown`
  -- (binary, not JSON, or a type we do not know: the caller's string is not kept).
  type text NOT NULL,
  size_bytes integer NOT NULL,
  content_sha256 text NOT NULL,
  outcome text NOT NULL,
  rule text,
  derived jsonb NOT NULL DEFAULT '{}',
  received_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT session_frames_pkey PRIMARY KEY (session_id, seq),
  CONSTRAINT session_frames_mode_check CHECK (mode IN ('live', 'test')),
  CONSTRAINT session_frames_type_check CHECK (type IN ('presentation', 'text', 'observation', 'claim', 'close', 'unknown')),
  CONSTRAINT session_frames_outcome_check CHECK (outcome IN ('accepted', 'refused')),
  CONSTRAINT session_frames_sha256_check CHECK (content_sha256 ~ '^[0-9a-f]{64}$')
);
ALTER TABLE session_frames ENABLE ROW LEVEL SECURITY;
CREATE POLICY session_frames_isolation ON session_frames TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
GRANT SELECT, INSERT ON session_frames TO tas_service;
CREATE TRIGGER session_frames_append_only BEFORE UPDATE OR DELETE ON session_frames
  FOR EACH ROW EXECUTE FUNCTION tas_refuse_change();

-- Spending a connection token happens before the tenant is known (the token
-- is the credential), so, like tas_key_lookup, it is a narrow SECURITY DEFINER
-- function: one UPDATE that succeeds only for the right session and digest,
-- an unused and unexpired token, an open session and a key that is still
-- valid. Two connections racing with one token: exactly one gets a row.
CREATE FUNCTION tas_session_claim(p_session_id uuid, p_token_sha256 bytea)
  RETURNS TABLE (id uuid, tenant_id uuid, mode text, inquiry_id uuid, opened_by_key uuid, principal text,
                 purpose text, retention_mode text)
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public
  AS $$
    UPDATE sessions s SET token_used_at = now()
    FROM api_keys k
    WHERE s.id = p_session_id AND s.token_sha256 = p_token_sha256
      AND s.token_used_at IS NULL AND s.token_expires_at > now() AND s.state = 'open'
      AND k.id = s.opened_by_key AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
    RETURNING s.id, s.tenant_id, s.mode, s.inquiry_id, s.opened_by_key, s.principal, s.purpose, s.retention_mode
  $$;
REVOKE ALL ON FUNCTION tas_session_claim(uuid, bytea) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION tas_session_claim(uuid, bytea) TO tas_service;
