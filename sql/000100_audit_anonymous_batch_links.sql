-- 000100: calls refused before any tenant is known are sealed in batches (issue 40).
--
-- A refusal with no tenant (no key, a bad key, the per-address limit; the
-- chain 'anonymous') still writes its one audit_log row, but no longer one
-- audit_chain link of its own: that link was 269 of the 562 bytes a refusal
-- cost. Each sealing pass now links the anonymous rows it takes with one
-- link per UTC month among them: sha256(previous link || the canonical form
-- of every row of the batch, in order). The link names its rows in
-- `members`, their seq in the order hashed (about 4 bytes a row, compressed
-- with the link), so the verifier reads each row back and recomputes the
-- link; a row changed, removed or added to the list breaks it.
--
-- The link takes its first row's audit_id and occurred_at, and every row it
-- names is of the same month, so the link and its rows live in partitions of
-- the same month (000090) and retention drops them together; retention's
-- runs of positions are unchanged, since each batch is one position.
--
-- Links of a tenant's chain, and the anonymous links sealed before this
-- migration, name no members: one link per row, as before.
--
-- A new nullable column with no default changes no stored row; the check is
-- added NOT VALID (every existing link has no members) and holds for every
-- link written from now on, and for every partition made later.

ALTER TABLE audit_chain ADD COLUMN members bigint[];
ALTER TABLE audit_chain ADD CONSTRAINT audit_chain_members_check
  CHECK (members IS NULL OR (chain_key = 'anonymous' AND tenant_id IS NULL AND cardinality(members) > 0)) NOT VALID;
COMMENT ON COLUMN audit_chain.members IS
  'A batch link (anonymous chain only): the seq of each audit_log row it links, in the order hashed; all of its month. NULL: the link of the one row audit_id names.';
