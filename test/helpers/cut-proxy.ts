// A loopback TCP proxy whose live connections a test can cut, to drop a client's stream mid-way.

import { connect, createServer, type Server, type Socket } from 'node:net';

export interface CutProxy {
  url: string;
  cutAll(): number;
  /**
   * Stops passing the server's bytes to the clients of the connections open now (they wait in the
   * proxy), so a client misses whatever its server sends from here on. Connections opened later pass
   * normally. Returns how many connections are held.
   */
  holdAll(): number;
  close(): Promise<void>;
}

export async function startCutProxy(target: string): Promise<CutProxy> {
  const { hostname, port } = new URL(target);
  const live = new Set<Socket>();
  const pairs = new Map<Socket, Socket>(); // upstream → client
  const server: Server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    live.add(client).add(upstream);
    pairs.set(upstream, client);
    const drop = () => {
      pairs.delete(upstream);
      client.destroy();
      upstream.destroy();
      live.delete(client);
      live.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${addr.port}`,
    cutAll() {
      const n = live.size;
      for (const s of live) s.destroy();
      live.clear();
      pairs.clear();
      return n;
    },
    holdAll() {
      for (const [upstream, client] of pairs) {
        upstream.unpipe(client);
        upstream.pause();
      }
      return pairs.size;
    },
    // Ends the connections still open too: server.close() alone waits for them, and a client that is
    // closing a WebSocket through the proxy waits up to its close timeout (30 s in `ws`) for an answer.
    close() {
      const closed = new Promise<void>((r) => server.close(() => r()));
      for (const s of live) s.destroy();
      live.clear();
      pairs.clear();
      return closed;
    },
  };
}
