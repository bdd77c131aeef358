// The ledger core end to end: a transfer submitted and committed; a transaction with one failing
// instruction leaves no partial effect; restart resumes; rebuilding from blocks gives the same state root.

import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { numeric } from '../../src/model/numeric.js';
import { nodeFiles } from '../../src/node/files.js';
import { toHex } from '../../src/util/hex.js';
import { run, startTestNode, submitAndWait, type TestNode } from '../helpers/node.js';
import { buildTx, frameTx, newAccount } from '../helpers/tx.js';

const empty = new Map();

describe('ledger core end to end (single peer, in process)', () => {
  let t: TestNode;
  const alice = newAccount('wonderland');
  const bob = newAccount('wonderland');
  const rose = 'rose#wonderland';

  before(async () => {
    t = await startTestNode();
  });
  after(async () => {
    await t.cleanup();
  });

  it('applies genesis as block 1', () => {
    assert.equal(t.node.ledger.height(), 1);
    assert.ok(t.node.ledger.state.account(t.admin.id));
  });

  it('registers, mints and commits a transfer', async () => {
    const setup = await run(t, t.admin, [
      { kind: 'RegisterDomain', id: 'wonderland', metadata: empty },
      { kind: 'RegisterAccount', id: alice.id, metadata: empty },
      { kind: 'RegisterAccount', id: bob.id, metadata: empty },
      {
        kind: 'RegisterAssetDefinition',
        id: rose,
        scale: 2,
        mintable: { kind: 'Infinitely' },
        metadata: empty,
      },
      { kind: 'MintAsset', asset: `${rose}#${alice.id}`, amount: numeric('100.00') },
    ]);
    assert.equal(setup.status.kind, 'Committed', JSON.stringify(setup.status));
    const transfer = await run(t, alice, [
      { kind: 'TransferAsset', source: `${rose}#${alice.id}`, destination: bob.id, amount: numeric('25.5') },
    ]);
    assert.equal(transfer.status.kind, 'Committed', JSON.stringify(transfer.status));
    assert.equal(t.node.ledger.state.asset(`${rose}#${alice.id}`)?.value.mantissa, 7450n);
    assert.equal(t.node.ledger.state.asset(`${rose}#${bob.id}`)?.value.mantissa, 2550n);
    const loc = t.node.ledger.locate(Buffer.from(transfer.hash, 'hex'));
    assert.equal(loc?.height, transfer.height);
  });

  it('rejects a transaction with one failing instruction and leaves no partial effect', async () => {
    const rootBefore = toHex(t.node.ledger.state.stateRoot());
    const r = await run(t, alice, [
      { kind: 'TransferAsset', source: `${rose}#${alice.id}`, destination: bob.id, amount: numeric('10') },
      { kind: 'SetKeyValue', target: { kind: 'Account', id: alice.id }, key: 'nick', value: 'al' },
      { kind: 'TransferAsset', source: `${rose}#${alice.id}`, destination: bob.id, amount: numeric('1000') },
    ]);
    assert.equal(r.status.kind, 'Rejected');
    if (r.status.kind === 'Rejected') {
      assert.equal(r.status.reason.code, 'insufficient_funds');
      assert.equal(r.status.reason.instructionIndex, 2);
    }
    assert.equal(t.node.ledger.state.asset(`${rose}#${alice.id}`)?.value.mantissa, 7450n);
    assert.equal(t.node.ledger.state.account(alice.id)?.metadata.size, 0);
    // The rejected transaction is recorded in its block with its reason, and the root did not move.
    const block = await t.node.ledger.block(r.height!);
    assert.equal(
      block?.results.some((x) => x.kind === 'Rejected' && x.reason.code === 'insufficient_funds'),
      true,
    );
    assert.equal(toHex(t.node.ledger.state.stateRoot()), rootBefore);
  });

  it('refuses a duplicate of a committed transaction with already_committed', async () => {
    const tx = buildTx(alice, [{ kind: 'Log', level: { kind: 'Info' }, message: 'once' }], {
      chainId: t.chainId,
    });
    const first = await submitAndWait(t.node, tx);
    assert.equal(first.status.kind, 'Committed');
    const again = await t.node.pipeline.submit(frameTx(tx));
    assert.equal(again.ok, false);
    assert.equal(!again.ok && 'code' in again ? again.code : undefined, 'already_committed');
  });

  it('resumes after a restart with the same height, tip and balances', async () => {
    const height = t.node.ledger.height();
    const tip = toHex(t.node.ledger.tipHash());
    const root = toHex(t.node.ledger.state.stateRoot());
    const liveCertificates = t.node.engine.snapshot().recentCertificates;
    await t.restart();
    assert.equal(t.node.ledger.height(), height);
    assert.equal(toHex(t.node.ledger.tipHash()), tip);
    // The certificates restored at start (taken from the blocks' bytes without decoding them whole)
    // are the blocks' own, newest first, as a whole-block decode gives them and as the engine held them.
    const restored = t.node.engine.snapshot().recentCertificates;
    const decoded = [];
    for (let h = height; h >= 1; h--) decoded.push((await t.node.ledger.block(h))!.certificate);
    assert.deepEqual(restored, decoded);
    assert.deepEqual(restored.slice(0, liveCertificates.length), liveCertificates);
    assert.equal(toHex(t.node.ledger.state.stateRoot()), root);
    assert.equal(t.node.ledger.state.asset(`${rose}#${bob.id}`)?.value.mantissa, 2550n);
    const more = await run(t, bob, [
      { kind: 'TransferAsset', source: `${rose}#${bob.id}`, destination: alice.id, amount: numeric('0.5') },
    ]);
    assert.equal(more.status.kind, 'Committed');
  });

  it('rebuilds the world state from blocks alone with an identical state root', async () => {
    const root = toHex(t.node.ledger.state.stateRoot());
    await t.node.stop();
    await rm(join(nodeFiles(t.dir).data, 'state'), { recursive: true, force: true });
    const node = await t.restart();
    assert.equal(node.openReport.stateHeight, 0);
    assert.equal(node.openReport.replayedBlocks, node.ledger.height());
    assert.equal(toHex(node.ledger.state.stateRoot()), root);
  });
});

