// The state tree through the ledger and a real state store (LMDB): persisted with each block's rows,
// reopened without a rebuild, built once over a store written before the tree existed, rebuilt when the
// stored tree is damaged, and a store whose rows do not give the header's root refused.

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { open as openLmdb } from 'lmdb';
import { certify, commitGenesis, GENESIS_TIME_MS, MEMORY_CHAIN_ID } from '../../test/helpers/memory-chain.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { stateRootVersion } from '../state/merkle/hash.js';
import { STATE_TREE_PREFIX } from '../state/merkle/nodes.js';
import { verifyStateProof } from '../state/merkle/proof.js';
import { Ledger, LedgerError } from './ledger.js';

function options(dir: string) {
  return {
    dir,
    chainId: MEMORY_CHAIN_ID,
    decodeLimits: DEFAULT_DECODE_LIMITS,
    fsync: false,
    segmentBytesMax: 1 << 20,
    lmdbMapBytes: 64 << 20,
    stateTreeVersionsKept: 4,
  };
}

async function emptyBlock(ledger: Ledger, n: number): Promise<void> {
  const executed = ledger.execute({
    view: 0,
    creationTimeMs: GENESIS_TIME_MS + n * 1000,
    transactions: [],
    hashes: [],
  });
  await ledger.commit(executed, certify(executed.header.height, executed.hash));
}

/** The raw LMDB of the state store: user keys are stored behind the 0x01 key-space byte. */
async function withRawState<T>(
  dir: string,
  f: (db: ReturnType<typeof openLmdb<Uint8Array, Uint8Array>>) => T,
): Promise<T> {
  const db = openLmdb<Uint8Array, Uint8Array>({
    path: join(dir, 'state'),
    keyEncoding: 'binary',
    encoding: 'binary',
    compression: false,
    cache: false,
  });
  try {
    return f(db);
  } finally {
    await db.close();
  }
}

function treeKeys(dir: string): Promise<Uint8Array[]> {
  return withRawState(dir, (db) =>
    [
      ...db.getKeys({
        start: Uint8Array.of(0x01, STATE_TREE_PREFIX),
        end: Uint8Array.of(0x01, STATE_TREE_PREFIX + 1),
      }),
    ].map((k) => new Uint8Array(k)),
  );
}

function removeKeys(dir: string, keys: Uint8Array[]): Promise<void> {
  return withRawState(dir, (db) => {
    for (const k of keys) db.removeSync(k);
  });
}

describe('the state tree in the ledger', () => {
  it('is written with each block, proves reads against the header, and reopens without a rebuild', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'torana-state-tree-'));
    try {
      const { ledger } = await Ledger.open(options(dir));
      await commitGenesis(ledger);
      for (let n = 1; n <= 8; n++) await emptyBlock(ledger, n);
      await ledger.flushState();
      const header = ledger.blockSync(ledger.height())!.header;
      assert.equal(stateRootVersion(header.stateRoot), 2);
      assert.deepEqual(ledger.state.stateRoot(), header.stateRoot);
      assert.equal(ledger.state.tree.pendingCount(), 0);
      // A row of the state (the genesis domain's meta row and every account) proves against the header.
      const entries = [...ledger.state.entries()];
      assert.ok(entries.length > 3);
      for (const { key, value } of entries)
        assert.ok(verifyStateProof(header.stateRoot, key, value, ledger.state.tree.prove(key)));
      const absent = Uint8Array.of(0x02, 0x7a, 0x7a);
      assert.ok(verifyStateProof(header.stateRoot, absent, undefined, ledger.state.tree.prove(absent)));
      await ledger.close();
      assert.ok((await treeKeys(dir)).length > entries.length, 'the tree is in the state store');

      const { ledger: again, report } = await Ledger.open(options(dir));
      assert.equal(report.replayedBlocks, 0);
      // Opened from the store: nothing built, nothing waiting to be written.
      assert.equal(again.state.tree.pendingCount(), 0);
      assert.equal(again.state.tree.version, 9);
      assert.deepEqual(again.state.stateRoot(), header.stateRoot);
      // Proofs at a recent, kept height still verify against that height's header.
      const older = again.blockSync(7)!.header;
      const [first] = entries;
      assert.ok(
        verifyStateProof(older.stateRoot, first!.key, first!.value, again.state.tree.prove(first!.key, 7)),
      );
      await again.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('builds the tree once over a store without one, and again over a damaged one; refuses rows that do not give the root', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'torana-state-tree-'));
    try {
      const { ledger } = await Ledger.open(options(dir));
      await commitGenesis(ledger);
      await emptyBlock(ledger, 1);
      await ledger.flushState();
      const root = ledger.state.stateRoot();
      await ledger.close();

      // A store written before the state tree existed: no 0xFA range at all.
      await removeKeys(dir, await treeKeys(dir));
      assert.equal((await treeKeys(dir)).length, 0);
      const { ledger: built } = await Ledger.open(options(dir));
      assert.deepEqual(built.state.stateRoot(), root);
      assert.equal(built.state.tree.pendingCount(), 1, 'built at open, written with the next block');
      await emptyBlock(built, 2);
      await built.flushState();
      await built.close();
      assert.ok((await treeKeys(dir)).length > 0);
      const { ledger: reopened } = await Ledger.open(options(dir));
      assert.equal(reopened.state.tree.pendingCount(), 0, 'the built tree was persisted');
      await reopened.close();

      // A damaged tree (a byte of its root record's hash flipped): built again from the rows.
      const roots = (await treeKeys(dir)).filter((k) => k[2] === 0x72);
      assert.ok(roots.length >= 2);
      await withRawState(dir, (db) => {
        const ref = new Uint8Array(db.get(roots[roots.length - 1]!)!);
        ref[ref.length - 2]! ^= 0x10;
        db.putSync(roots[roots.length - 1]!, ref);
      });
      const { ledger: repaired } = await Ledger.open(options(dir));
      assert.equal(repaired.state.tree.pendingCount(), 1);
      await repaired.close();

      // Rows that do not give the header's root (a row gone): refused.
      await withRawState(dir, (db) => {
        const meta = [
          ...db.getKeys({ start: Uint8Array.of(0x01, 0x02), end: Uint8Array.of(0x01, 0x03) }),
        ][0]!;
        db.transactionSync(() => db.removeSync(meta));
      });
      const err = await Ledger.open(options(dir)).then(
        () => assert.fail('opened over rows that do not give the root'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof LedgerError, String(err));
      assert.equal(err.code, 'ledger_state_root_mismatch');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
