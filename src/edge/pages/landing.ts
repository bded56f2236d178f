import { createHash } from 'node:crypto';
import type { BoundRoute, Handler } from '../handler.js';
import type { OperationSpec } from '../../schemas/operation.js';
import { firstInquiryCurl } from './firstInquiry.js';

/**
 * GET / (issue 38): where a newcomer who opened the service's address lands.
 * A small index of the pages the service serves, the registry listings that
 * say what a key may declare, and a first inquiry to copy. HTML for a
 * browser; the same links as JSON for `Accept: application/json`. Open and
 * audited like /docs; not part of the API contract (outside /v1, where every
 * unknown path keeps its problem document). GET /favicon.ico answers too, so
 * no page of the service logs a 404 in the browser's console.
 */
const LINKS: readonly { href: string; rel: string; text: string }[] = [
  { href: '/docs', rel: 'docs', text: 'API reference (the OpenAPI 3.1 document is /openapi.json)' },
  { href: '/console', rel: 'console', text: "Investigator's console: cases, inquiries and entities, with a test key" },
  { href: '/examples/session', rel: 'session_example', text: 'Live session example (WebSocket)' },
  { href: '/healthz', rel: 'health', text: 'Health: database, Redis, resolver, registry, OCR' },
  { href: '/v1/registry/artifact-types', rel: 'artifact_types', text: 'Artifact types your key may present (needs the key)' },
  { href: '/v1/registry/intents', rel: 'intents', text: 'Intents your key may declare (needs the key)' },
  { href: '/v1/registry/purposes', rel: 'purposes', text: 'Purposes your key may declare (needs the key)' },
];

// The first inquiry is one long line (its JSON body): it wraps, anywhere, so the page never scrolls sideways.
const STYLE = 'body { overflow-wrap: anywhere; } pre { white-space: pre-wrap; overflow-wrap: anywhere; }';
// The one inline style is allowed by its hash: no other style, script or source runs.
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');
const CSP = `default-src 'none'; img-src 'self'; style-src 'sha256-${STYLE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
const HEADERS = { 'Cache-Control': 'no-cache', 'Content-Security-Policy': CSP, 'X-Content-Type-Options': 'nosniff', Vary: 'Accept' };

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function landingPage(baseUrl: string): string {
  const items = LINKS.map((l) => `    <li><a href="${l.href}">${escape(l.href)}</a>: ${escape(l.text)}</li>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Trust assessment service</title>
  <link rel="icon" href="/favicon.ico" type="image/svg+xml">
  <style>${STYLE}</style>
</head>
<body>
  <main>
  <h1>Trust assessment service</h1>
  <p>How much should this subject be trusted for this purpose at this stake, and how sure is the answer?
  Every call to <code>/v1</code> carries <code>Authorization: Bearer &lt;key&gt;</code>; <code>npm start</code> prints a test key on a development machine.</p>
  <ul>
${items}
  </ul>
  <h2>A first inquiry</h2>
  <pre>${escape(firstInquiryCurl(baseUrl, '$TAS_KEY'))}</pre>
  </main>
</body>
</html>
`;
}

// A shield, drawn as a path: the service's only image.
const FAVICON = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><path d="M8 1 2 3v5c0 3.5 2.6 6.2 6 7 3.4-.8 6-3.5 6-7V3z" fill="#1f5fa8"/></svg>',
);

function wantsJson(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.includes('application/json') && !accept.includes('text/html');
}

function landingHandler(publicUrl: () => string): Handler {
  return (ctx) => {
    if (wantsJson(ctx.ex.headers.accept)) {
      const links = Object.fromEntries(LINKS.map((l) => [l.rel, l.href]));
      return Promise.resolve({ status: 200, body: { service: 'trust assessment service', links }, headers: HEADERS });
    }
    return Promise.resolve({ status: 200, raw: landingPage(publicUrl()), contentType: 'text/html; charset=utf-8', headers: HEADERS });
  };
}

const faviconHandler: Handler = () =>
  Promise.resolve({
    status: 200,
    raw: FAVICON,
    contentType: 'image/svg+xml',
    headers: { 'Cache-Control': 'public, max-age=86400', 'X-Content-Type-Options': 'nosniff' },
  });

const pageOp = (operationId: string, path: string, summary: string): OperationSpec => ({
  operationId,
  method: 'get',
  path,
  tag: 'meta',
  summary,
  auth: 'open',
  success: { status: 200, description: summary },
  validation: false,
});

export function landingRoutes(publicUrl: () => string): [string, BoundRoute][] {
  return [
    ['/', { op: pageOp('getIndex', '/', "The service's index page"), handler: landingHandler(publicUrl) }],
    ['/favicon.ico', { op: pageOp('getFavicon', '/favicon.ico', "The service's icon"), handler: faviconHandler }],
  ];
}
