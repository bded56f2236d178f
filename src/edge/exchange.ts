import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import type { HeadFacts } from './framing.js';

/**
 * One HTTP exchange, copied out of uWS's request object synchronously (the
 * request object dies at the first await), with the response guarded so that
 * nothing is written after the client went away and every write is corked.
 */
export interface Exchange {
  method: string;
  path: string;
  rawQuery: string;
  headers: Readonly<Record<string, string>>;
  /** What framing checks need, which the merged `headers` no longer show. */
  head: HeadFacts;
  res: HttpResponse;
  aborted: boolean;
  /** Set once a response (or a stream's head) has been written. */
  responded: boolean;
  /** Headers every answer of this exchange carries, whoever writes it (the CORS headers of an allowed origin). */
  extraHeaders: Record<string, string>;
  onAbort: (() => void)[];
  /** Set while a streamed request body is unread: the answer then closes the connection. */
  closeAfterAnswer?: boolean;
  /** The TCP peer's address, as text (src/edge/clientAddress.ts reads the client's from it). */
  peer: string;
}

export function captureExchange(res: HttpResponse, req: HttpRequest): Exchange {
  const headers: Record<string, string> = {};
  const path = req.getUrl();
  const rawQuery = req.getQuery() ?? '';
  const head: HeadFacts = {
    targetOctets: path.length + (rawQuery ? rawQuery.length + 1 : 0),
    headerOctets: 0,
    contentLengths: [],
    transferEncodings: [],
  };
  req.forEach((key, value) => {
    headers[key] = key in headers ? `${headers[key]}, ${value}` : value;
    head.headerOctets += key.length + value.length + 4;
    if (key === 'content-length') head.contentLengths.push(value);
    else if (key === 'transfer-encoding') head.transferEncodings.push(value);
  });
  const ex: Exchange = {
    method: req.getCaseSensitiveMethod().toUpperCase(),
    path,
    rawQuery,
    headers,
    head,
    res,
    aborted: false,
    responded: false,
    extraHeaders: {},
    onAbort: [],
    peer: Buffer.from(res.getRemoteAddressAsText()).toString(),
  };
  res.onAborted(() => {
    ex.aborted = true;
    for (const fn of ex.onAbort) fn();
  });
  return ex;
}

export interface SimpleResponse {
  status: number;
  headers: Record<string, string>;
  body?: string | Buffer;
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export function statusLine(status: number): string {
  return `${status} ${STATUS_TEXT[status] ?? 'Unknown'}`;
}

/** The exchange's own headers under the answer's; `Vary` names both lists (CORS varies on Origin, compression on Accept-Encoding). */
export function mergeHeaders(own: Record<string, string>, answer: Record<string, string>): Record<string, string> {
  const merged = { ...own, ...answer };
  if (own.Vary !== undefined && answer.Vary !== undefined) merged.Vary = `${own.Vary}, ${answer.Vary}`;
  return merged;
}

/** Writes a whole response once; a no-op when the client is gone or a response was already sent. */
export function send(ex: Exchange, r: SimpleResponse, close = false): void {
  if (ex.aborted || ex.responded) return;
  const closeConnection = close || ex.closeAfterAnswer === true;
  ex.responded = true;
  ex.res.cork(() => {
    ex.res.writeStatus(statusLine(r.status));
    for (const [k, v] of Object.entries(mergeHeaders(ex.extraHeaders, r.headers))) ex.res.writeHeader(k, v);
    if (r.status === 204) ex.res.endWithoutBody(0, closeConnection);
    // 304 has no content and no length of its own (RFC 9110 15.4.5).
    else if (r.status === 304) ex.res.endWithoutBody(undefined, closeConnection);
    // A HEAD answer carries the length the GET body would have, and no body.
    else if (ex.method === 'HEAD') ex.res.endWithoutBody(r.body === undefined ? 0 : Buffer.byteLength(r.body), closeConnection);
    else ex.res.end(r.body ?? '', closeConnection);
  });
}
