// Builds a node directory holding many committed transfer transactions, for the restart and replay
// figures (a node with 1,000,000 committed transactions). The
// transactions go through the real node in this process (admission, queue, execution, block log,
// state store) with `storage.fsync = false` to save time, in blocks of up to 512.

import { mkdtemp } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { initNodeDir } from '../../src/node/init.js';
import { loadNodeConfig } from '../../src/node/load-config.js';
import { Node } from '../../src/node/node.js';
import { submitAndWait } from '../../test/helpers/node.js';
import { buildTx } from '../../test/helpers/tx.js';
import { runLoad } from './inprocess-load.js';
import { adminOf, benchAccounts, setupInstructions, transferSource } from './transfers.js';

export const BENCH_CHAIN_ID = 'torana-bench';
/** Transactions per block while building (the `block.max_transactions` default). */
export const BUILD_BLOCK_TRANSACTIONS = 512;
/** Submitted but not yet committed while building: a few full blocks. */
const BUILD_IN_FLIGHT_MAX = 4 * BUILD_BLOCK_TRANSACTIONS;

export interface BuiltChain {
  dir: string;
  transactions: number;
  height: number;
  buildSeconds: number;
  note: string;
}

/**
 * A new node directory at `dir` set up for building bench state fast (fsync off, blocks of 512, every
 * core but one verifying), started in this process.
 */
export async function startBuildNode(dir: string): Promise<Node> {
  await initNodeDir({
    dir,
    overrides: {
      'gateway.port': 0,
      'node.chain_id': BENCH_CHAIN_ID,
      'storage.fsync': false,
      'block.max_transactions': BUILD_BLOCK_TRANSACTIONS,
      'verify.threads': Math.max(1, availableParallelism() - 1),
    },
  });
  const config = await loadNodeConfig({ dir });
  return Node.start({ dir, config });
}

export async function buildChain(transactions: number, log: (m: string) => void): Promise<BuiltChain> {
  const dir = await mkdtemp(join(tmpdir(), 'torana-bench-chain-'));
  const node = await startBuildNode(dir);
  const t0 = performance.now();
  try {
    const accounts = benchAccounts();
    const admin = await adminOf(dir);
    const setup = await submitAndWait(
      node,
      buildTx(admin, setupInstructions(accounts), { chainId: BENCH_CHAIN_ID }),
    );
    if (setup.status.kind !== 'Committed') throw new Error(`bench setup rejected: ${JSON.stringify(setup)}`);
    let reported = 0;
    const next = transferSource(accounts, BENCH_CHAIN_ID);
    const load = await runLoad(node, {
      next: () => {
        if (++reported % 100_000 === 0) log(`  built ${reported} of ${transactions} transactions`);
        return next();
      },
      total: transactions,
      inFlightMax: BUILD_IN_FLIGHT_MAX,
    });
    if (load.committed !== transactions)
      throw new Error(`chain build committed ${load.committed} of ${transactions} (${load.refused} refused)`);
    await node.ledger.flushState();
    const buildSeconds = (performance.now() - t0) / 1000;
    return {
      dir,
      transactions: transactions + 2, // plus genesis and the setup transaction
      height: node.ledger.height(),
      buildSeconds,
      note: `chain of ${transactions} one-transfer transactions built in process through the pipeline with storage.fsync=false, blocks of up to ${BUILD_BLOCK_TRANSACTIONS}, in ${buildSeconds.toFixed(1)} s`,
    };
  } finally {
    await node.stop();
  }
}
