-- Velocity (issue 11): how often a value was presented to the tenant in the
-- last hour and day. Every inquiry stores its normalised presentations in
-- `request->'presentations'`; this index answers "inquiries containing this
-- (type, normalised) pair" without scanning the tenant's inquiries.
CREATE INDEX inquiries_presentations_idx ON inquiries USING gin ((request->'presentations') jsonb_path_ops);
