import type { StreamEvent } from '../../actors/types.js';

/**
 * The in-order sender of one session's events to its socket, the WebSocket
 * counterpart of the SSE pump (src/routes/streams.ts). Events come from three
 * places: the commands this socket ran (returned after commit), the Redis
 * fan-out (commands run elsewhere: a REST close, a timer), and Postgres (the
 * replay when the socket attaches, and any gap). Every one goes through
 * `offer`; only seq = last sent + 1 is delivered, duplicates are dropped, and
 * a gap is filled from Postgres, where every published event already is.
 *
 * `hold` / `release` bracket a frame's command, so its ack is written before
 * the events it caused even when the fan-out delivers them first.
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
}): EventPump {
  let last = 0;
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
  };

  const resync = () => {
    if (stopped) return;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    readAll().catch(deps.onError).finally(() => {
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
