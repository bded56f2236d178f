import type { TenantScheduling } from './unitContext.js';

/**
 * A job's handling as a unit of its tenant in the process's one scheduler
 * (issue 48): extraction steps, monitor rescans, webhook preparation. For
 * the one worker factory (src/root) to wrap each processor with, so that a
 * worker process shares its event loop across tenants as an edge does: a
 * tenant's jobs take turns by cost with every other tenant's, and a job's
 * database waits free its slot like a request's. Jobs are paced, never
 * refused (the queue already holds them); a job with no tenant (the
 * service's own sweeps) runs at once.
 *
 * This shares the worker's time once jobs are taken. Which jobs a worker
 * takes is the queue's order: per-tenant rank priorities
 * (src/material/fairShare.ts, docs/design-decisions.md "Workers take jobs
 * fairly across tenants").
 */
export function scheduledJob<J, R>(
  scheduler: TenantScheduling | undefined,
  kind: string,
  tenantOf: (job: J) => string | null,
  process: (job: J) => Promise<R>,
): (job: J) => Promise<R> {
  if (!scheduler) return process;
  return (job) => {
    const tenant = tenantOf(job);
    return tenant === null ? process(job) : scheduler.run(tenant, `job:${kind}`, () => process(job), { whenFull: 'wait' });
  };
}
