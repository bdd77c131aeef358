// Child process of the `state_1m_*` figures: builds a node directory whose state holds N accounts with
// one asset each (scale-state.ts), by executing real signed transactions through the node (admission,
// queue, execution, block log, state store) with `storage.fsync = false` while building, like chain.ts;
// a process of its own so the bench process never holds the built state. Prints one JSON line.
// Usage: node --import tsx bench/lib/scale-build-child.ts <dir> <accounts>

import { submitAndWait } from '../../test/helpers/node.js';
import { buildTx, frameTx } from '../../test/helpers/tx.js';
import { BENCH_CHAIN_ID, BUILD_BLOCK_TRANSACTIONS, startBuildNode } from './chain.js';
import { runLoad } from './inprocess-load.js';
import { SCALE_ACCOUNTS_PER_TX, scaleAccountInstructions, scaleSetup } from './scale-state.js';
import { adminOf } from './transfers.js';

const [dir, countText] = process.argv.slice(2);
const accounts = Number(countText);
if (dir === undefined || !Number.isSafeInteger(accounts) || accounts < 1) {
  process.stderr.write('usage: scale-build-child.ts <dir> <accounts>\n');
  process.exit(2);
}
const node = await startBuildNode(dir);
const t0 = performance.now();
const admin = await adminOf(dir);
const setup = await submitAndWait(node, buildTx(admin, scaleSetup(), { chainId: BENCH_CHAIN_ID }));
if (setup.status.kind !== 'Committed') throw new Error(`scale setup rejected: ${JSON.stringify(setup)}`);
const transactions = Math.ceil(accounts / SCALE_ACCOUNTS_PER_TX);
let n = 0;
const load = await runLoad(node, {
  next: () => {
    const from = n * SCALE_ACCOUNTS_PER_TX;
    const to = Math.min(accounts, from + SCALE_ACCOUNTS_PER_TX);
    const tx = buildTx(admin, scaleAccountInstructions(from, to), { chainId: BENCH_CHAIN_ID, nonce: n++ });
    return frameTx(tx);
  },
  total: transactions,
  inFlightMax: 2 * BUILD_BLOCK_TRANSACTIONS,
});
if (load.committed !== transactions)
  throw new Error(`scale build committed ${load.committed} of ${transactions} (${load.refused} refused)`);
await node.ledger.flushState();
const buildMs = performance.now() - t0;
const report = {
  scale_accounts: accounts,
  accounts: node.ledger.state.accountCount(),
  transactions,
  height: node.ledger.height(),
  build_ms: buildMs,
};
await node.stop();
process.stdout.write(`${JSON.stringify(report)}\n`);
