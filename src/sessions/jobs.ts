import type { ActorTimerJob, TimerTable } from '../../actors/queues.js';

/**
 * The session's jobs: its two durable timers on the `timers` queue, the idle
 * check and the end of a REST close's drain. The command decides from the
 * session's state under its row lock whether the timer still means anything.
 */
export function sessionTimers(sessions: { fireTimer(job: ActorTimerJob): Promise<void> }): TimerTable {
  const fire = (job: ActorTimerJob) => sessions.fireTimer(job);
  return { 'session.idleCheck': fire, 'session.drainExpired': fire };
}
