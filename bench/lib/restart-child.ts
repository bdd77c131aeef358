// Child process of the `restart_ready_s` figure: a fresh process (cold JIT, empty heap, like a real
// restart) opens a built node directory and reports how long `Node.start` took and when the first read
// was answered: over HTTP (`GET /v1/domains?limit=5` through the gateway) when the gateway exists, and
// in process (tip block and a state lookup) in any case. Prints one JSON line.
// Usage: node --import tsx bench/lib/restart-child.ts <dir>

import { loadNodeConfig } from '../../src/node/load-config.js';
import { Node } from '../../src/node/node.js';
import { findServe } from './gateway.js';
import { BENCH_DEFINITION } from './transfers.js';

const dir = process.argv[2];
if (dir === undefined) {
  process.stderr.write('usage: restart-child.ts <dir>\n');
  process.exit(2);
}
const found = await findServe(); // loaded before the clock starts: module loading is not restart work
const config = await loadNodeConfig({ dir, overrides: { 'gateway.port': 0, 'log.level': 'warn' } });
const t0 = performance.now();
const node = await Node.start({ dir, config });
const started = performance.now();
const tip = await node.ledger.block(node.ledger.height());
const holders = node.ledger.state.holdersOfDefinition(BENCH_DEFINITION).length;
const firstRead = performance.now();
let firstHttpRead: number | null = null;
let httpStatus: number | null = null;
if ('serve' in found) {
  const served = await found.serve(node);
  const res = await fetch(`${served.url}/v1/domains?limit=5`);
  await res.arrayBuffer();
  httpStatus = res.status;
  firstHttpRead = performance.now();
  await served.close();
}
process.stdout.write(
  `${JSON.stringify({
    start_ms: started - t0,
    first_read_ms: firstRead - t0,
    first_http_read_ms: firstHttpRead === null ? null : firstHttpRead - t0,
    http_status: httpStatus,
    height: node.ledger.height(),
    tip_transactions: tip?.transactions.length ?? -1,
    holders,
    replayed_blocks: node.openReport.replayedBlocks,
    rss_bytes: process.memoryUsage().rss,
  })}\n`,
);
await node.stop();
