import { sql } from 'slonik';
import { z } from 'zod';
import { createDb, type Db } from '../platform/db/pool.js';

/**
 * The audit trail's monthly partitions (000090). Creating and dropping a
 * partition takes the tables' owner, so both run on the owner's login (the
 * one that migrates), never on the service's: the service creates the months
 * ahead when it starts and once a day after; retention is the operator's
 * command (`tas audit retain --before YYYY-MM-DD`). A row whose month has no
 * partition yet still lands, in the DEFAULT partition.
 */
export const AUDIT_MONTHS_AHEAD = 3;

/** Creates this month's and the next `months` months' partitions where missing; the number created. */
export async function auditPartitionsAhead(owner: Db, months = AUDIT_MONTHS_AHEAD, today?: string): Promise<number> {
  return owner.oneFirst(
    sql.type(z.object({ made: z.number() }))`SELECT tas_audit_partitions_ahead(${months}, ${today ?? null}::date) AS made`,
  );
}

/**
 * Drops every month wholly before `before` (a date), log and chain together,
 * keeping what the chains need to verify across the gap; a month still holding
 * rows not yet sealed is kept. The months dropped, as YYYY-MM.
 */
export async function retainAudit(owner: Db, before: string): Promise<readonly string[]> {
  return owner.oneFirst(sql.type(z.object({ dropped: z.array(z.string()) }))`SELECT tas_audit_retain(${before}::date) AS dropped`);
}

/** The months ahead on a short-lived connection of the owner's login (the service's start and its daily pass). */
export async function prepareAuditPartitions(ownerUrl: string, months = AUDIT_MONTHS_AHEAD): Promise<number> {
  const owner = await createDb(ownerUrl, { prepare: false });
  try {
    return await auditPartitionsAhead(owner, months);
  } finally {
    await owner.end();
  }
}
