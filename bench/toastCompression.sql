-- psql -h 127.0.0.1 -U postgres -d tas -f bench/toastCompression.sql
-- PostgreSQL's own time to store 5,000 fresh copies of an inquiry's findings (the
-- largest JSON value an inquiry writes) compressed with pglz, then with lz4,
-- twice each, interleaved. Each copy is a new value (a key added), so each
-- one is compressed, as an inquiry's is. Needs one stored assessment (any inquiry made with
-- `npm start`); everything it creates is temporary and gone with the session.
\timing on
CREATE TEMP TABLE sample AS SELECT findings FROM assessments ORDER BY octet_length(findings::text) DESC LIMIT 1;
SELECT octet_length(findings::text) AS findings_text_bytes FROM sample;
CREATE TEMP TABLE with_pglz (findings jsonb COMPRESSION pglz);
CREATE TEMP TABLE with_lz4 (findings jsonb COMPRESSION lz4);
INSERT INTO with_pglz SELECT findings || jsonb_build_object('copy', g) FROM sample, generate_series(1, 5000) AS g;
INSERT INTO with_lz4 SELECT findings || jsonb_build_object('copy', g) FROM sample, generate_series(1, 5000) AS g;
INSERT INTO with_pglz SELECT findings || jsonb_build_object('copy', g) FROM sample, generate_series(1, 5000) AS g;
INSERT INTO with_lz4 SELECT findings || jsonb_build_object('copy', g) FROM sample, generate_series(1, 5000) AS g;
SELECT pg_column_compression(findings) AS method, avg(pg_column_size(findings))::int AS stored_bytes FROM with_pglz GROUP BY 1
UNION ALL
SELECT pg_column_compression(findings), avg(pg_column_size(findings))::int FROM with_lz4 GROUP BY 1;
