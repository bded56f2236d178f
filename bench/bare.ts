import * as uWS from '../src/edge/uws.js';
import { sql } from 'slonik';
import { createDb, type Db } from '../src/platform/db/pool.js';

/**
 * The two reference points, each run as its own child process:
 * - `json`: a bare uWS handler answering a fixed JSON body (the ceiling for /v1/health);
 * - `insert`: a bare uWS handler that reads the request body and does ONE
 *   durable INSERT of it (autocommit, synchronous_commit as the server has it)
 *   through the same pool as the service (createDb from src/platform/db/pool.ts), into
 *   a scratch table of a scratch database (DATABASE_URL; the parent drops it).
 * Reports `{type: 'listening', port}` over IPC.
 */
const mode = process.argv[2];
const BODY = JSON.stringify({ status: 'ok', mode: 'live' });

async function main(): Promise<void> {
  const app = uWS.App();
  if (mode === 'json') {
    app.any('/*', (res) => {
      res.cork(() => res.writeStatus('200 OK').writeHeader('Content-Type', 'application/json').end(BODY));
    });
  } else if (mode === 'insert') {
    const db = await createDb(process.env.DATABASE_URL!);
    await db.query(sql.unsafe`CREATE TABLE IF NOT EXISTS bench_scratch (
      id bigserial PRIMARY KEY, payload jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
    app.any('/*', (res) => insertHandler(db, res));
  } else {
    throw new Error(`usage: bare.ts json|insert (got ${mode})`);
  }
  app.listen('127.0.0.1', 0, (socket) => {
    if (!socket) throw new Error('bare server could not listen');
    process.send?.({ type: 'listening', port: uWS.us_socket_local_port(socket) });
  });
}

function insertHandler(db: Db, res: uWS.HttpResponse): void {
  let aborted = false;
  const chunks: Buffer[] = [];
  res.onAborted(() => {
    aborted = true;
  });
  res.onData((ab, isLast) => {
    // uWS reuses the ArrayBuffer after this callback returns: copy it.
    chunks.push(Buffer.from(ab.slice(0)));
    if (!isLast) return;
    const text = Buffer.concat(chunks).toString('utf8') || '{}';
    db.query(sql.unsafe`INSERT INTO bench_scratch (payload) VALUES (${text}::jsonb) RETURNING id`).then(
      (r) => reply(res, aborted, 200, JSON.stringify({ id: String((r.rows[0] as { id: unknown }).id) })),
      (err: Error) => reply(res, aborted, 500, JSON.stringify({ error: err.message })),
    );
  });
}

function reply(res: uWS.HttpResponse, aborted: boolean, status: number, body: string): void {
  if (aborted) return;
  res.cork(() =>
    res
      .writeStatus(status === 200 ? '200 OK' : '500 Internal Server Error')
      .writeHeader('Content-Type', 'application/json')
      .end(body),
  );
}

process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
main().catch((err: Error) => {
  process.send?.({ type: 'error', error: err.stack ?? err.message });
  process.exit(1);
});
