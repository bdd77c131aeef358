// Polls /health on its own connection while a test hammers the node, to show the node stays responsive.

import { Client } from 'undici';

export interface HealthMonitor {
  stop(): Promise<{ latencies: number[]; failures: string[] }>;
}

/** Polls /health on its own connection every `everyMs` until stopped. */
export function startHealthMonitor(url: string, everyMs = 20): HealthMonitor {
  const client = new Client(url);
  const latencies: number[] = [];
  const failures: string[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const r = await client.request({ method: 'GET', path: '/health', headersTimeout: 5_000 });
        await r.body.dump();
        if (r.statusCode !== 200) failures.push(`status ${r.statusCode}`);
      } catch (e) {
        failures.push((e as Error).message);
      }
      latencies.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await client.close();
      return { latencies, failures };
    },
  };
}
