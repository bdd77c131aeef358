// A block that breaks a commit invariant is refused before a byte reaches the block log: wrong height,
// wrong parent, an executed state root that is not the header's, a certificate for another block. With
// the single-peer engine driving a pipeline over a ledger on disk, the failed assertion stops the engine
// (onFatal) and the reopened block log ends at the last good block.

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  admin,
  certify,
  commitGenesis,
  ManualClock,
  MEMORY_CHAIN_ID,
  memoryPipeline,
  newDisk,
  openMemoryLedger,
  validatorKey,
  validatorPeer,
  validatorSet,
} from '../../test/helpers/memory-chain.js';
import { buildTx, frameTx } from '../../test/helpers/tx.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { SinglePeerEngine } from '../consensus/single-peer.js';
import { blockHash } from '../model/block.js';
import { BlockLog } from '../storage/block-log.js';
import { AssertionError } from '../util/assert.js';
import { bytesEqual } from '../util/hex.js';
import type { ExecutedBlock } from './executed-block.js';
import { Ledger } from './ledger.js';

const emptyBlock = (ledger: Ledger): ExecutedBlock =>
  ledger.execute({ view: 0, creationTimeMs: 1_700_000_001_000, transactions: [], hashes: [] });

/** The executed block with a changed header, re-hashed so that only the planted field is wrong. */
function withHeader(executed: ExecutedBlock, change: Partial<ExecutedBlock['header']>): ExecutedBlock {
  const header = { ...executed.header, ...change };
  return { ...executed, header, hash: blockHash(header) };
}

describe('Ledger.commit: pre- and postconditions', () => {
  const plants: [string, (e: ExecutedBlock) => { executed: ExecutedBlock; cert?: number }, RegExp][] = [
    ['height not tip + 1', (e) => ({ executed: withHeader(e, { height: 3 }), cert: 3 }), /tip \+ 1/],
    [
      'parent not the tip',
      (e) => ({ executed: withHeader(e, { prevHash: new Uint8Array(32).fill(7) }) }),
      /parent/,
    ],
    [
      'state root not the executed one',
      (e) => ({ executed: withHeader(e, { stateRoot: new Uint8Array(32).fill(9) }) }),
      /state root/,
    ],
    ['certificate for another height', (e) => ({ executed: e, cert: 5 }), /certificate/],
    ['transaction count off', (e) => ({ executed: withHeader(e, { transactionCount: 1 }) }), /transactions/],
  ];
  for (const [name, plant, message] of plants) {
    it(`refuses a block whose ${name}, and writes nothing`, async () => {
      const { ledger } = await openMemoryLedger(newDisk());
      await commitGenesis(ledger);
      const good = emptyBlock(ledger);
      const { executed, cert } = plant(good);
      await assert.rejects(
        ledger.commit(executed, certify(cert ?? executed.header.height, executed.hash)),
        (e: unknown) => e instanceof AssertionError && message.test(e.message),
      );
      assert.equal(ledger.height(), 1);
      // The genuine block still commits: the refusal came from the planted field alone.
      await ledger.commit(good, certify(2, good.hash));
      assert.equal(ledger.height(), 2);
      assert.ok(bytesEqual(ledger.tipHash(), good.hash));
    });
  }

  it('refuses a certificate naming another block hash at the right height', async () => {
    const { ledger } = await openMemoryLedger(newDisk());
    await commitGenesis(ledger);
    const good = emptyBlock(ledger);
    await assert.rejects(ledger.commit(good, certify(2, new Uint8Array(32))), /certificate/);
    assert.equal(ledger.height(), 1);
  });
});

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
