// Figure `join_by_snapshot_s` (docs/design/snapshots.md): seconds for a new peer to hold the state of the
// built chain's tip from a snapshot: `snapshot create` on the built node's directory, `snapshot restore`
// (which verifies the certificate and rebuilds the state root from the rows) into a new directory, and
// opening the ledger there. Baseline, measured in the same run over the same chain: replaying it from
// genesis with `verifyChain` (what a peer without a snapshot re-executes and re-checks). Goal: ratio < 1.
// Network transfer is not counted on either side.

import { mkdtemp, rm, stat } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ValidatorSet } from '../../src/consensus/validator-set.js';
import { VerifyPool } from '../../src/crypto/verify-pool.js';
import { nodeFiles } from '../../src/node/files.js';
import { loadGenesis } from '../../src/node/genesis.js';
import { decodeLimitsOf, loadNodeConfig } from '../../src/node/load-config.js';
import { createSnapshot } from '../../src/node/snapshot-create.js';
import { restoreSnapshot } from '../../src/node/snapshot-restore.js';
import { loadTrust } from '../../src/node/snapshot-verify.js';
import { verifyChain } from '../../src/node/verify-chain.js';
import { Ledger } from '../../src/pipeline/ledger.js';
import { type Figure, type FigureResult, ratioOf } from '../lib/types.js';

async function replaySeconds(dir: string): Promise<number> {
  const config = await loadNodeConfig({ dir });
  const files = nodeFiles(dir);
  const genesis = await loadGenesis(files.genesis, config.node.chainId);
  const pool = new VerifyPool({ threads: availableParallelism() });
  try {
    const r = await verifyChain({
      dir: files.data,
      chainId: config.node.chainId,
      validatorSet: new ValidatorSet(genesis.validators),
      decodeLimits: decodeLimitsOf(config),
      verifySignatures: (items) => pool.verify(items),
    });
    return r.durationMs / 1000;
  } finally {
    await pool.close();
  }
}

export const joinBySnapshotFigure: Figure = {
  id: 'join_by_snapshot_s',
  async run(ctx): Promise<FigureResult> {
    const chain = await ctx.fixtures.chain();
    const config = await loadNodeConfig({ dir: chain.dir });
    const work = await mkdtemp(join(tmpdir(), 'torana-bench-snap-'));
    try {
      const file = join(work, 'chain.snap');
      const target = join(work, 'joined');
      ctx.log(`snapshot of the built chain (${chain.transactions} transactions, ${chain.height} blocks)`);
      const t0 = performance.now();
      const created = await createSnapshot(chain.dir, file, config.node.chainId);
      const t1 = performance.now();
      await restoreSnapshot(file, target, await loadTrust(chain.dir), { fsync: false });
      const t2 = performance.now();
      const { ledger } = await Ledger.open({
        dir: nodeFiles(target).data,
        chainId: config.node.chainId,
        fsync: false,
        segmentBytesMax: config.storage.segmentBytesMax,
        lmdbMapBytes: config.storage.lmdbMapBytes,
        decodeLimits: decodeLimitsOf(config),
      });
      const height = ledger.height();
      await ledger.close();
      const t3 = performance.now();
      const seconds = (t3 - t0) / 1000;
      ctx.log('replaying the same chain from genesis (baseline)');
      const replay = await replaySeconds(chain.dir);
      const ratio = ratioOf(seconds, replay);
      return {
        id: 'join_by_snapshot_s',
        value: seconds,
        unit: 's',
        baseline: `replay of the same chain from genesis (verifyChain), s`,
        baseline_value: replay,
        ratio,
        goal: 'ratio < 1',
        met: ratio !== null && ratio < 1 && height === created.manifest.height,
        note: chain.note,
        extra: {
          height,
          rows: created.end.rows,
          snapshot_bytes: (await stat(file)).size,
          create_s: (t1 - t0) / 1000,
          restore_s: (t2 - t1) / 1000,
          open_s: (t3 - t2) / 1000,
        },
      };
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  },
};
