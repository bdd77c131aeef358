// A violated commit invariant stops the node before the block is written: a single-peer engine over a
// ledger on disk whose execution reports a header with a state root it did not compute. The commit's
// precondition (pipeline/commit-checks.ts) fires, the engine reports it through onFatal and stops, and the
// reopened block log does not hold the bad block.

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  admin,
  commitGenesis,
  ManualClock,
  MEMORY_CHAIN_ID,
  memoryPipeline,
  validatorKey,
  validatorPeer,
  validatorSet,
} from '../../test/helpers/memory-chain.js';
import { buildTx, frameTx } from '../../test/helpers/tx.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { blockHash } from '../model/block.js';
import type { ExecutedBlock } from '../pipeline/executed-block.js';
import { Ledger } from '../pipeline/ledger.js';
import { BlockLog } from '../storage/block-log.js';
import { AssertionError } from '../util/assert.js';
import { SinglePeerEngine } from './single-peer.js';

/** The executed block with a changed header, re-hashed so that only the planted field is wrong. */
function withHeader(executed: ExecutedBlock, change: Partial<ExecutedBlock['header']>): ExecutedBlock {
  const header = { ...executed.header, ...change };
  return { ...executed, header, hash: blockHash(header) };
}

describe('a violated commit invariant stops the node before the block is written', () => {
  it('single-peer engine over a disk ledger: bad state root → onFatal, engine stopped, log ends at 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'torana-commit-checks-'));
    try {
      const opts = {
        dir,
        chainId: MEMORY_CHAIN_ID,
        decodeLimits: DEFAULT_DECODE_LIMITS,
        fsync: false,
        segmentBytesMax: 1 << 20,
        lmdbMapBytes: 64 << 20,
      };
      const { ledger } = await Ledger.open(opts);
      await commitGenesis(ledger);
      const clock = new ManualClock();
      const pipeline = memoryPipeline(ledger, clock);
      // The planted bug: execution reports a header whose state root is not the one it computed.
      const execute = pipeline.execute.bind(pipeline);
      pipeline.execute = (view, time, txs) =>
        withHeader(execute(view, time, txs), { stateRoot: new Uint8Array(32).fill(0xab) });
      const fatal: unknown[] = [];
      const engine = new SinglePeerEngine(pipeline, {
        signer: validatorKey,
        peerId: validatorPeer,
        validatorSet,
        recentCertificatesMax: 8,
        minIntervalMs: 0,
        onFatal: (e) => fatal.push(e),
      });
      pipeline.attach(engine);
      engine.start();
      const submit = async (nonce: number) => {
        const tx = buildTx(admin, [{ kind: 'Log', level: { kind: 'Info' }, message: `m${nonce}` }], {
          chainId: MEMORY_CHAIN_ID,
          creationTimeMs: clock.nowMs(),
          nonce,
        });
        assert.ok((await pipeline.submit(frameTx(tx))).ok);
      };
      await submit(0);
      for (let i = 0; i < 50 && fatal.length === 0; i++) {
        clock.advance(0);
        await new Promise((r) => setImmediate(r));
      }
      assert.equal(fatal.length, 1, 'the engine reported one fatal error');
      assert.ok(fatal[0] instanceof AssertionError);
      assert.match((fatal[0] as Error).message, /state root/);
      console.log(`fatal: ${(fatal[0] as Error).message}`);
      // Stopped: more work produces nothing.
      await submit(1);
      for (let i = 0; i < 10; i++) {
        clock.advance(0);
        await new Promise((r) => setImmediate(r));
      }
      assert.equal(fatal.length, 1);
      assert.equal(pipeline.height(), 1);
      await engine.stop();
      await ledger.close();
      const { log } = await BlockLog.open(dir, { fsync: false });
      console.log(`reopened block log height: ${log.height}`);
      assert.equal(log.height, 1, 'the bad block is not on disk');
      await log.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
