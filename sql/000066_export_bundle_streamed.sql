-- Export bundles read in slices, with a stored hash (issue 40).
--
-- A download used to read the whole bundle (up to 256 MiB) into the edge's
-- memory and hash it on the event loop for the ETag. Now the edge reads it
-- in slices of 1 MiB, each its own short query (substring of the column),
-- and the ETag is the SHA-256 the export worker stored when it built the
-- bundle. EXTERNAL storage keeps the value out of line and uncompressed, so a
-- substring reads only the TOAST chunks it covers (a gzip bundle does not
-- compress anyway); bundles stored before keep their form and still read.
ALTER TABLE case_exports ADD COLUMN bundle_sha256 text;
ALTER TABLE case_exports ALTER COLUMN bundle SET STORAGE EXTERNAL;
UPDATE case_exports SET bundle_sha256 = encode(sha256(bundle), 'hex') WHERE bundle IS NOT NULL;
ALTER TABLE case_exports ADD CONSTRAINT case_exports_bundle_hashed_check CHECK (bundle IS NULL OR bundle_sha256 IS NOT NULL);
