import { v7 } from 'uuid';

/**
 * Ids of rows that are only ever appended (inquiries, assessments, entities,
 * observations, audit rows): UUIDv7 (RFC 9562), a millisecond timestamp
 * followed by random bits. Time-ordered keys land at the right-hand edge of
 * their primary-key index, so an insert touches the same few hot pages
 * instead of a random one, and after a checkpoint PostgreSQL logs far fewer
 * full-page images (issue 15: random v4 keys cost 14-44 KB of WAL per
 * inquiry). The 74 random bits keep ids unguessable; the creation time they
 * carry is already on every such resource (`created_at`, `as_of`). Secrets
 * and tokens never use this: they come from crypto.randomBytes.
 */
export function newRowId(): string {
  return v7();
}
