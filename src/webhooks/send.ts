import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './targets.js';

/**
 * One webhook POST to an address the SSRF guard has already checked. The
 * connection goes to that address (a pinned `lookup`) while the URL's host
 * name still names the server in the Host header and TLS (SNI and the
 * certificate check), so DNS cannot swap the address between check and
 * connect. Redirects are not followed (a 3xx is a failed attempt): following
 * one would send a signed request to a target nobody checked. The receiver's
 * body is never read or kept, only its status and `Retry-After`.
 */
export type SendOutcome = { kind: 'response'; status: number; retryAfter: string | null } | { kind: 'timeout' } | { kind: 'network' };

export interface SendRequest {
  url: URL;
  address: ResolvedAddress;
  headers: Record<string, string>;
  body: string;
  /** The whole exchange, connect to response head, must fit in this. */
  timeoutMs: number;
}

export function postWebhook(req: SendRequest): Promise<SendOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = (req.url.protocol === 'https:' ? httpsRequest : httpRequest)(req.url, {
      method: 'POST',
      headers: { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) },
      lookup: pinnedLookup(req.address),
      // A fresh connection per attempt: a pooled socket could have been opened to an address checked earlier.
      agent: false,
    });
    const timer = setTimeout(() => {
      finish({ kind: 'timeout' });
      request.destroy();
    }, req.timeoutMs);
    request.on('response', (res: IncomingMessage) => {
      finish({ kind: 'response', status: res.statusCode ?? 0, retryAfter: headerOf(res, 'retry-after') });
      // Nothing of the body is wanted; dropping the socket also stops a receiver that streams forever.
      res.destroy();
    });
    request.on('error', () => finish({ kind: 'network' }));
    request.end(req.body);
  });
}

function pinnedLookup(address: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    // Node asks for every address when it races IPv4 and IPv6 (autoSelectFamily), else for one.
    if ((options as { all?: boolean }).all) {
      // With `all: true` Node calls back with the address list; the callback's declared type is the single-address overload.
      (callback as unknown as (err: null, all: ResolvedAddress[]) => void)(null, [address]);
    } else {
      callback(null, address.address, address.family);
    }
  };
}

function headerOf(res: IncomingMessage, name: string): string | null {
  const value = res.headers[name];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}