describe('duplicates while a block is in flight (regression)', () => {
  it('refuses a resubmission after the engine took the transaction and before it committed', async () => {
    const t = await startTestNode();
    try {
      const tx = buildTx(t.admin, [{ kind: 'Log', level: { kind: 'Info' }, message: 'in flight' }], {
        chainId: t.chainId,
      });
      const body = frameTx(tx);
      const pipeline = t.node.pipeline;
      await t.node.engine.stop();
      assert.equal((await pipeline.submit(body)).ok, true);
      // What the engine does first when it produces: take the transaction out of the queue.
      const taken = pipeline.takeTransactions(10);
      assert.equal(taken.length, 1);
      const again = await pipeline.submit(body);
      assert.equal(!again.ok && 'code' in again ? again.code : undefined, 'already_enqueued');
      pipeline.abandon(taken, 'test');
    } finally {
      await t.cleanup();
    }
  });
});

describe('block.min_interval_ms', () => {
  it('spaces block starts by at least the configured interval, gathering transactions meanwhile', async () => {
    const t = await startTestNode({ 'block.min_interval_ms': 400, 'block.time_ms': 1000 });
    try {
      const first = await run(t, t.admin, [{ kind: 'Log', level: { kind: 'Info' }, message: 'a' }]);
      const rest = await Promise.all(
        [1, 2, 3].map((n) =>
          submitAndWait(
            t.node,
            buildTx(t.admin, [{ kind: 'Log', level: { kind: 'Info' }, message: `b${n}` }], {
              chainId: t.chainId,
            }),
          ),
        ),
      );
      const a = await t.node.ledger.block(first.height!);
      const b = await t.node.ledger.block(rest[0]!.height!);
      assert.ok(
        b!.header.creationTimeMs - a!.header.creationTimeMs >= 390,
        `${b!.header.creationTimeMs - a!.header.creationTimeMs} ms apart`,
      );
      assert.equal(
        new Set(rest.map((r) => r.height)).size,
        1,
        'the three waiting transactions share one block',
      );
    } finally {
      await t.cleanup();
    }
  });
});
