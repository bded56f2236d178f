/**
 * One guarded HTTP exchange for the network checks: a deadline via
 * AbortSignal, a cap on the body, JSON only. The outcome is a tagged value, not
 * an exception, and carries no message, URL or body text, so nothing a remote
 * party wrote can travel further than the check that asked.
 */
export type HttpJsonOutcome =
  | { status: 'ok'; httpStatus: number; body: unknown }
  /** The server answered with a status outside 2xx; the body was discarded unread. */
  | { status: 'http_error'; httpStatus: number }
  | { status: 'timeout' }
  /** Not JSON, malformed JSON, or larger than the cap. */
  | { status: 'unreadable'; httpStatus: number }
  /** Refused connection, DNS failure, TLS failure... */
  | { status: 'unreachable' };

export interface HttpJsonRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /**
   * RDAP services redirect to the authoritative registry; providers must not
   * (see httpProviders). A redirect is followed only through a guard that
   * approves each hop's URL (the outbound address guard, issue 40): a
   * redirector must not be able to point our request at loopback, a private
   * network or the metadata service. Without a guard a redirect is refused.
   */
  redirect?: 'error' | RedirectGuard;
  timeoutMs: number;
  maxBytes: number;
  /** The caller's signal (check timeout or inquiry deadline). */
  signal: AbortSignal;
}

/** Whether the outcome says the service itself is failing: no connection, no answer in time, a server error or a rate limit. A 4xx other than 429 is an answer. */
export function isServiceFailure(outcome: HttpJsonOutcome): boolean {
  if (outcome.status === 'unreachable' || outcome.status === 'timeout') return true;
  return outcome.status === 'http_error' && (outcome.httpStatus >= 500 || outcome.httpStatus === 429);
}

/** Whether a redirect may be followed to `target`; false ends the exchange as unreachable. */
export type RedirectGuard = (target: URL) => Promise<boolean>;

// RDAP's redirector takes one hop to the registry; a few more cover a registry that moved, not a loop.
const MAX_REDIRECTS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export async function fetchJson(request: HttpJsonRequest): Promise<HttpJsonOutcome> {
  const signal = AbortSignal.any([request.signal, AbortSignal.timeout(request.timeoutMs)]);
  let response: Response;
  try {
    response = await fetchFollowing(request, signal);
  } catch {
    return signal.aborted ? { status: 'timeout' } : { status: 'unreachable' };
  }
  if (response.status < 200 || response.status > 299) {
    await response.body?.cancel().catch(() => undefined);
    return { status: 'http_error', httpStatus: response.status };
  }
  try {
    const body = await readJson(response, request.maxBytes);
    if (body === UNREADABLE) return { status: 'unreadable', httpStatus: response.status };
    return { status: 'ok', httpStatus: response.status, body };
  } catch {
    return signal.aborted ? { status: 'timeout' } : { status: 'unreadable', httpStatus: response.status };
  }
}

/** The exchange, each redirect hop approved by the guard first; a refused hop throws (unreachable). */
async function fetchFollowing(request: HttpJsonRequest, signal: AbortSignal): Promise<Response> {
  const guard = request.redirect === undefined || request.redirect === 'error' ? null : request.redirect;
  let url = new URL(request.url);
  for (let hop = 0; ; hop += 1) {
    const response = await fetch(url, {
      method: hop === 0 ? (request.method ?? 'GET') : 'GET',
      headers: request.headers,
      body: hop === 0 ? request.body : undefined,
      signal,
      redirect: 'manual',
    });
    if (!REDIRECT_STATUSES.has(response.status)) return response;
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get('location');
    if (guard === null || location === null || hop >= MAX_REDIRECTS) throw new Error('redirect not followed');
    url = new URL(location, url);
    if (!(await guard(url))) throw new Error('redirect target refused');
  }
}

const UNREADABLE = Symbol('unreadable');

function isJsonContentType(contentType: string | null): boolean {
  if (contentType === null) return false;
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/** Reads at most maxBytes; a declared or actual larger body is abandoned, not buffered. */
async function readJson(response: Response, maxBytes: number): Promise<unknown> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (!isJsonContentType(response.headers.get('content-type')) || declared > maxBytes || response.body === null) {
    await response.body?.cancel().catch(() => undefined);
    return UNREADABLE;
  }
  // fetch's body is a byte stream; undici types it ReadableStream<any>.
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return UNREADABLE;
    }
    chunks.push(value);
  }
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks))) as unknown;
  } catch {
    return UNREADABLE;
  }
}
