// Figure `replay_tx_per_s` ("restart and replay": full re-verification ≥ 50,000 tx/s).
// `verifyChain` (the logic of `torana verify`) re-checks every block of the built chain: hashes,
// linkage, certificates, every transaction signature (VerifyPool with one worker per core) and a full
// re-execution from an empty state. Baseline: Ed25519 verifications per second on all cores, measured in
// the same run; the ratio shows how close replay gets to the signature-checking limit alone (goal
// >= 0.8, with signatures checked on the pool for a window of blocks ahead of re-execution).

import { availableParallelism } from 'node:os';
import { ValidatorSet } from '../../src/consensus/validator-set.js';
import { VerifyPool } from '../../src/crypto/verify-pool.js';
import { nodeFiles } from '../../src/node/files.js';
import { loadGenesis } from '../../src/node/genesis.js';
import { decodeLimitsOf, loadNodeConfig } from '../../src/node/load-config.js';
import { verifyChain } from '../../src/node/verify-chain.js';
import { type Figure, type FigureResult, ratioOf } from '../lib/types.js';

/** Goal for full re-verification. */
const REPLAY_GOAL_TX_PER_S = 50_000;
/** Goal: replay at least this share of the Ed25519 verify rate on all cores. */
const REPLAY_GOAL_RATIO = 0.8;

async function replay(dir: string, log: (m: string) => void) {
  const config = await loadNodeConfig({ dir });
  const files = nodeFiles(dir);
  const genesis = await loadGenesis(files.genesis, config.node.chainId);
  const pool = new VerifyPool({ threads: availableParallelism() });
  try {
    return await verifyChain({
      dir: files.data,
      chainId: config.node.chainId,
      validatorSet: new ValidatorSet(genesis.validators),
      decodeLimits: decodeLimitsOf(config),
      verifySignatures: (items) => pool.verify(items),
      onProgress: (h, of) => {
        if (h % 500 === 0) log(`  verified block ${h} of ${of}`);
      },
    });
  } finally {
    await pool.close();
  }
}

export const replayFigure: Figure = {
  id: 'replay_tx_per_s',
  async run(ctx): Promise<FigureResult> {
    const chain = await ctx.fixtures.chain();
    const ed = await ctx.fixtures.ed25519();
    ctx.log(`re-verifying ${chain.transactions} transactions with verifyChain`);
    const report = await replay(chain.dir, ctx.log);
    const txPerS = report.transactions / (report.durationMs / 1000);
    const ratio = ratioOf(txPerS, ed.perSecond);
    return {
      id: 'replay_tx_per_s',
      value: txPerS,
      unit: 'tx/s',
      baseline: `Ed25519 verify/s, ${ed.threads} cores`,
      baseline_value: ed.perSecond,
      ratio,
      goal: `ratio >= ${REPLAY_GOAL_RATIO}; >= ${REPLAY_GOAL_TX_PER_S.toLocaleString('en')} tx/s`,
      met: ratio !== null && ratio >= REPLAY_GOAL_RATIO && txPerS >= REPLAY_GOAL_TX_PER_S,
      note: chain.note,
      extra: {
        transactions: report.transactions,
        blocks: report.height,
        seconds: report.durationMs / 1000,
      },
    };
  },
};
