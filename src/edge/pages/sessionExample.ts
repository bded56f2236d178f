import { readFileSync } from 'node:fs';
import type { BoundRoute, Handler } from '../handler.js';
import type { OperationSpec } from '../../schemas/operation.js';

/**
 * GET /examples/session (and its script): a small page that opens a session
 * with an API key, or connects with a session token a backend opened, streams
 * typed lines and shows the assessment as it is revised. Open like /docs (no
 * key to load it; the page asks for one), audited like every call, and not
 * part of the API contract, so it is not in OPERATIONS or the OpenAPI document.
 *
 * The script is a separate file so the page can forbid inline script in its
 * Content-Security-Policy: whatever a server message holds, it cannot run.
 */
const PAGE = readFileSync(new URL('./example/session.html', import.meta.url));
const SCRIPT = readFileSync(new URL('./example/session.js', import.meta.url));

// Only this origin's scripts, and sockets back to where the page came from.
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self' ws: wss:; base-uri 'none'; form-action 'none'";

function staticOp(operationId: string, path: string, summary: string): OperationSpec {
  return {
    operationId,
    method: 'get',
    path,
    tag: 'meta',
    summary,
    auth: 'open',
    success: { status: 200, description: summary },
    validation: false,
  };
}

function serve(body: Buffer, contentType: string): Handler {
  return () =>
    Promise.resolve({
      status: 200,
      raw: body,
      contentType,
      headers: { 'Cache-Control': 'no-cache', 'Content-Security-Policy': CSP, 'X-Content-Type-Options': 'nosniff' },
    });
}

export function exampleRoutes(): [string, BoundRoute][] {
  return [
    [
      '/examples/session',
      {
        op: staticOp('getSessionExample', '/examples/session', 'Live session example page'),
        handler: serve(PAGE, 'text/html; charset=utf-8'),
      },
    ],
    [
      '/examples/session.js',
      {
        op: staticOp('getSessionExampleScript', '/examples/session.js', 'Script of the live session example page'),
        handler: serve(SCRIPT, 'application/javascript; charset=utf-8'),
      },
    ],
  ];
}
