-- 000004: monitors, the read model of standing watches (DESIGN 2.8
-- "Monitors"). The monitor actor's snapshot (table actors, kind 'monitor') is
-- the source of its state; this row is what GET /v1/monitors/{id} reads and
-- what a rescan needs to rebuild its inquiry: the declared subject, intent,
-- purpose and stake exactly as the caller sent them, the triggers, and who
-- opened the watch. The schedule itself lives in BullMQ (a job scheduler
-- keyed by the monitor id), never here, so there is one schedule per monitor
-- however many worker processes run. Tenant-owned and isolated by row-level
-- security like 000001.

CREATE TABLE monitors (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  mode text NOT NULL,
  subject jsonb NOT NULL,
  intent text NOT NULL,
  purpose text NOT NULL,
  stake jsonb NOT NULL,
  triggers jsonb NOT NULL,
  cadence_seconds integer NOT NULL,
  case_id uuid,
  -- The audit principal of the key that opened the watch (`key:<uuid>`) and
  -- that key's id; rescans run as `monitor:<id>`, never as the key.
  created_by text NOT NULL,
  created_by_key_id uuid NOT NULL,
  state text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz,
  last_assessment_id uuid REFERENCES assessments (id),
  CONSTRAINT monitors_mode_check CHECK (mode IN ('live', 'test')),
  CONSTRAINT monitors_state_check CHECK (state IN ('active', 'rescanning', 'closed')),
  CONSTRAINT monitors_cadence_check CHECK (cadence_seconds >= 1),
  CONSTRAINT monitors_closed_check CHECK ((state = 'closed') = (closed_at IS NOT NULL))
);
ALTER TABLE monitors ENABLE ROW LEVEL SECURITY;
CREATE POLICY monitors_isolation ON monitors TO tas_service
  USING (tenant_id = tas_current_tenant() AND mode = tas_current_mode());
-- What a watch declared is fixed once opened; only its state and last look move.
GRANT SELECT, INSERT, UPDATE (state, closed_at, last_assessment_id) ON monitors TO tas_service;
