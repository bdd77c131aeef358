// The node under HTTP load, in its own process (the load generator runs in the bench process, so each
// gets a core). It starts the node of an initialised directory, registers and funds the bench accounts
// listed in `<accounts.json>` in process, serves the gateway (`serveNode`), prints `LISTENING <url>`,
// and then, counted on the event bus:
//   `COUNT <committed> <rejected> <epoch ms>` every COUNT_INTERVAL_MS (throughput windows),
//   `C <txhash> <epoch ms>` per committed transaction with `--announce` (latency),
//   `B <height> <epoch ms>` per committed block with `--blocks` (event fan-out delivery),
//   `MEM <rss> <heap used>` on SIGUSR2, after a full GC when run with --expose-gc (memory per subscriber).
// Usage: node --import tsx bench/lib/node-server.ts <dir> <accounts.json> [--announce] [--blocks]

import { readFile } from 'node:fs/promises';
import { loadNodeConfig } from '../../src/node/load-config.js';
import { Node } from '../../src/node/node.js';
import { toHex } from '../../src/util/hex.js';
import { submitAndWait } from '../../test/helpers/node.js';
import { buildTx } from '../../test/helpers/tx.js';
import { loadServe } from './gateway.js';
import { adminOf, setupInstructions } from './transfers.js';

const COUNT_INTERVAL_MS = 100;

function nowEpochMs(): number {
  return performance.timeOrigin + performance.now();
}

const [dir, accountsFile, ...flags] = process.argv.slice(2);
if (dir === undefined || accountsFile === undefined) {
  process.stderr.write('usage: node-server.ts <dir> <accounts.json> [--announce] [--blocks] [--with-dir]\n');
  process.exit(2);
}
const serveNode = await loadServe();
const config = await loadNodeConfig({ dir });
const node = await Node.start({ dir, config });
const ids = JSON.parse(await readFile(accountsFile, 'utf8')) as string[];
const setup = buildTx(await adminOf(dir), setupInstructions(ids.map((id) => ({ id }))), {
  chainId: config.node.chainId,
});
const done = await submitAndWait(node, setup);
if (done.status.kind !== 'Committed') throw new Error(`bench setup rejected: ${JSON.stringify(done)}`);

let committed = 0;
let rejected = 0;
const announce = flags.includes('--announce');
const blocks = flags.includes('--blocks');
node.pipeline.events.subscribe((env) => {
  const e = env.event;
  if (blocks && e.kind === 'Block' && e.status.kind === 'Committed')
    process.stdout.write(`B ${e.height} ${nowEpochMs().toFixed(3)}\n`);
  if (e.kind !== 'Transaction') return;
  if (e.status.kind === 'Committed') {
    committed++;
    if (announce) process.stdout.write(`C ${toHex(e.hash)} ${nowEpochMs().toFixed(3)}\n`);
  } else if (e.status.kind === 'Rejected' || e.status.kind === 'Expired') rejected++;
});
// --with-dir: served with its node directory, as `torana start` does (per-node stores: webhooks).
const served = await serveNode(node, flags.includes('--with-dir') ? { dir } : {});
process.stdout.write(`LISTENING ${served.url}\n`);
const timer = setInterval(() => {
  process.stdout.write(`COUNT ${committed} ${rejected} ${nowEpochMs().toFixed(3)}\n`);
}, COUNT_INTERVAL_MS);
process.on('SIGUSR2', () => {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  process.stdout.write(`MEM ${m.rss} ${m.heapUsed}\n`);
});
process.once('SIGTERM', () => {
  clearInterval(timer);
  void served
    .close()
    .then(() => node.stop())
    .then(() => process.exit(0));
});
