// Load against the bare Fastify routes of bare-server.ts with autocannon (keep-alive connections),
// the HTTP baselines of the committed-transactions and read figures.

import autocannon from 'autocannon';
import { Ed25519KeyPair } from '../../src/crypto/signer.js';
import { startServerProcess } from './server-process.js';

/** Concurrent keep-alive connections of every HTTP load in the bench: the node's default per-IP cap. */
export const HTTP_CONNECTIONS = 32;

function verifyBody(): Buffer {
  const key = Ed25519KeyPair.generate();
  const message = new Uint8Array(32).fill(7);
  return Buffer.concat([key.publicKey.bytes, message, key.sign(message)]);
}

export async function bareRequestsPerSecond(
  route: 'hello' | 'verify',
  durationS: number,
): Promise<{ rps: number; p99Ms: number; non2xx: number }> {
  const server = await startServerProcess(new URL('./bare-server.ts', import.meta.url));
  try {
    const opts =
      route === 'hello'
        ? { url: `${server.url}/hello` }
        : {
            url: `${server.url}/verify`,
            method: 'POST',
            headers: { 'content-type': 'application/octet-stream' },
            body: verifyBody(),
          };
    await autocannon({ ...opts, connections: HTTP_CONNECTIONS, duration: 1 }); // warm-up
    const r = await autocannon({ ...opts, connections: HTTP_CONNECTIONS, duration: durationS });
    return { rps: r['2xx'] / r.duration, p99Ms: r.latency.p99, non2xx: r.non2xx + r.errors };
  } finally {
    await server.stop();
  }
}
