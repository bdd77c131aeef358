// Always-on assertions of the pipeline and ledger, each shown with a planted violation: a transaction
// both queued and in flight, a weight the block budget cannot compare, a tally removed below zero,
// signature answers that do not match their items, a ledger asked to execute misaligned arrays, a block
// applied to the world state out of order, and an index entry for an id holding the prefix terminator.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  admin,
  certify,
  commitGenesis,
  GENESIS_TIME_MS,
  MEMORY_CHAIN_ID,
  memoryPipeline,
  newDisk,
  openMemoryLedger,
} from '../../test/helpers/memory-chain.js';
import { buildTx, frameTx } from '../../test/helpers/tx.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import type { Block } from '../model/block.js';
import { transactionHash } from '../model/transaction.js';
import { AssertionError } from '../util/assert.js';
import { admitTransactions } from './admission.js';
import { pushIndexChanges } from './index-writes.js';

const isAssertion = (message: RegExp) => (e: unknown) =>
  e instanceof AssertionError && message.test(e.message);

const now = GENESIS_TIME_MS + 1_000;
const logTx = (nonce: number) =>
  buildTx(admin, [{ kind: 'Log', level: { kind: 'Info' }, message: `m${nonce}` }], {
    chainId: MEMORY_CHAIN_ID,
    creationTimeMs: now,
    nonce,
  });

async function genesisLedger() {
  const { ledger } = await openMemoryLedger(newDisk());
  await commitGenesis(ledger);
  return ledger;
}

describe('pipeline assertions', () => {
  it('a transaction queued while in flight is never taken twice', async () => {
    const pipeline = memoryPipeline(await genesisLedger());
    const submitted = await pipeline.submit(frameTx(logTx(1)));
    assert.equal(submitted.ok, true);
    const [taken] = pipeline.takeTransactions(10);
    assert.ok(taken !== undefined);
    // Planted: the queue is handed the in-flight transaction again behind the pipeline's back.
    assert.equal(pipeline.queue.push(taken).ok, true);
    assert.throws(() => pipeline.takeTransactions(10), isAssertion(/taken while already in flight/));
  });

  it('a weight the budget cannot compare stops the take, and the queue keeps the transaction', async () => {
    const pipeline = memoryPipeline(await genesisLedger());
    await pipeline.submit(frameTx(logTx(2)));
    const budget = { total: 1_000, perAccount: 1_000, weightOf: () => Number.NaN };
    assert.throws(() => pipeline.queue.take(10, now, budget), isAssertion(/weighs NaN/));
    assert.equal(pipeline.queue.depth, 1);
  });

  it('a submitter tally removed more often than added stops', async () => {
    const pipeline = memoryPipeline(await genesisLedger());
    const tally = (pipeline.queue as unknown as { perAccount: { remove(n: string): void } }).perAccount;
    assert.throws(() => tally.remove(admin.id), isAssertion(/removed more often than added/));
  });

  it('signature answers that do not match their items refuse the whole admission', async () => {
    const bodies = [frameTx(logTx(3)), frameTx(logTx(4))];
    const limits = {
      transactionBytesMax: 1 << 20,
      instructionsMax: 100,
      metadataBytesMax: 1 << 16,
      maxClockDriftMs: 10_000,
      allowedAlgorithms: new Set(['ed25519'] as const),
      decode: DEFAULT_DECODE_LIMITS,
    };
    const good = await admitTransactions(bodies, MEMORY_CHAIN_ID, now, limits, async (items) =>
      items.map(() => true),
    );
    assert.deepEqual(
      good.map((r) => r.ok),
      [true, true],
    );
    // Planted: a verifier that answers for one item of two (the second would be refused as unsigned).
    await assert.rejects(
      admitTransactions(bodies, MEMORY_CHAIN_ID, now, limits, async () => [true]),
      isAssertion(/1 answers for 2 signatures/),
    );
  });
});

