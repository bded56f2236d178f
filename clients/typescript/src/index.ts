import createClient, { type Client } from 'openapi-fetch';
import { Webhook } from 'standardwebhooks';
import type { components, paths } from './schema.js';

/**
 * The trust assessment service from TypeScript.
 *
 * - `createTasClient`: every operation of the service's OpenAPI document,
 *   typed from it (src/schema.d.ts, generated): `client.POST('/v1/inquiries',
 *   { body })` answers `{ data }` typed by the operation's success schema, or
 *   `{ error }` typed as its Problem or HTTPValidationError.
 * - `streamEvents`: an event stream (inquiry, monitor, case) that reconnects
 *   after a dropped connection with `Last-Event-ID`, so no event is missed
 *   or repeated, and stops when the server says the stream has ended (204).
 * - `openSessionSocket`: a live session's WebSocket, with the one-time token
 *   in the subprotocol as the service expects.
 * - `verifyWebhook`: a delivery's Standard Webhooks signature, checked with
 *   the endpoint's secret, before its body is trusted.
 */
export type { components, paths };
export type Schemas = components['schemas'];
export type TasClient = Client<paths>;

export interface TasClientOptions {
  /** The service's base URL, for example `https://tas.example.com`. */
  baseUrl: string;
  /** A tenant API key (`tas_live_…` or `tas_test_…`); sent as a bearer token. */
  key: string;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: typeof fetch;
}

export function createTasClient(opts: TasClientOptions): TasClient {
  return createClient<paths>({
    baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Bearer ${opts.key}` },
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
}

export type EventEnvelope = Schemas['EventEnvelope'];

export interface StreamOptions {
  /** A stream's URL, as the service gives it (`events_url`). */
  url: string;
  key: string;
  /** Resume after this event id (the `sequence` of the last event you hold). */
  lastEventId?: string;
  /** Called for every event, in order, exactly once across reconnects. */
  onEvent: (event: EventEnvelope) => void;
  /** Called for the live signals that carry no id (a monitor's `MonitorChecked`). */
  onSignal?: (type: string, data: unknown) => void;
  /** Wait before reconnecting after a dropped connection; the server's `retry:` wins when it sends one. */
  retryMs?: number;
  fetch?: typeof fetch;
}

export interface EventStream {
  /** The id of the last event delivered: what a later `streamEvents` resumes from. */
  readonly lastEventId: string | undefined;
  /** Resolves when the stream has ended for good (the server answered 204, or `close` was called). */
  readonly done: Promise<void>;
  close(): void;
}

const DEFAULT_RETRY_MS = 1000;

/**
 * Reads a server-sent event stream with fetch (so the key goes in a header,
 * never in the URL) and reconnects with `Last-Event-ID` whenever the
 * connection drops. A 204 means the stream is over; a 401, 403 or 404 ends it
 * with an error on `done`.
 */
export function streamEvents(opts: StreamOptions): EventStream {
  const doFetch = opts.fetch ?? fetch;
  let lastEventId = opts.lastEventId;
  let retryMs = opts.retryMs ?? DEFAULT_RETRY_MS;
  const controller = new AbortController();
  let closed = false;

  const connectOnce = async (): Promise<'ended' | 'dropped'> => {
    const headers: Record<string, string> = { Authorization: `Bearer ${opts.key}`, Accept: 'text/event-stream' };
    if (lastEventId !== undefined) headers['Last-Event-ID'] = lastEventId;
    const res = await doFetch(opts.url, { headers, signal: controller.signal });
    if (res.status === 204) return 'ended';
    if (res.status !== 200 || !res.body) throw new Error(`event stream refused: HTTP ${res.status}`);
    for await (const message of sseMessages(res.body)) {
      if (message.retry !== undefined) retryMs = message.retry;
      if (message.data === undefined) continue;
      const data: unknown = JSON.parse(message.data);
      if (message.id === undefined) {
        opts.onSignal?.(message.event ?? 'message', data);
        continue;
      }
      lastEventId = message.id;
      opts.onEvent(data as EventEnvelope);
    }
    return 'dropped';
  };

  const done = (async () => {
    while (!closed) {
      try {
        if ((await connectOnce()) === 'ended') return;
      } catch (error) {
        if (closed) return;
        if (error instanceof Error && /refused: HTTP (401|403|404)/.test(error.message)) throw error;
      }
      if (!closed) await new Promise((r) => setTimeout(r, retryMs));
    }
  })();

  return {
    get lastEventId() {
      return lastEventId;
    },
    done,
    close() {
      closed = true;
      controller.abort();
    },
  };
}

interface SseMessage {
  id?: string;
  event?: string;
  data?: string;
  retry?: number;
}

/** The messages of an event stream, parsed as the HTML standard says (comments skipped, multi-line data joined). */
async function* sseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  let buffer = '';
  let current: SseMessage = {};
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (current.data !== undefined || current.id !== undefined) yield current;
        current = {};
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') current.data = current.data === undefined ? value : `${current.data}\n${value}`;
      else if (field === 'id') current.id = value;
      else if (field === 'event') current.event = value;
      else if (field === 'retry' && /^\d+$/.test(value)) current.retry = Number(value);
    }
  }
}

/** What `POST /v1/sessions` answered: where to connect and the one-time token. */
export type SessionOut = Schemas['SessionOut'];

/** The subprotocols a session's socket opens with: `tas.v1` and the one-time token (never in the URL). */
export function sessionProtocols(session: Pick<SessionOut, 'token'>): string[] {
  return ['tas.v1', `tas.token.${session.token}`];
}

/**
 * Opens a session's WebSocket. In a browser (and Node 22+) the global
 * WebSocket is used; on Node 20 pass one (`import WebSocket from 'ws'`).
 * Frames are JSON text both ways (docs/sessions.md in the service).
 */
export function openSessionSocket<T extends { send(data: string): void }>(
  session: Pick<SessionOut, 'ws_url' | 'token'>,
  WebSocketImpl: new (url: string, protocols: string[]) => T = (
    globalThis as unknown as { WebSocket: new (url: string, protocols: string[]) => T }
  ).WebSocket,
): T {
  if (!WebSocketImpl) throw new Error('no WebSocket implementation: pass one (for example the ws package) on Node 20');
  return new WebSocketImpl(session.ws_url, sessionProtocols(session));
}

/**
 * Checks a webhook delivery's signature (Standard Webhooks: `webhook-id`,
 * `webhook-timestamp`, `webhook-signature`) with the endpoint's secret and
 * returns its envelope; throws when the signature is wrong or the timestamp
 * is more than five minutes off. Pass the body exactly as received.
 */
export function verifyWebhook(secret: string, body: string, headers: Record<string, string | string[] | undefined>): EventEnvelope {
  const one = (name: string) => {
    const value = headers[name] ?? headers[name.toLowerCase()];
    return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
  };
  return new Webhook(secret).verify(body, {
    'webhook-id': one('webhook-id'),
    'webhook-timestamp': one('webhook-timestamp'),
    'webhook-signature': one('webhook-signature'),
  }) as EventEnvelope;
}
