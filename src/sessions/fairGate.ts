import type { Scheduler } from '../platform/scheduler.js';

/**
 * Frame work shared fairly across tenants (issue 40). Each socket applies its
 * own frames one at a time, but sockets ran side by side: a tenant with 50
 * flooding sessions had 50 frames in the database at once against another
 * tenant's one, and the process served frames first come, first served (the
 * fair-share bench measured another tenant's frame-to-assessment p99 at 14x
 * idle). Here a process-wide number of slots is handed out in turn across
 * tenants with frames waiting: a tenant's next frame waits for at most one
 * frame of each other waiting tenant, whatever its number of sessions.
 */
export interface FairGate {
  /** Resolves when the tenant's turn comes; call the returned release once the frame is applied. */
  acquire(tenantId: string): Promise<() => void>;
  /**
   * Applies the frame in the tenant's turn. Over the scheduler the frame's own
   * code runs as the unit, so its database waits let the slot go (issue 48).
   */
  run<T>(tenantId: string, apply: () => Promise<T>): Promise<T>;
  /** Frames waiting for a slot, all tenants together (for tests and health). */
  waiting(): number;
}

export function createFairGate(slots: number): FairGate {
  // Tenants with waiters, in turn order; each with its own waiters in arrival order.
  const queues = new Map<string, (() => void)[]>();
  let busy = 0;
  let waiting = 0;

  function grant(): void {
    while (busy < slots && queues.size > 0) {
      const [tenantId, waiters] = queues.entries().next().value!;
      const next = waiters.shift()!;
      // The tenant goes to the back of the turn order, with whatever it still has waiting.
      queues.delete(tenantId);
      if (waiters.length > 0) queues.set(tenantId, waiters);
      busy += 1;
      waiting -= 1;
      next();
    }
  }

  function release(): void {
    busy -= 1;
    grant();
  }

  const gate: FairGate = {
    async run(tenantId, apply) {
      const release = await gate.acquire(tenantId);
      try {
        return await apply();
      } finally {
        release();
      }
    },
    acquire(tenantId) {
      return new Promise((resolve) => {
        let released = false;
        const once = () => {
          if (released) return;
          released = true;
          release();
        };
        const waiters = queues.get(tenantId);
        if (waiters) waiters.push(() => resolve(once));
        else queues.set(tenantId, [() => resolve(once)]);
        waiting += 1;
        grant();
      });
    },
    waiting: () => waiting,
  };
  return gate;
}

/**
 * The gate over the process's one scheduler (issue 48): a frame's application
 * is a unit of its tenant, taking turns with the tenant's HTTP calls and every
 * other tenant's work, by cost rather than by count. A tenant whose queue is
 * full is paced, never refused: the frame waits for room (one per socket, since
 * a socket applies its frames one at a time) and is acknowledged later.
 */
export function schedulerGate(scheduler: Scheduler): FairGate {
  let waiting = 0;
  return {
    async run(tenantId, apply) {
      waiting += 1;
      let started = false;
      const unit = () => {
        started = true;
        waiting -= 1;
        return apply();
      };
      try {
        return await scheduler.run(tenantId, 'frame', unit, { whenFull: 'wait' });
      } finally {
        if (!started) waiting -= 1;
      }
    },
    acquire(tenantId) {
      waiting += 1;
      return new Promise((resolve, reject) => {
        scheduler
          .run(
            tenantId,
            'frame',
            () =>
              new Promise<void>((done) => {
                waiting -= 1;
                let released = false;
                resolve(() => {
                  if (released) return;
                  released = true;
                  done();
                });
              }),
            { whenFull: 'wait' },
          )
          .catch((error: unknown) => {
            waiting -= 1;
            reject(error instanceof Error ? error : new Error(String(error)));
          });
      });
    },
    waiting: () => waiting,
  };
}
