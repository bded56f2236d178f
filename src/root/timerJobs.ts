import { UnrecoverableError, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { parseJobData, type QueueProcessor, type TimerHandler, type TimerTable } from '../../actors/queues.js';

/**
 * The timer worker's processor: a delayed `actor.timer` job comes due and
 * its event goes to the handler registered for the event's type, which
 * sends it back to the actor it belongs to. Each capability registers its
 * own timers (its jobs.ts exports a TimerTable); the root only puts the
 * tables together. A timer for an actor that has since moved on is
 * harmless: the machine ignores events its state does not handle.
 */

// Timers are tiny (one actor command each); a few in parallel keep a burst of deadlines on time.
const TIMER_CONCURRENCY = 8;

/** The capabilities' tables as one; an event type two of them claim is a wiring mistake, refused at start. */
export function timerRoutes(...tables: readonly TimerTable[]): TimerTable {
  const routes: Record<string, TimerHandler> = {};
  for (const table of tables) {
    for (const [type, handler] of Object.entries(table)) {
      if (Object.hasOwn(routes, type)) throw new Error(`two handlers for the timer event ${type}`);
      routes[type] = handler;
    }
  }
  return routes;
}

export function timerProcessor(routes: TimerTable, log: Pick<Logger, 'warn'>): QueueProcessor<'timers'> {
  return {
    queue: 'timers',
    concurrency: TIMER_CONCURRENCY,
    async process(job: Job) {
      if (job.name !== 'actor.timer') throw new UnrecoverableError(`unknown timer job ${job.name}`);
      const timer = parseJobData('timers', 'actor.timer', job.data);
      const handler = Object.hasOwn(routes, timer.event.type) ? routes[timer.event.type] : undefined;
      if (handler) await handler(timer);
      else log.warn({ actorId: timer.actorId, type: timer.event.type }, 'timer for an event nobody handles');
    },
  };
}
