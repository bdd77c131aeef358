// The read load of the read figures (issue 6 table, issue 14 "Read path"): autocannon over keep-alive
// connections, each cycling through `/status`, `/v1/domains?limit=5` and `/v1/accounts/{id}`, against a
// node in its own process with the bench accounts registered (so the account exists).

import autocannon from 'autocannon';
import { HTTP_CONNECTIONS } from './bare-baselines.js';
import { startHttpNode } from './http-node.js';

export interface ReadRate {
  /** 2xx answers per second. */
  rps: number;
  non2xx: number;
  errors: number;
  p99: number;
}

export async function readRate(seconds: number): Promise<ReadRate> {
  const node = await startHttpNode({ announce: false });
  try {
    const account = encodeURIComponent(node.accounts[0]!.id);
    const requests = ['/status', '/v1/domains?limit=5', `/v1/accounts/${account}`].map((path) => ({
      method: 'GET',
      path,
    }));
    const opts = { url: node.url, connections: HTTP_CONNECTIONS, requests };
    await autocannon({ ...opts, duration: 1 }); // warm-up
    const r = await autocannon({ ...opts, duration: seconds });
    return {
      rps: r['2xx'] / r.duration,
      non2xx: r.non2xx,
      errors: r.errors + r.timeouts,
      p99: r.latency.p99,
    };
  } finally {
    await node.stop();
  }
}
