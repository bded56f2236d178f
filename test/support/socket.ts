import type WebSocket from 'ws';

/** A WebSocket message's text, whichever form `ws` hands it in (one buffer, fragments, or an ArrayBuffer). */
export function wsText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
