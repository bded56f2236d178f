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
  /** RDAP services redirect to the authoritative registry; providers must not (see httpProviders). */
  redirect?: 'follow' | 'error';
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

export async function fetchJson(request: HttpJsonRequest): Promise<HttpJsonOutcome> {
  const signal = AbortSignal.any([request.signal, AbortSignal.timeout(request.timeoutMs)]);
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method ?? 'GET',
      headers: request.headers,
      body: request.body,
      signal,
      redirect: request.redirect ?? 'follow',
    });
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
  const reader = response.body.getReader();
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
