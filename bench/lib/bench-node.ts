// A fresh node in a temporary directory with the bench accounts registered and funded, for the load
// figures. Configuration: the defaults `npm start` would use (fsync on, block.max_transactions 512,
// verify.threads 1), except the chain id and an ephemeral port.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../src/config/schema.js';
import { initNodeDir } from '../../src/node/init.js';
import { loadNodeConfig } from '../../src/node/load-config.js';
import { Node } from '../../src/node/node.js';
import { submitAndWait } from '../../test/helpers/node.js';
import { buildTx, type TestAccount } from '../../test/helpers/tx.js';
import { BENCH_CHAIN_ID } from './chain.js';
import { adminOf, benchAccounts, presignedFrom, setupInstructions, transferSource } from './transfers.js';

export interface BenchNode {
  dir: string;
  node: Node;
  config: Config;
  accounts: TestAccount[];
}

export async function withBenchNode<T>(
  overrides: Record<string, unknown>,
  fn: (b: BenchNode) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'torana-bench-node-'));
  try {
    await initNodeDir({
      dir,
      overrides: { 'gateway.port': 0, 'node.chain_id': BENCH_CHAIN_ID, ...overrides },
    });
    const config = await loadNodeConfig({ dir });
    const node = await Node.start({ dir, config });
    try {
      const accounts = benchAccounts();
      const setup = buildTx(await adminOf(dir), setupInstructions(accounts), { chainId: BENCH_CHAIN_ID });
      const r = await submitAndWait(node, setup);
      if (r.status.kind !== 'Committed') throw new Error(`bench setup rejected: ${JSON.stringify(r)}`);
      return await fn({ dir, node, config, accounts });
    } finally {
      await node.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Signs `count` transfers before a measurement starts, so signing does not take CPU from the node
 * being measured; if a run needs more, the rest are signed on the fly (and `onTheFly` counts them).
 */
export function presigned(accounts: readonly TestAccount[], count: number) {
  return presignedFrom(transferSource(accounts, BENCH_CHAIN_ID), count, new Uint8Array(0));
}
