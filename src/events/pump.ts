import type { StreamEvent } from '../../actors/types.js';

/**
 * The one in-order sender of a stream's events, used by the SSE streams
 * (src/events/routes.ts) and the session sockets (src/sessions/connection.ts).
 * Events come from Postgres (the replay from the client's cursor, and any
 * gap), from the Redis fan-out, and for a socket from the commands it ran.
 * Every one goes through `offer`; only seq = last sent + 1 is delivered,
 * duplicates are dropped, and a gap is filled from Postgres, where every
 * published event already is. A reader that must respect backpressure waits
 * inside its own `read` (the next page is asked for only once the last left).
 *
 * `hold` / `release` bracket what must go out first: a session frame's ack
 * before the events its command caused, or an SSE response's head before the
 * events that arrive while it is being opened.
 */
export interface EventPump {
  offer(events: readonly StreamEvent[]): void;
  /** Reads Postgres after the last event sent (attach, a hub resync, a gap). */
  resync(): void;
  hold(): void;
  release(): void;
  stop(): void;
  lastSent(): number;
}

// Rows per Postgres read: a session's whole stream is rarely longer than this.
const PAGE = 200;
// Events held while waiting for a gap to fill; past this they are dropped and Postgres is read instead.
const MAX_HELD = 1000;

export function createEventPump(deps: {
  read(afterSeq: number, limit: number): Promise<readonly StreamEvent[]>;
  deliver(event: StreamEvent): void;
  onError(error: unknown): void;
  onGap?(from: number, to: number): void;
  /** After a read that left nothing waiting: the stream is sent up to what Postgres holds. */
  onCaughtUp?(): void;
  /** The seq the client already holds (its Last-Event-ID); 0 for the whole stream. */
  startAfter?: number;
}): EventPump {
  let last = deps.startAfter ?? 0;
  const held = new Map<number, StreamEvent>();
  let holds = 0;
  let reading = false;
  let again = false;
  let stopped = false;

  const keep = (e: StreamEvent) => {
    if (e.seq > last && held.size < MAX_HELD) held.set(e.seq, e);
  };

  /** Sends what is contiguous; true when an event is waiting behind a gap. */
  const drain = (): boolean => {
    if (holds > 0 || stopped) return false;
    for (let e = held.get(last + 1); e !== undefined && !stopped; e = held.get(last + 1)) {
      held.delete(e.seq);
      last = e.seq;
      deps.deliver(e);
    }
    for (const seq of held.keys()) if (seq <= last) held.delete(seq);
    return held.size > 0;
  };

  const readAll = async () => {
    do {
      again = false;
      for (;;) {
        const before = last;
        const rows = await deps.read(last, PAGE);
        if (stopped) return;
        rows.forEach(keep);
        const gap = drain();
        if (gap && last === before && rows.length === 0) {
          // Postgres lacks the missing rows too (it should not: publishing follows commit):
          // deliver the committed live events rather than stall behind the gap forever.
          const next = Math.min(...held.keys());
          deps.onGap?.(last, next);
          last = next - 1;
          drain();
        }
        if (rows.length < PAGE) break;
      }
    } while (again && !stopped);
    if (!stopped && held.size === 0) deps.onCaughtUp?.();
  };

  const resync = () => {
    if (stopped) return;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    readAll()
      .catch((error: unknown) => deps.onError(error))
      .finally(() => {
        reading = false;
      });
  };

  return {
    offer(events) {
      events.forEach(keep);
      if (drain()) resync();
    },
    resync,
    hold() {
      holds += 1;
    },
    release() {
      holds = Math.max(0, holds - 1);
      if (drain()) resync();
    },
    stop() {
      stopped = true;
      held.clear();
    },
    lastSent: () => last,
  };
}
