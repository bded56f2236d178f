/**
 * Cross-origin calls from browsers (issue 16). Keys are bearer tokens, never
 * cookies, so CORS here decides which web pages may read our answers, not who
 * may call: a tenant lists the origins of its own web apps in its policy
 * (`allowed_origins`, none by default).
 *
 * - A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`)
 *   carries no key, so it cannot know the tenant: it is answered for any
 *   origin with the methods the path takes and the headers we read. The
 *   decision is made on the call itself.
 * - A keyed call with an `Origin` of another site runs only when the key's
 *   tenant allows that origin (else 403, rule O01, before anything runs), and
 *   its answer then names the origin and exposes the headers clients read.
 * - Open operations (health, the document, the export keys) may be read from
 *   any origin.
 * - Same-origin calls (the origin is this service's own host) need nothing.
 */
const ALLOWED_REQUEST_HEADERS = 'Authorization, Content-Type, Idempotency-Key, X-Purpose, X-Request-Id, Last-Event-ID, If-None-Match';
const EXPOSED_HEADERS =
  'X-Service-Audit-Id, X-Request-Id, Retry-After, RateLimit, RateLimit-Policy, ETag, Idempotent-Replayed, Content-Disposition, WWW-Authenticate, Allow';
// Ten minutes: browsers cap it anyway (Chromium at two hours), and a shorter cache lets a path's methods change.
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/** Whether the Origin names this service itself (scheme aside: the proxy in front may terminate TLS). */
export function isSameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  try {
    return new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

export function preflightHeaders(origin: string, methods: readonly string[]): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': methods.join(', '),
    'Access-Control-Allow-Headers': ALLOWED_REQUEST_HEADERS,
    'Access-Control-Max-Age': PREFLIGHT_MAX_AGE_SECONDS,
    Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
  };
}

/** On the answer of a keyed call from an allowed origin. */
export function allowedOriginHeaders(origin: string): Record<string, string> {
  return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': EXPOSED_HEADERS, Vary: 'Origin' };
}

/** On the answer of an open operation: readable from anywhere. */
export const OPEN_ORIGIN_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': EXPOSED_HEADERS,
};
