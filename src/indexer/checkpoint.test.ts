import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  commitGenesis,
  genesisTransaction,
  MEMORY_CHAIN_ID,
  newDisk,
  openMemoryLedger,
  validatorSet,
} from '../../test/helpers/memory-chain.js';
import type { Block } from '../model/block.js';
import { transactionHash } from '../model/transaction.js';
import { encodeState, loadCheckpoint } from './checkpoint.js';
import { IndexerError } from './errors.js';
import { ChainFollower } from './follower.js';

const follower = (start?: ConstructorParameters<typeof ChainFollower>[0]['start']) =>
  new ChainFollower({
    chainId: MEMORY_CHAIN_ID,
    genesisSet: validatorSet,
    genesisTransactionHash: transactionHash(genesisTransaction()),
    ...(start === undefined ? {} : { start }),
  });

const invalid = (why: RegExp) => (e: unknown) =>
  e instanceof IndexerError && e.code === 'index_checkpoint_invalid' && why.test(e.message);

describe('state checkpoint', () => {
  let block: Block;
  let f: ChainFollower;
  let hash: Uint8Array;
  before(async () => {
    const { ledger } = await openMemoryLedger(newDisk());
    await commitGenesis(ledger);
    block = (await ledger.block(1))!;
    await ledger.close();
    f = follower();
    const v = f.verify(block);
    v.commit();
    hash = v.hash;
  });

  it('loads back to the same state, checked against the indexed block’s state root', () => {
    const saved = { height: 1, blockHash: hash, state: encodeState(f.state) };
    assert.ok(saved.state.length > 0);
    const state = loadCheckpoint(saved, { hash, stateRoot: block.header.stateRoot });
    assert.deepEqual(state.stateRoot(), f.state.stateRoot());
    assert.deepEqual([...state.entries()], [...f.state.entries()]);
    assert.equal(state.version, 1);
    // A follower started from it is at height 1: the next block it takes is 2.
    const resumed = follower({ state, height: 1, hash });
    assert.equal(resumed.height, 1);
    assert.throws(() => resumed.verify(block), /the source sent height 1/);
  });

  it('refuses a checkpoint of another block, with another root, or cut short', () => {
    const state = encodeState(f.state);
    const indexed = { hash, stateRoot: block.header.stateRoot };
    const other = new Uint8Array(32).fill(7);
    assert.throws(
      () => loadCheckpoint({ height: 1, blockHash: other, state }, indexed),
      invalid(/is of block/),
    );
    assert.throws(
      () => loadCheckpoint({ height: 1, blockHash: hash, state }, undefined),
      invalid(/no indexed/),
    );
    // One value byte changed (the last byte: inside the last value): the root differs or it fails to decode.
    const changed = Buffer.from(state);
    changed[changed.length - 1]! ^= 1;
    assert.throws(
      () => loadCheckpoint({ height: 1, blockHash: hash, state: changed }, indexed),
      invalid(/./),
    );
    // A whole pair dropped: it decodes, and its root is not the header's.
    const first = 8 + state.readUInt32LE(0) + state.readUInt32LE(4 + state.readUInt32LE(0));
    assert.throws(
      () => loadCheckpoint({ height: 1, blockHash: hash, state: state.subarray(first) }, indexed),
      invalid(/state root .* is not the root/),
    );
    assert.throws(
      () =>
        loadCheckpoint({ height: 1, blockHash: hash, state: state.subarray(0, state.length - 3) }, indexed),
      invalid(/past the end|truncated/),
    );
  });
});
