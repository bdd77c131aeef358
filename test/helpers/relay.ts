// A loopback TCP relay in front of one peer link, for multi-peer tests: a test can cut the link
// (drop live connections and refuse new ones), delay it (hold every chunk `ms` before forwarding,
// order kept), heal it, and look at the bytes that crossed it (to check they are ciphertext).

import { connect, createServer, type Server, type Socket } from 'node:net';

export interface Relay {
  /** `127.0.0.1:<port>` to dial instead of the target. */
  readonly address: string;
  readonly port: number;
  /** Drops every live connection and refuses (accepts then closes) new ones until `heal`. */
  cut(): void;
  /** Adds `ms` of latency to every chunk in both directions (0 = none). */
  delay(ms: number): void;
  /** Undoes `cut` and `delay`. */
  heal(): void;
  /** Connections currently relayed. */
  live(): number;
  /** Connections accepted in total (refused ones included). */
  accepted(): number;
  /** Everything relayed so far in both directions, up to `recordBytesMax`. */
  recorded(): Buffer;
  close(): Promise<void>;
}

export interface RelayOptions {
  /** Keep at most this many relayed bytes for `recorded()` (default 0: keep nothing). */
  recordBytesMax?: number;
}

export async function startRelay(
  targetPort: number,
  targetHost = '127.0.0.1',
  opts: RelayOptions = {},
): Promise<Relay> {
  const pairs = new Set<[Socket, Socket]>();
  const record: Buffer[] = [];
  let recordedBytes = 0;
  const recordMax = opts.recordBytesMax ?? 0;
  let isCut = false;
  let delayMs = 0;
  let acceptedCount = 0;

  const keep = (chunk: Buffer) => {
    if (recordedBytes >= recordMax) return;
    const part = chunk.subarray(0, recordMax - recordedBytes);
    record.push(Buffer.from(part));
    recordedBytes += part.length;
  };

  // Forwards chunks in order; with a delay each chunk waits `delayMs` from its arrival.
  const forward = (from: Socket, to: Socket) => {
    let chain = Promise.resolve();
    from.on('data', (chunk: Buffer) => {
      keep(chunk);
      const wait = delayMs;
      if (wait === 0) {
        chain = chain.then(() => {
          if (!to.destroyed) to.write(chunk);
        });
        return;
      }
      const due = new Promise<void>((r) => setTimeout(r, wait));
      chain = chain.then(async () => {
        await due;
        if (!to.destroyed) to.write(chunk);
      });
    });
  };

  const server: Server = createServer((client) => {
    acceptedCount++;
    client.on('error', () => {});
    if (isCut) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, targetHost);
    upstream.on('error', () => {});
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on('close', drop);
    upstream.on('close', drop);
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;

  const dropAll = () => {
    for (const [a, b] of pairs) {
      a.destroy();
      b.destroy();
    }
    pairs.clear();
  };

  return {
    address: `127.0.0.1:${port}`,
    port,
    cut() {
      isCut = true;
      dropAll();
    },
    delay(ms) {
      delayMs = ms;
    },
    heal() {
      isCut = false;
      delayMs = 0;
    },
    live: () => pairs.size,
    accepted: () => acceptedCount,
    recorded: () => Buffer.concat(record),
    async close() {
      dropAll();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
