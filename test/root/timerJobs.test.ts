import { describe, expect, it } from 'vitest';
import type { ActorTimerJob } from '../../actors/queues.js';
import { inquiryTimers } from '../../src/inquiries/jobs.js';
import { sessionTimers } from '../../src/sessions/jobs.js';
import { timerRoutes } from '../../src/root/timerJobs.js';

/**
 * Timer routing is a table each capability registers (issue 49 item 7):
 * the root concatenates the inquiry's and the session's tables and knows no
 * event type itself. Given the tables, when put together, then every timer
 * event of both machines has its one handler, and a type claimed twice is
 * refused at start rather than routed to whichever came last.
 */
const job = (type: string): ActorTimerJob => ({
  tenantId: '00000000-0000-4000-8000-000000000001',
  mode: 'test',
  actorId: '00000000-0000-4000-8000-000000000002',
  event: { type },
});

describe('timer routes', () => {
  it('given the inquiry and session tables, then each of their four timer events reaches its own command', async () => {
    const fired: string[] = [];
    const routes = timerRoutes(
      inquiryTimers({ fireTimer: (_scope, id, type) => Promise.resolve(void fired.push(`inquiry ${id} ${type}`)) }),
      sessionTimers({ fireTimer: (j) => Promise.resolve(void fired.push(`session ${j.actorId} ${j.event.type}`)) }),
    );
    expect(Object.keys(routes).sort()).toEqual(['deadline.reached', 'reasoning.expired', 'session.drainExpired', 'session.idleCheck']);
    for (const type of Object.keys(routes).sort()) await routes[type]!(job(type));
    const id = job('x').actorId;
    expect(fired).toEqual([
      `inquiry ${id} deadline.reached`,
      `inquiry ${id} reasoning.expired`,
      `session ${id} session.drainExpired`,
      `session ${id} session.idleCheck`,
    ]);
  });

  it('given two tables that claim one event type, then putting them together is refused', () => {
    const noop = () => Promise.resolve();
    expect(() => timerRoutes({ 'deadline.reached': noop }, { 'deadline.reached': noop })).toThrow(
      /two handlers for the timer event deadline.reached/,
    );
  });
});
