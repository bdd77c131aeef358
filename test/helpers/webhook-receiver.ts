// Test helper: a webhook receiver on 127.0.0.1 that records every request and answers as told:
// `ok` (204), `fail` (503), `hang` (reads the request and never answers).

import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  atMs: number;
  /** What the receiver answered (`hang`: nothing). */
  answered: 'ok' | 'fail' | 'hang';
}

export interface Receiver {
  url: string;
  mode: 'ok' | 'fail' | 'hang';
  received: Received[];
  /** Requests answered 2xx. */
  accepted(): Received[];
  waitFor(pred: (r: Receiver) => boolean, timeoutMs?: number, what?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hook'): Promise<Receiver> {
  const hanging: ServerResponse[] = [];
  const r: Receiver = {
    url: '',
    mode: 'ok',
    received: [],
    accepted: () => r.received.filter((x) => x.answered === 'ok'),
    async waitFor(pred, timeoutMs = 15_000, what = 'receiver condition') {
      const until = Date.now() + timeoutMs;
      while (!pred(r)) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
        await new Promise((res) => setTimeout(res, 10));
      }
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((res) => server.close(res));
    },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answered = r.mode;
      r.received.push({
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        atMs: Date.now(),
        answered,
      });
      if (answered === 'ok') res.writeHead(204).end();
      else if (answered === 'fail') res.writeHead(503).end('down for maintenance');
      else hanging.push(res);
    });
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return r;
}
