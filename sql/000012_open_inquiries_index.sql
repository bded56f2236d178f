-- The deadline sweeper (src/inquiries/sweeper.ts) looks for inquiries still
-- open past their bound every few seconds; open ones are few, so a partial
-- index keeps that look-up small however many actors the table holds.
CREATE INDEX actors_open_inquiries_idx ON actors (created_at)
  WHERE kind = 'inquiry' AND snapshot->>'value' IN ('reasoning', 'preliminary');
