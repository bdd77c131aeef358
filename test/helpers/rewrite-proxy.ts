// A loopback HTTP proxy that forwards every request to one node and lets a test rewrite the JSON
// answers on the way back (a man in the middle): `rewrite(path, json)` returns the JSON to send instead,
// or undefined to pass the answer through unchanged.

import { createServer, type Server } from 'node:http';

export type Rewrite = (path: string, json: Record<string, unknown>) => Record<string, unknown> | undefined;

export interface RewriteProxy {
  url: string;
  /** The rewrite applied from now on (none: every answer passes as it is). */
  rewrite: Rewrite | undefined;
  /** Answers rewritten so far. */
  rewritten: number;
  close(): Promise<void>;
}

export async function startRewriteProxy(target: string): Promise<RewriteProxy> {
  const proxy: RewriteProxy = {
    url: '',
    rewrite: undefined,
    rewritten: 0,
    close: async () => {},
  };
  const server: Server = createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
      const upstream = await fetch(new URL(req.url ?? '/', target), {
        method: req.method ?? 'GET',
        headers,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      const type = upstream.headers.get('content-type') ?? '';
      let body = Buffer.from(await upstream.arrayBuffer());
      const path = new URL(req.url ?? '/', target).pathname;
      if (type.startsWith('application/json') && proxy.rewrite !== undefined) {
        const changed = proxy.rewrite(path, JSON.parse(body.toString('utf8')));
        if (changed !== undefined) {
          body = Buffer.from(JSON.stringify(changed));
          proxy.rewritten++;
        }
      }
      res.writeHead(upstream.status, { 'content-type': type || 'application/octet-stream' });
      res.end(body);
    } catch (e) {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(String(e));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  proxy.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  proxy.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return proxy;
}
