import WebSocket from 'ws';
import { bearer, type TestService } from '../support/service.js';
import { wsText } from '../support/socket.js';

/**
 * A session client on the `ws` package: opens a session over REST, connects
 * with the one-time token as a subprotocol, keeps every message it receives,
 * and waits for the ones a test expects.
 */
export interface Opened {
  session_id: string;
  state: string;
  ws_url: string;
  token: string;
  expires_at: string;
  retention_mode: string;
}

export const OPEN_BODY = {
  purpose: 'fraud_prevention',
  intent: 'onboarding',
  stake: { kind: 'account' },
};

export async function openSession(ts: TestService, body: Record<string, unknown> = OPEN_BODY, key = ts.tenant.keys.test) {
  const res = await fetch(`${ts.base}/v1/sessions`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Opened & Record<string, unknown> };
}

export async function closeOverRest(ts: TestService, sessionId: string, reason = 'ended', key = ts.tenant.keys.test) {
  const res = await fetch(`${ts.base}/v1/sessions/${sessionId}/close?reason=${encodeURIComponent(reason)}`, {
    method: 'POST',
    headers: bearer(key),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export type Message = Record<string, any>;

export class SessionClient {
  readonly messages: Message[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: { pred: (m: Message) => boolean; resolve: (m: Message) => void; reject: (err: Error) => void }[] = [];
  private closedWith: { code: number; reason: string } | null = null;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const m = JSON.parse(wsText(data)) as Message;
      this.messages.push(m);
      this.waiters = this.waiters.filter((w) => (w.pred(m) ? (w.resolve(m), false) : true));
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => {
        this.closedWith = { code, reason: String(reason) };
        // `closed` settles first, so a test racing a reply against the close sees the close.
        resolve(this.closedWith);
        // Nothing arrives after a close: a waiter still waiting fails now, saying how the socket ended.
        for (const w of this.waiters.splice(0)) w.reject(this.unmatched('before the socket closed'));
      }),
    );
  }

  private unmatched(when: string): Error {
    const closed = this.closedWith ? `; closed ${this.closedWith.code} '${this.closedWith.reason}'` : '; socket still open';
    return new Error(`no matching message ${when}; got ${JSON.stringify(this.messages.map((m) => m.type))}${closed}`);
  }

  send(frame: unknown): void {
    this.ws.send(JSON.stringify(frame));
  }

  /** The first message (already received or still to come) that matches. */
  waitFor(pred: (m: Message) => boolean, timeoutMs = 10_000): Promise<Message> {
    const seen = this.messages.find(pred);
    if (seen) return Promise.resolve(seen);
    if (this.closedWith) return Promise.reject(this.unmatched('before the socket closed'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(this.unmatched(`within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        pred,
        resolve: (m) => (clearTimeout(timer), resolve(m)),
        reject: (err) => (clearTimeout(timer), reject(err)),
      });
    });
  }

  /** The reply (ack or refused) to the frame at position `seq`. */
  reply(seq: number, timeoutMs?: number): Promise<Message> {
    return this.waitFor((m) => (m.type === 'ack' || m.type === 'refused') && m.seq === seq, timeoutMs);
  }

  /** Waits until `n` assessments (issued or revised) arrived; resolves with the last. */
  async assessment(n: number, timeoutMs?: number): Promise<Message> {
    const isAssessment = (m: Message) => m.type === 'assessment.issued' || m.type === 'assessment.revised';
    await this.waitFor(() => this.messages.filter(isAssessment).length >= n, timeoutMs);
    return this.messages.filter(isAssessment)[n - 1]!;
  }
}

export function connect(opened: Pick<Opened, 'ws_url' | 'token'>, protocols?: string[]): Promise<SessionClient> {
  const ws = new WebSocket(opened.ws_url, protocols ?? ['tas.v1', `tas.token.${opened.token}`]);
  const client = new SessionClient(ws);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client));
    ws.once('unexpected-response', (_req, res) =>
      reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { status: res.statusCode })),
    );
    ws.once('error', reject);
  });
}

/** The HTTP status of an upgrade attempt that is expected to fail. */
export function upgradeStatus(wsUrl: string, protocols: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl, protocols);
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('error', (err) => reject(err));
  });
}
