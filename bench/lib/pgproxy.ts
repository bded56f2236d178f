import { connect, createServer, type Server, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

/**
 * A counting PostgreSQL wire-protocol proxy, for measuring what a request
 * costs the database without touching the service: every statement (`Q`
 * simple query, `E` execute of the extended protocol, with the SQL from the
 * preceding `P` parse), every round trip (`Q` or `S` sync, timed until the
 * server's `Z` ReadyForQuery) and every transaction (START TRANSACTION/BEGIN ...
 * COMMIT/ROLLBACK on one connection). Only for counting: it adds latency.
 */
export interface Transaction {
  statements: string[];
  roundTrips: number;
  dbMs: number;
  commitMs: number;
}

export interface Counters {
  statements: number;
  roundTrips: number;
  dbMs: number;
  commits: number;
  commitMs: number;
  transactions: Transaction[];
  /** Statements run outside any transaction (autocommit). */
  autocommit: string[];
  /** Round-trip time by statement (first 70 characters): how often, and milliseconds in all. */
  byStatement: Map<string, { count: number; ms: number; max: number }>;
  /** Bytes the service sent to PostgreSQL and received from it. */
  bytesToServer: number;
  bytesFromServer: number;
}

const fresh = (): Counters => ({
  statements: 0,
  roundTrips: 0,
  dbMs: 0,
  commits: 0,
  commitMs: 0,
  transactions: [],
  autocommit: [],
  byStatement: new Map(),
  bytesToServer: 0,
  bytesFromServer: 0,
});

/** First 110 characters of a statement with whitespace collapsed and literals left as sent. */
function shorten(sqlText: string): string {
  return sqlText.replace(/\s+/g, ' ').trim().slice(0, 110);
}

export async function startPgProxy(upstream: {
  host: string;
  port: number;
}): Promise<{ port: number; counters(): Counters; reset(): void; close(): Promise<void> }> {
  let c = fresh();
  const sockets = new Set<Socket>();

  const server: Server = createServer((client) => {
    const up = connect(upstream);
    sockets.add(client);
    sockets.add(up);
    let startup = true;
    let inbuf: Buffer = Buffer.alloc(0);
    let outbuf: Buffer = Buffer.alloc(0);
    let parsed = '';
    let txn: Transaction | null = null;
    // Round trips waiting for their ReadyForQuery, oldest first: [start time, is COMMIT, statement].
    const pending: [number, boolean, string][] = [];
    let lastText = '';

    const onStatement = (text: string) => {
      c.statements += 1;
      lastText = shorten(text).slice(0, 70);
      if (/^\s*(START TRANSACTION|BEGIN)\b/i.test(text)) {
        txn = { statements: [], roundTrips: 0, dbMs: 0, commitMs: 0 };
        return;
      }
      if (/^\s*(COMMIT|ROLLBACK)\b/i.test(text)) return;
      if (txn) txn.statements.push(shorten(text));
      else c.autocommit.push(shorten(text));
    };
    const onRoundTrip = (isCommit: boolean) => {
      c.roundTrips += 1;
      if (txn) txn.roundTrips += 1;
      pending.push([performance.now(), isCommit, lastText]);
    };

    client.on('data', (chunk: Buffer) => {
      up.write(chunk);
      c.bytesToServer += chunk.length;
      inbuf = inbuf.length ? Buffer.concat([inbuf, chunk]) : chunk;
      for (;;) {
        if (startup) {
          if (inbuf.length < 8) return;
          const len = inbuf.readInt32BE(0);
          if (inbuf.length < len) return;
          // An SSLRequest (code 80877103) is followed by the real startup message.
          startup = inbuf.readInt32BE(4) === 80877103;
          inbuf = inbuf.subarray(len);
          continue;
        }
        if (inbuf.length < 5) return;
        const type = String.fromCharCode(inbuf[0]!);
        const len = inbuf.readInt32BE(1);
        if (inbuf.length < 1 + len) return;
        const body = inbuf.subarray(5, 1 + len);
        inbuf = inbuf.subarray(1 + len);
        if (type === 'Q') {
          const text = body.toString('utf8', 0, body.indexOf(0));
          onStatement(text);
          onRoundTrip(/^\s*COMMIT\b/i.test(text));
        } else if (type === 'P') {
          const nameEnd = body.indexOf(0);
          parsed = body.toString('utf8', nameEnd + 1, body.indexOf(0, nameEnd + 1));
        } else if (type === 'E') {
          onStatement(parsed);
        } else if (type === 'S') {
          onRoundTrip(/^\s*COMMIT\b/i.test(parsed));
        }
      }
    });

    up.on('data', (chunk: Buffer) => {
      client.write(chunk);
      c.bytesFromServer += chunk.length;
      outbuf = outbuf.length ? Buffer.concat([outbuf, chunk]) : chunk;
      // Only ReadyForQuery matters here; every server message is type + length-prefixed.
      while (outbuf.length >= 5) {
        const len = outbuf.readInt32BE(1);
        if (outbuf.length < 1 + len) break;
        if (outbuf[0] === 0x5a /* Z */) {
          const status = String.fromCharCode(outbuf[5]!);
          const rt = pending.shift();
          if (rt) {
            const ms = performance.now() - rt[0];
            c.dbMs += ms;
            const st = c.byStatement.get(rt[2]) ?? { count: 0, ms: 0, max: 0 };
            st.max = Math.max(st.max, ms);
            st.count += 1;
            st.ms += ms;
            c.byStatement.set(rt[2], st);
            if (txn) txn.dbMs += ms;
            if (rt[1]) {
              c.commits += 1;
              c.commitMs += ms;
              if (txn) txn.commitMs += ms;
            }
          }
          // Idle again: whatever transaction was open on this connection is over.
          if (status === 'I' && txn) {
            c.transactions.push(txn);
            txn = null;
          }
        }
        outbuf = outbuf.subarray(1 + len);
      }
    });

    const close = () => {
      client.destroy();
      up.destroy();
      sockets.delete(client);
      sockets.delete(up);
    };
    client.on('error', close).on('close', close);
    up.on('error', close).on('close', close);
  });

  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as { port: number }).port,
    counters: () => c,
    reset: () => {
      c = fresh();
    },
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
