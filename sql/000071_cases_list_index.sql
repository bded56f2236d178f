-- GET /v1/cases (src/cases/list.ts) reads a tenant's cases newest first, in
-- pages. Cases share the actors table with inquiries, which outnumber them by
-- far; this partial index holds the cases alone, in the listing's order, so a
-- page is one short index scan however many inquiries the tenant has.
CREATE INDEX actors_cases_idx ON actors (tenant_id, mode, created_at DESC, id DESC)
  WHERE kind = 'case';
