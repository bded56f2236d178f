import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real model endpoint on loopback (port 0): each test sets how it answers
 * and reads back exactly what it received, bytes and headers.
 */

export interface Received {
  body: string;
  headers: IncomingMessage['headers'];
}

export type Answer = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface ModelServer {
  url: string;
  received: Received[];
  answer(fn: Answer): void;
  close(): Promise<void>;
}

export async function startModelServer(): Promise<ModelServer> {
  let current: Answer = (_req, res) => res.writeHead(500).end();
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ body, headers: req.headers });
      current(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/render`,
    received,
    answer(fn) {
      current = fn;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function json(status: number, value: unknown): Answer {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  };
}
