// The single-peer engine schedules only through the host's Clock: with a hand-driven clock nothing is
// produced until the clock runs its timers, and then every waiting transaction is committed.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  admin,
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
import { aggregateCertificate, verifyCertificate } from './certificate.js';
import { SinglePeerEngine } from './single-peer.js';

describe('SinglePeerEngine on an injected clock', () => {
  it('produces nothing until the clock runs its timers, then commits every waiting transaction', async () => {
    const { ledger } = await openMemoryLedger(newDisk());
    await commitGenesis(ledger);
    const clock = new ManualClock();
    const pipeline = memoryPipeline(ledger, clock);
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
    for (let i = 0; i < 3; i++) {
      const tx = buildTx(admin, [{ kind: 'Log', level: { kind: 'Info' }, message: `m${i}` }], {
        chainId: MEMORY_CHAIN_ID,
        creationTimeMs: clock.nowMs(),
        nonce: i,
      });
      assert.ok((await pipeline.submit(frameTx(tx))).ok);
    }
    // Several immediate turns pass: the engine waits for the clock, not for the event loop.
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    assert.equal(pipeline.height(), 1);
    assert.equal(clock.pending, 1, 'one scheduled production');

    clock.advance(0);
    await engine.waitForHeight(2);
    assert.equal(pipeline.queueDepth(), 0);
    const block = await ledger.block(2);
    assert.equal(block?.transactions.length, 3);
    assert.equal(verifyCertificate(MEMORY_CHAIN_ID, block!.certificate, validatorSet), undefined);
    // After a block the engine yields through the clock too, and stops cleanly.
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    clock.advance(0);
    await engine.stop();
    assert.equal(engine.snapshot().blocksProduced, 1);
    assert.deepEqual(fatal, []);
  });

  it('certifies with the very certificate aggregation of its one vote would give', async () => {
    const { ledger } = await openMemoryLedger(newDisk());
    const engine = new SinglePeerEngine(memoryPipeline(ledger, new ManualClock()), {
      signer: validatorKey,
      peerId: validatorPeer,
      validatorSet,
      recentCertificatesMax: 8,
      minIntervalMs: 0,
      onFatal: () => {},
    });
    const blockHash = new Uint8Array(32).fill(9);
    const c = engine.certify(7, blockHash);
    const { signers: _s, signature, ...subject } = c;
    const index = validatorSet.indexOf(validatorPeer);
    assert.deepEqual(c, aggregateCertificate(subject, [{ index, signature }], validatorSet));
    assert.equal(verifyCertificate(MEMORY_CHAIN_ID, c, validatorSet), undefined);
    assert.equal(verifyCertificate('another-chain', c, validatorSet), 'bad_signature');
  });
});