describe('ledger assertions', () => {
  it('execute refuses transactions and hashes of different lengths', async () => {
    const ledger = await genesisLedger();
    assert.throws(
      () => ledger.execute({ view: 0, creationTimeMs: now, transactions: [logTx(5)], hashes: [] }),
      isAssertion(/1 transactions with 0 hashes/),
    );
    assert.equal(ledger.height(), 1);
  });

  it('a block applied to the world state out of order stops the commit', async () => {
    const disk = newDisk();
    const { ledger } = await openMemoryLedger(disk);
    await commitGenesis(ledger);
    const tx = logTx(6);
    const executed = ledger.execute({
      view: 0,
      creationTimeMs: now,
      transactions: [tx],
      hashes: [transactionHash(tx)],
    });
    // Planted: the ledger believes the world state has not taken block 1 (a later block than the
    // log's would already stop `height()`, before the append: see 'a world state ahead of the log').
    (ledger as unknown as { appliedHeight: number }).appliedHeight = 0;
    await assert.rejects(
      ledger.commit(executed, certify(2, executed.hash)),
      isAssertion(/applying block 2 after 0/),
    );
    // The block was durable before the state took it: a restart replays it into the state.
    const reopened = await openMemoryLedger(disk);
    assert.equal(reopened.ledger.height(), 2);
    assert.equal(reopened.report.replayedBlocks, 1);
    assert.equal(reopened.ledger.locate(transactionHash(tx))?.height, 2);
  });

  it('a world state ahead of the log stops the commit before the block is appended', async () => {
    const disk = newDisk();
    const { ledger } = await openMemoryLedger(disk);
    await commitGenesis(ledger);
    const tx = logTx(9);
    const executed = ledger.execute({
      view: 0,
      creationTimeMs: now,
      transactions: [tx],
      hashes: [transactionHash(tx)],
    });
    // Planted: the ledger believes the world state already took a block the log does not hold.
    (ledger as unknown as { appliedHeight: number }).appliedHeight = 5;
    await assert.rejects(
      ledger.commit(executed, certify(2, executed.hash)),
      isAssertion(/log at 1 behind the state at 5/),
    );
    // Nothing was written: a restart finds the log at genesis.
    const reopened = await openMemoryLedger(disk);
    assert.equal(reopened.ledger.height(), 1);
  });

  it('a transaction already indexed by a pending block stops the commit before the state moves', async () => {
    const ledger = await genesisLedger();
    const tx = logTx(10);
    const hash = transactionHash(tx);
    const executed = ledger.execute({ view: 0, creationTimeMs: now, transactions: [tx], hashes: [hash] });
    const root = ledger.state.stateRoot();
    // Planted: the index believes an earlier block (whose state write is pending) already holds it.
    const pending = (ledger as unknown as { pendingIndex: Map<string, unknown> }).pendingIndex;
    pending.set(executed.hashHexes[0]!, { height: 1, index: 5 });
    await assert.rejects(ledger.commit(executed, certify(2, executed.hash)), isAssertion(/indexed twice/));
    // The visible state is still genesis's.
    assert.deepEqual(ledger.state.stateRoot(), root);
  });

  it('a commit that leaves the visible state at another root than the header stops', async () => {
    const ledger = await genesisLedger();
    const write = {
      kind: 'SetKeyValue',
      target: { kind: 'Account', id: admin.id },
      key: 'planted',
      value: '1',
    } as const;
    const tx = buildTx(admin, [write], { chainId: MEMORY_CHAIN_ID, creationTimeMs: now, nonce: 8 });
    const executed = ledger.execute({
      view: 0,
      creationTimeMs: now,
      transactions: [tx],
      hashes: [transactionHash(tx)],
    });
    // Planted: the scratch view is never merged into the visible state.
    executed.execution.commit = () => {};
    await assert.rejects(
      ledger.commit(executed, certify(2, executed.hash)),
      isAssertion(/state root after applying block 2/),
    );
    assert.equal(ledger.locate(transactionHash(tx)), undefined);
  });

  it('an index entry for an id holding the prefix terminator is refused', () => {
    const tx = logTx(7);
    const planted = { ...tx, payload: { ...tx.payload, authority: 'a\u0000b@x' } };
    const block = {
      header: { height: 2, creationTimeMs: now },
      transactions: [planted],
      results: [{ kind: 'Committed' }],
    } as unknown as Block;
    assert.throws(() => pushIndexChanges(block, [transactionHash(tx)], []), isAssertion(/an id with a NUL/));
  });
});
