// The driver's commit preconditions stop the engine before the host is asked to write: a Commit effect
// for a block whose parent is not the committed tip, or with a certificate of another block, or batch
// settings a peer's decoder would refuse, are bugs of this node (ConsensusInvariantError through
// onFatal), not something to hand to the pipeline. A well-formed commit of the same shape goes through.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  commitGenesis,
  ManualClock,
  MEMORY_CHAIN_ID,
  memoryPipeline,
  newDisk,
  openMemoryLedger,
} from '../../../test/helpers/memory-chain.js';
import { DEFAULT_DECODE_LIMITS } from '../../codec/limits.js';
import { BlsKeyPair } from '../../crypto/bls.js';
import { publicKeyToText } from '../../crypto/keys.js';
import { blockHash, type CommitCertificate } from '../../model/block.js';
import type { ExecutedBlock } from '../../pipeline/executed-block.js';
import { toHex } from '../../util/hex.js';
import { signersBitmap } from '../certificate.js';
import { ValidatorSet } from '../validator-set.js';
import { BlsVoteCrypto } from './bls-vote-crypto.js';
import { BftEngine } from './driver.js';
import { GOSSIP_TXS_MAX } from './messages.js';
import { type BftEffect, ConsensusInvariantError, DEFAULT_PACEMAKER } from './types.js';

const keys = Array.from({ length: 4 }, (_, i) => BlsKeyPair.fromSeed(new Uint8Array(32).fill(80 + i)));
const peers = keys.map((_, i) => `ed0120${toHex(new Uint8Array(32).fill(0x40 + i)).toUpperCase()}`);
const roster = new ValidatorSet(
  peers.map((peer, i) => ({ peer, blsKey: publicKeyToText(keys[i]!.publicKey) })),
);

/** The driver's private parts a test plants a bug through (the commit path a Commit effect takes). */
interface DriverInside {
  executed: Map<string, ExecutedBlock>;
  enqueue(task: () => Promise<void>): void;
  run(e: BftEffect): Promise<void>;
}

async function oneEngine(o: { gossipBatchMax?: number } = {}) {
  const clock = new ManualClock();
  const { ledger } = await openMemoryLedger(newDisk());
  await commitGenesis(ledger);
  const pipeline = memoryPipeline<ValidatorSet>(ledger, clock, { validatorSetOf: () => roster });
  let hostCommits = 0;
  const commit = pipeline.commit.bind(pipeline);
  pipeline.commit = (executed, certificate) => {
    hostCommits++;
    return commit(executed, certificate);
  };
  const fatal: unknown[] = [];
  const engine = new BftEngine(
    pipeline,
    { send: () => {}, broadcast: () => {}, reportGarbage: () => {} },
    { load: async () => undefined, save: async () => {} },
    {
      chainId: MEMORY_CHAIN_ID,
      self: peers[0]!,
      crypto: new BlsVoteCrypto(MEMORY_CHAIN_ID, keys[0]!),
      pacemaker: { ...DEFAULT_PACEMAKER, baseMs: 500, jitterPermille: 0 },
      collectorsK: 2,
      minIntervalMs: 0,
      syncBatchBlocks: 16,
      gossipBatchMax: o.gossipBatchMax ?? 64,
      recentCertificatesMax: 16,
      decodeLimits: DEFAULT_DECODE_LIMITS,
      onEvidence: () => {},
      onFatal: (e) => fatal.push(e),
    },
  );
  await engine.open();
  const inside = engine as unknown as DriverInside;
  /** Runs a Commit effect for `executed` the way the core's effects run (the serial queue). */
  const commitEffect = async (executed: ExecutedBlock, certificate: CommitCertificate) => {
    inside.executed.set(toHex(executed.hash), executed);
    inside.enqueue(() =>
      inside.run({ kind: 'Commit', height: executed.header.height, blockHash: executed.hash, certificate }),
    );
    for (let k = 0; k < 10; k++) await new Promise((r) => setImmediate(r));
  };
  const certificateOf = (hash: Uint8Array, height = 2): CommitCertificate => ({
    phase: { kind: 'Commit' },
    height,
    view: 0,
    epoch: 0,
    blockHash: hash,
    validatorSetHash: roster.hash,
    signers: signersBitmap([0, 1, 2], roster.size),
    signature: new Uint8Array(96),
  });
  return { engine, pipeline, clock, fatal, commitEffect, certificateOf, hostCommits: () => hostCommits };
}

/** The executed block with a changed header, re-hashed so only the planted field is wrong. */
function withHeader(executed: ExecutedBlock, change: Partial<ExecutedBlock['header']>): ExecutedBlock {
  const header = { ...executed.header, ...change };
  return { ...executed, header, hash: blockHash(header) };
}

describe('BFT driver: commit preconditions stop the node before the host writes', () => {
  it('a block whose parent is not the committed tip: ConsensusInvariantError, no host commit, tip stays', async () => {
    const e = await oneEngine();
    const good = e.pipeline.execute(0, e.clock.nowMs(), []);
    const orphan = withHeader(good, { prevHash: new Uint8Array(32).fill(0xcd) });
    await e.commitEffect(orphan, e.certificateOf(orphan.hash));
    assert.equal(e.fatal.length, 1, 'the engine reported one fatal error');
    assert.ok(e.fatal[0] instanceof ConsensusInvariantError, String(e.fatal[0]));
    assert.match((e.fatal[0] as Error).message, /parent is not the committed tip/);
    console.log(`fatal: ${(e.fatal[0] as Error).message}`);
    assert.equal(e.hostCommits(), 0, 'the host was never asked to write it');
    assert.equal(e.pipeline.height(), 1);
    // Stopped: a well-formed commit enqueued afterwards does not run either.
    await e.commitEffect(good, e.certificateOf(good.hash));
    assert.equal(e.hostCommits(), 0);
    assert.equal(e.pipeline.height(), 1);
    await e.engine.stop();
  });

  it('a certificate of another block: ConsensusInvariantError before the host is asked', async () => {
    const e = await oneEngine();
    const good = e.pipeline.execute(0, e.clock.nowMs(), []);
    await e.commitEffect(good, e.certificateOf(new Uint8Array(32).fill(0xee)));
    assert.equal(e.fatal.length, 1);
    assert.ok(e.fatal[0] instanceof ConsensusInvariantError, String(e.fatal[0]));
    assert.match((e.fatal[0] as Error).message, /certificate for another block/);
    assert.equal(e.hostCommits(), 0);
    assert.equal(e.pipeline.height(), 1);
    await e.engine.stop();
  });

  it('control: the same block with its own certificate commits (height 2, no fatal)', async () => {
    const e = await oneEngine();
    const good = e.pipeline.execute(0, e.clock.nowMs(), []);
    await e.commitEffect(good, e.certificateOf(good.hash));
    assert.deepEqual(e.fatal, []);
    assert.equal(e.hostCommits(), 1);
    assert.equal(e.pipeline.height(), 2);
    await e.engine.stop();
  });

  it('a gossip batch larger than a peer decodes in one message is refused at construction', async () => {
    await assert.rejects(
      () => oneEngine({ gossipBatchMax: GOSSIP_TXS_MAX + 1 }),
      (err: Error) => err instanceof ConsensusInvariantError && /gossip batch of 4097/.test(err.message),
    );
  });
});
