// The soak test's node, in its own process so that its memory is measured apart from the load
// generator (test/reliability/soak.test.ts forks this file with `--import tsx --expose-gc`). It serves
// a node on loopback with the default configuration except the per-IP rate limit (all load comes from
// 127.0.0.1), registers the workload accounts and funds them, then answers IPC messages:
//   {type: 'sample'} → {type: 'sample', rss, rssAnon, heapUsed, external, height, queueDepth}
//   {type: 'stop'}   → stops the node and exits.

import { readFileSync } from 'node:fs';
import { numeric } from '../../../src/model/numeric.js';
import { run } from '../../helpers/node.js';
import { startServedNode } from '../../helpers/served.js';
import { SOAK_ACCOUNTS, SOAK_DEFINITION, SOAK_DOMAIN, soakAccounts } from './soak-workload.js';

/** Anonymous resident memory (Linux /proc): the part a leak grows; file-backed LMDB pages are not in it. */
function rssAnon(): number | undefined {
  try {
    const m = /^RssAnon:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return m === null ? undefined : Number(m[1]) * 1024;
  } catch {
    return undefined;
  }
}

const gc = (globalThis as { gc?: () => void }).gc;

async function main(): Promise<void> {
  const t = await startServedNode({
    'gateway.rate_per_ip_per_s': 1_000_000,
    'gateway.rate_burst': 1_000_000,
  });
  const accounts = soakAccounts();
  const empty = new Map<string, never>();
  const setup = await run(t, t.admin, [
    { kind: 'RegisterDomain', id: SOAK_DOMAIN, metadata: empty },
    ...accounts.map((a) => ({ kind: 'RegisterAccount' as const, id: a.id, metadata: empty })),
    {
      kind: 'RegisterAssetDefinition',
      id: SOAK_DEFINITION,
      scale: 0,
      mintable: { kind: 'Infinitely' },
      metadata: empty,
    },
    ...accounts.map((a) => ({
      kind: 'MintAsset' as const,
      asset: `${SOAK_DEFINITION}#${a.id}`,
      amount: numeric('1000000000000'),
    })),
  ]);
  if (setup.status.kind !== 'Committed') throw new Error(`setup: ${JSON.stringify(setup.status)}`);
  process.on('message', (m: { type: string }) => {
    if (m.type === 'sample') {
      gc?.();
      const mem = process.memoryUsage();
      process.send?.({
        type: 'sample',
        rss: mem.rss,
        rssAnon: rssAnon() ?? mem.rss,
        heapUsed: mem.heapUsed,
        external: mem.external,
        height: t.node.ledger.height(),
        queueDepth: t.node.pipeline.queue.depth,
      });
    } else if (m.type === 'stop') {
      void t.stopAll().then(() => process.exit(0));
    }
  });
  process.send?.({ type: 'ready', url: t.url, chainId: t.chainId, accounts: SOAK_ACCOUNTS });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
