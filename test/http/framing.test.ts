import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { framingRefusal, MAX_HEADER_OCTETS, MAX_TARGET_OCTETS, type HeadFacts } from '../../src/edge/framing.js';
import { startTestService, type TestService } from '../support/service.js';

const plain: HeadFacts = { targetOctets: 10, headerOctets: 200, contentLengths: [], transferEncodings: [] };

describe('framingRefusal (pure)', () => {
  it.each([
    ['a plain request', null, plain],
    ['one Content-Length', null, { ...plain, contentLengths: ['12'] }],
    ['chunked alone', null, { ...plain, transferEncodings: ['chunked'] }],
    ['two equal Content-Length lines', 400, { ...plain, contentLengths: ['3', '3'] }],
    ['two different Content-Length lines', 400, { ...plain, contentLengths: ['3', '5'] }],
    ['a list in one Content-Length', 400, { ...plain, contentLengths: ['3, 5'] }],
    ['a signed Content-Length', 400, { ...plain, contentLengths: ['+3'] }],
    ['Content-Length with Transfer-Encoding', 400, { ...plain, contentLengths: ['3'], transferEncodings: ['chunked'] }],
    ['an unknown transfer coding', 501, { ...plain, transferEncodings: ['gzip, chunked'] }],
    ['a target one octet too long', 414, { ...plain, targetOctets: MAX_TARGET_OCTETS + 1 }],
    ['a header section one octet too long', 431, { ...plain, headerOctets: MAX_HEADER_OCTETS + 1 }],
  ] as const)('given %s, then the refusal status is %s', (_name, status, head) => {
    expect(framingRefusal(head as HeadFacts)?.status ?? null).toBe(status);
  });
});

/** Sends raw bytes and collects what comes back until the server closes (or 3 s pass). */
function exchangeRaw(port: number, raw: string): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false });
    }, 3000);
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
    socket.write(raw);
  });
}

describe('framing through the real server', () => {
  let svc: TestService;
  let port: number;
  beforeAll(async () => {
    svc = await startTestService({}, { workers: false });
    port = Number(new URL(svc.base).port);
  });
  afterAll(async () => svc.stop());

  const post = (lines: string[], body: string) =>
    `POST /v1/observations HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n${lines.map((l) => `${l}\r\n`).join('')}\r\n${body}`;

  it('given two Content-Length lines, then 400 as a problem and the connection is closed', async () => {
    const r = await exchangeRaw(port, post(['Content-Length: 2', 'Content-Length: 2'], '{}'));
    expect(r.text.startsWith('HTTP/1.1 400 ')).toBe(true);
    expect(r.text).toContain('application/problem+json');
    expect(r.closed).toBe(true);
  });

  it('given conflicting Content-Length lines, then 400 and closed', async () => {
    const r = await exchangeRaw(port, post(['Content-Length: 2', 'Content-Length: 7'], '{}'));
    expect(r.text.startsWith('HTTP/1.1 400 ')).toBe(true);
    expect(r.closed).toBe(true);
  });

  it('given an unknown transfer coding, then 501', async () => {
    const r = await exchangeRaw(port, post(['Transfer-Encoding: gzip'], ''));
    expect(r.text.startsWith('HTTP/1.1 501 ')).toBe(true);
  });

  it('given a 70 KiB header section, then 431 (not a reset)', async () => {
    const r = await exchangeRaw(port, `GET /healthz HTTP/1.1\r\nHost: t\r\nX-Big: ${'a'.repeat(70 * 1024)}\r\n\r\n`);
    expect(r.text.startsWith('HTTP/1.1 431 ')).toBe(true);
    expect(r.closed).toBe(true);
  });

  it('given a 20 KiB request target, then 414', async () => {
    const r = await exchangeRaw(port, `GET /healthz?x=${'a'.repeat(20 * 1024)} HTTP/1.1\r\nHost: t\r\n\r\n`);
    expect(r.text.startsWith('HTTP/1.1 414 ')).toBe(true);
  });

  it('given a refusal, then Connection: close is written once', async () => {
    const r = await exchangeRaw(port, post(['Content-Length: 2', 'Content-Length: 2'], '{}'));
    expect(r.text.match(/^Connection: close\r$/gim)).toHaveLength(1);
  });

  // Heads the native parser refuses before any application code runs: answered at once and closed,
  // not left to the 10 s idle timeout (issue 12, item 7).
  it.each([
    ['a bare LF ending the lines', 'GET /healthz HTTP/1.1\nHost: t\n\n', 505],
    ['a bare CR inside the head', 'GET /healthz HTTP/1.1\rHost: t\r\n\r\n', 505],
    ['HTTP/1.0', 'GET /healthz HTTP/1.0\r\nHost: t\r\n\r\n', 505],
    ['a NUL in the request target', 'GET /heal\u0000thz HTTP/1.1\r\nHost: t\r\n\r\n', 505],
    [
      '100 header fields',
      `GET /healthz HTTP/1.1\r\nHost: t\r\n${Array.from({ length: 100 }, (_, i) => `X-H${i}: v\r\n`).join('')}\r\n`,
      431,
    ],
  ])('given %s, then the parser answers %s at once and closes', async (_given, raw, status) => {
    const started = Date.now();
    const r = await exchangeRaw(port, raw);
    expect(r.text.startsWith(`HTTP/1.1 ${status} `)).toBe(true);
    expect(r.closed).toBe(true);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it.each([
    [
      "a 6 KiB request target (above the parser's own 4 KiB default)",
      `GET /healthz?x=${'a'.repeat(6 * 1024)} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n`,
    ],
    [
      '60 header fields',
      `GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n${Array.from({ length: 60 }, (_, i) => `X-H${i}: v\r\n`).join('')}\r\n`,
    ],
    [
      'a 7 KiB target and a 15 KiB header section, each within its own limit',
      `GET /healthz?x=${'a'.repeat(7 * 1024)} HTTP/1.1\r\nHost: t\r\nConnection: close\r\nX-Big: ${'b'.repeat(15 * 1024)}\r\n\r\n`,
    ],
  ])('given %s, then it is answered 200', async (_given, raw) => {
    const r = await exchangeRaw(port, raw);
    expect(r.text.startsWith('HTTP/1.1 200 ')).toBe(true);
  });

  it('given an ordinary request on the same server, then it is answered and the connection stays open', async () => {
    // Open is proven by a second request answered on the same connection once the first was answered.
    const request = 'GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n';
    const socket = net.connect(port, '127.0.0.1');
    const text = await new Promise<string>((resolve, reject) => {
      let seen = '';
      let second = false;
      socket.on('data', (d) => {
        seen += d.toString('latin1');
        const answered = seen.match(/HTTP\/1\.1 200 /g)?.length ?? 0;
        if (answered === 1 && !second) {
          second = true;
          socket.write(request);
        }
        if (answered === 2) resolve(seen);
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(seen));
      socket.write(request);
    });
    socket.destroy();
    expect(text.match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
  });
});
