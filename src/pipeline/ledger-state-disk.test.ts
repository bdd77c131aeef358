// The world state kept in the state store (LMDB) by a ledger on disk: rows and index entries stay on
// disk, the heap holds at most `stateRowCacheRows` decoded rows, through a full holder query and a
// restart; blocks hash exactly as over the heap state of a memory ledger; a store written before the
// index range existed is loaded into the heap once and gets the range with its next block.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { open as openLmdb } from 'lmdb';
import {
  commitAdminBlock,
  commitGenesis,
  MEMORY_CHAIN_ID,
  newDisk,
  openMemoryLedger,
} from '../../test/helpers/memory-chain.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import type { Instruction } from '../model/instructions.js';
import { CursorStore } from '../state/cursors.js';
import { executeQuery } from '../state/query.js';
import { childCountKey, STATE_INDEX_META_KEY, STATE_INDEX_PREFIX } from '../state/state-index-keys.js';
import { TABLES } from '../state/tables.js';
import type { WorldState } from '../state/world-state.js';
import { Ledger } from './ledger.js';

const CACHE_ROWS = 32;
const ACCOUNTS = 300;
const DEFINITION = 'coin#scale';

function options(dir: string) {
  return {
    dir,
    chainId: MEMORY_CHAIN_ID,
    decodeLimits: DEFAULT_DECODE_LIMITS,
    fsync: false,
    segmentBytesMax: 1 << 20,
    lmdbMapBytes: 64 << 20,
    stateRowCacheRows: CACHE_ROWS,
  };
}

function accountId(i: number): string {
  return `ed0120${createHash('sha256').update(`disk-state-${i}`).digest('hex').toUpperCase()}@scale`;
}

function accounts(from: number, to: number): Instruction[] {
  const out: Instruction[] = [];
  const empty = new Map();
  for (let i = from; i < to; i++) {
    out.push({ kind: 'RegisterAccount', id: accountId(i), metadata: empty });
    out.push({
      kind: 'MintAsset',
      asset: `${DEFINITION}#${accountId(i)}`,
      amount: { mantissa: BigInt(i + 1), scale: 0 },
    });
  }
  return out;
}

const empty = new Map();
/** The blocks after genesis: the domain and definition, then the accounts, 150 per block. */
const BLOCKS: Instruction[][] = [
  [
    { kind: 'RegisterDomain', id: 'scale', metadata: empty },
    {
      kind: 'RegisterAssetDefinition',
      id: DEFINITION,
      scale: 0,
      mintable: { kind: 'Infinitely' },
      metadata: empty,
    },
  ],
  accounts(0, 150),
  accounts(150, ACCOUNTS),
];

function assertCacheBound(ledger: Ledger, when: string): void {
  const { rows, max } = ledger.state.rowCache();
  assert.equal(max, CACHE_ROWS);
  assert.ok(rows <= CACHE_ROWS, `${when}: ${rows} rows cached of ${CACHE_ROWS}`);
}

async function removeIndexRange(dir: string): Promise<number> {
  const db = openLmdb<Uint8Array, Uint8Array>({
    path: join(dir, 'state'),
    keyEncoding: 'binary',
    encoding: 'binary',
    compression: false,
    cache: false,
  });
  try {
    const range = {
      start: Uint8Array.of(0x01, STATE_INDEX_PREFIX),
      end: Uint8Array.of(0x01, STATE_INDEX_PREFIX + 1),
    };
    const keys = [...db.getKeys(range)].map((k) => new Uint8Array(k));
    db.transactionSync(() => {
      for (const k of keys) db.removeSync(k);
    });
    return keys.length;
  } finally {
    await db.close();
  }
}

/** Turns a store into one of format 1: no ordered holder index, the bookkeeping's first byte 1. */
async function makeFormat1(dir: string): Promise<number> {
  const db = openLmdb<Uint8Array, Uint8Array>({
    path: join(dir, 'state'),
    keyEncoding: 'binary',
    encoding: 'binary',
    compression: false,
    cache: false,
  });
  try {
    const prefix = new Uint8Array([0x01, STATE_INDEX_PREFIX, 0x04, ...Buffer.from('holdersByValue'), 0]);
    const end = prefix.slice();
    end[end.length - 1] = 1;
    const keys = [...db.getKeys({ start: prefix, end })].map((k) => new Uint8Array(k));
    const metaKey = Uint8Array.of(0x01, ...STATE_INDEX_META_KEY);
    const meta = new Uint8Array(db.get(metaKey)!);
    meta[0] = 1;
    db.transactionSync(() => {
      for (const k of keys) db.removeSync(k);
      db.putSync(metaKey, meta);
    });
    return keys.length;
  } finally {
    await db.close();
  }
}

/** Turns a store into one of format 2: no holder counts, the bookkeeping's first byte 2. */
async function makeFormat2(dir: string): Promise<void> {
  const db = openLmdb<Uint8Array, Uint8Array>({
    path: join(dir, 'state'),
    keyEncoding: 'binary',
    encoding: 'binary',
    compression: false,
    cache: false,
  });
  try {
    const countKey = Uint8Array.of(
      0x01,
      ...childCountKey(TABLES.asset.tag, 'assetsByDefinition', DEFINITION),
    );
    assert.ok(db.get(countKey) !== undefined, 'the holder count was in the store');
    const metaKey = Uint8Array.of(0x01, ...STATE_INDEX_META_KEY);
    const meta = new Uint8Array(db.get(metaKey)!);
    meta[0] = 2;
    db.transactionSync(() => {
      db.removeSync(countKey);
      db.putSync(metaKey, meta);
    });
  } finally {
    await db.close();
  }
}

/**
 * Blocks of random balance moves over the accounts of BLOCKS (balances i + 1): whole-balance transfers
 * to new accounts (a holder emptied, one created), partial transfers, whole burns (a holder emptied),
 * mints to emptied accounts (a holder back).
 */
function randomMoves(blocks: number, seed: number): Instruction[][] {
  const balance = new Map<number, bigint>();
  for (let i = 0; i < ACCOUNTS; i++) balance.set(i, BigInt(i + 1));
  let x = seed;
  const random = (n: number) => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x % n;
  };
  const asset = (i: number) => `${DEFINITION}#${accountId(i)}`;
  let next = ACCOUNTS + 100;
  const out: Instruction[][] = [];
  for (let b = 0; b < blocks; b++) {
    const block: Instruction[] = [];
    const touched = new Set<number>();
    for (let n = 0; n < 12; n++) {
      const i = random(ACCOUNTS);
      if (touched.has(i)) continue;
      touched.add(i);
      const held = balance.get(i) ?? 0n;
      const op = random(4);
      if (held === 0n) {
        block.push({ kind: 'MintAsset', asset: asset(i), amount: { mantissa: 5n, scale: 0 } });
        balance.set(i, 5n);
      } else if (op === 0) {
        const to = next++;
        block.push({ kind: 'RegisterAccount', id: accountId(to), metadata: empty });
        block.push({
          kind: 'TransferAsset',
          source: asset(i),
          destination: accountId(to),
          amount: { mantissa: held, scale: 0 },
        });
        balance.set(i, 0n);
      } else if (op === 1) {
        block.push({ kind: 'BurnAsset', asset: asset(i), amount: { mantissa: held, scale: 0 } });
        balance.set(i, 0n);
      } else {
        const to = random(ACCOUNTS);
        if (to === i || touched.has(to)) continue;
        touched.add(to);
        const amount = held === 1n ? 1n : held / 2n;
        block.push({
          kind: 'TransferAsset',
          source: asset(i),
          destination: accountId(to),
          amount: { mantissa: amount, scale: 0 },
        });
        balance.set(i, held - amount);
        balance.set(to, (balance.get(to) ?? 0n) + amount);
      }
    }
    out.push(block);
  }
  return out;
}

/** Holder pages of DEFINITION sorted by value (ids and values), through the query engine. */
async function holderPages(state: WorldState): Promise<string[][]> {
  const cases = [
    { sort: 'value:desc', limit: 10 },
    { sort: 'value:asc', offset: 5, limit: 20 },
    { sort: 'value:desc', limit: 15, filter: { and: [{ gte: ['value', '40'] }, { lt: ['value', '120'] }] } },
  ];
  const out: string[][] = [];
  for (const params of cases) {
    const r = await executeQuery(
      state,
      {
        kind: 'Start',
        query: { kind: 'FindHoldersOfDefinition', definition: DEFINITION },
        params: { offset: 0, fetchSize: 100, ...params },
      },
      'reader',
      { cursors: new CursorStore({ capacity: 4, idleExpiryMs: 60_000, now: () => 0 }) },
    );
    assert.ok(!('code' in r) && r.kind === 'Iterable', JSON.stringify(params));
    out.push(
      r.batch.map(
        (o) =>
          `${(o.value as { id: string }).id}=${JSON.stringify(String((o.value as { value: { mantissa: bigint } }).value.mantissa))}`,
      ),
    );
  }
  return out;
}

/** Counts the ordered index walks of `state` (the holder query reading the index, not scanning). */
function countWalks(state: WorldState): { walks: number } {
  const seen = { walks: 0 };
  const walk = state.orderedChildren.bind(state);
  state.orderedChildren = (...args) => {
    const steps = walk(...args);
    if (steps !== undefined) seen.walks++;
    return steps;
  };
  return seen;
}

describe('the world state on disk', () => {
  it('keeps at most its cached rows in the heap through a holder query and a restart, and hashes as the heap state', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'torana-state-disk-'));
    try {
      const { ledger } = await Ledger.open(options(dir));
      const memory = (await openMemoryLedger(newDisk())).ledger;
      assert.ok(ledger.state.onDisk, 'a ledger on disk keeps its rows in the state store');
      assert.ok(!memory.state.onDisk);
      await commitGenesis(ledger);
      await commitGenesis(memory);
      for (const b of BLOCKS)
        assert.deepEqual(await commitAdminBlock(ledger, b), await commitAdminBlock(memory, b));
      // Read while the last blocks' rows may still be on their way to the store, then once durable.
      const holders = memory.state.holdersOfDefinition(DEFINITION);
      assert.equal(holders.length, ACCOUNTS);
      assert.deepEqual(ledger.state.holdersOfDefinition(DEFINITION), holders);
      await ledger.flushState();
      assert.deepEqual(ledger.state.holdersOfDefinition(DEFINITION), holders);
      assertCacheBound(ledger, 'after a full holder query');
      assert.equal(ledger.state.rowCache().rows, CACHE_ROWS, 'the query filled the cache, no further');
      assert.equal(ledger.state.accountCount(), memory.state.accountCount());
      await ledger.close();

      const { ledger: again } = await Ledger.open(options(dir));
      assert.ok(again.state.onDisk);
      assertCacheBound(again, 'after a restart');
      assert.deepEqual(again.state.stateRoot(), memory.state.stateRoot());
      assert.deepEqual(again.state.legacyStateRoot(), memory.state.legacyStateRoot());
      assert.equal(again.state.accountCount(), ACCOUNTS + 1, 'counted from the stored count');
      assert.deepEqual(again.state.holdersOfDefinition(DEFINITION), holders);
      assertCacheBound(again, 'after a holder query on the restarted ledger');
      assert.deepEqual(again.state.assetsOfAccount(accountId(7)), memory.state.assetsOfAccount(accountId(7)));
      assert.deepEqual(again.state.sortedIds('account'), memory.state.sortedIds('account'));
      // A block on the reopened state: the new holder is seen before and after its rows are durable.
      const more = accounts(ACCOUNTS, ACCOUNTS + 1);
      assert.deepEqual(await commitAdminBlock(again, more), await commitAdminBlock(memory, more));
      assert.equal(again.state.holdersOfDefinition(DEFINITION).length, ACCOUNTS + 1);
      await again.flushState();
      assert.deepEqual(
        again.state.holdersOfDefinition(DEFINITION),
        memory.state.holdersOfDefinition(DEFINITION),
      );
      assertCacheBound(again, 'after another block');
      await again.close();
      await memory.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('loads a store without the index range into the heap once, and writes the range with the next block', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'torana-state-disk-'));
    try {
      const { ledger } = await Ledger.open(options(dir));
      await commitGenesis(ledger);
      for (const b of BLOCKS.slice(0, 2)) await commitAdminBlock(ledger, b);
      await ledger.flushState();
      const holders = ledger.state.holdersOfDefinition(DEFINITION);
      await ledger.close();
      assert.ok((await removeIndexRange(dir)) > 150, 'the index entries were in the store');

      const { ledger: heap } = await Ledger.open(options(dir));
      assert.ok(!heap.state.onDisk, 'no index range: loaded into the heap');
      assert.deepEqual(heap.state.holdersOfDefinition(DEFINITION), holders);
      await commitAdminBlock(heap, BLOCKS[2]!);
      await heap.flushState();
      const all = heap.state.holdersOfDefinition(DEFINITION);
      await heap.close();

      const { ledger: disk } = await Ledger.open(options(dir));
      assert.ok(disk.state.onDisk, 'the next start reads the range the block wrote');
      assert.deepEqual(disk.state.holdersOfDefinition(DEFINITION), all);
      assert.equal(disk.state.accountCount(), ACCOUNTS + 1);
      await disk.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('answers holder queries sorted by value from the ordered index, rebuilt at open for a store without it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'torana-state-disk-'));
    try {
      const { ledger } = await Ledger.open(options(dir));
      const memory = (await openMemoryLedger(newDisk())).ledger;
      await commitGenesis(ledger);
      await commitGenesis(memory);
      // Balances 1..300, then some move (a top holder appears, ties at 100), not yet durable when read.
      const moves: Instruction[] = [7, 8, 9, 250].map((i) => ({
        kind: 'MintAsset',
        asset: `${DEFINITION}#${accountId(i)}`,
        amount: { mantissa: i === 250 ? 1000n : BigInt(99 - i), scale: 0 },
      }));
      for (const b of [...BLOCKS, moves])
        assert.deepEqual(await commitAdminBlock(ledger, b), await commitAdminBlock(memory, b));
      const want = await holderPages(memory.state);
      assert.ok(want[0]![0]!.endsWith('="1251"'), want[0]![0]);
      const walks = countWalks(ledger.state);
      assert.deepEqual(await holderPages(ledger.state), want);
      await ledger.flushState();
      assert.deepEqual(await holderPages(ledger.state), want);
      assert.ok(walks.walks >= 6, `the index answered (${walks.walks} walks)`);
      await ledger.close();

      // A store written before the ordered index: loaded into the heap once, the index written with
      // the next block, read at the next start.
      assert.ok((await makeFormat1(dir)) >= ACCOUNTS, 'the ordered entries were in the store');
      const { ledger: heap } = await Ledger.open(options(dir));
      assert.ok(!heap.state.onDisk, 'a store of format 1 is loaded into the heap');
      assert.deepEqual(await holderPages(heap.state), want);
      const more = accounts(ACCOUNTS, ACCOUNTS + 1);
      assert.deepEqual(await commitAdminBlock(heap, more), await commitAdminBlock(memory, more));
      await heap.flushState();
      await heap.close();
      const { ledger: disk } = await Ledger.open(options(dir));
      assert.ok(disk.state.onDisk, 'the next start reads the rebuilt index');
      const rebuilt = countWalks(disk.state);
      assert.deepEqual(await holderPages(disk.state), await holderPages(memory.state));
      assert.ok(rebuilt.walks >= 3, `the rebuilt index answered (${rebuilt.walks} walks)`);
      await disk.close();
      await memory.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps the holder count equal to the holders through random moves, and upgrades a format-2 store', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'torana-state-disk-'));
    try {
      const { ledger } = await Ledger.open(options(dir));
      const memory = (await openMemoryLedger(newDisk())).ledger;
      await commitGenesis(ledger);
      await commitGenesis(memory);
      const counts = new Set<number>();
      for (const [n, b] of [...BLOCKS, ...randomMoves(30, 11)].entries()) {
        // The same block hashes (and state roots) on disk as in the heap: the count is not state.
        assert.deepEqual(await commitAdminBlock(ledger, b), await commitAdminBlock(memory, b), `block ${n}`);
        const holders = memory.state.holdersOfDefinition(DEFINITION).length;
        assert.equal(ledger.state.holderCount(DEFINITION), holders, `block ${n}: pending`);
        if (n % 4 === 0) {
          await ledger.flushState();
          assert.equal(ledger.state.holderCount(DEFINITION), holders, `block ${n}: durable`);
        }
        counts.add(holders);
      }
      assert.ok(counts.size > 5, 'the count moved both ways');
      await ledger.flushState();
      const holders = memory.state.holdersOfDefinition(DEFINITION).length;
      assert.equal(ledger.state.holderCount(DEFINITION), holders);
      await ledger.close();

      // A store of format 2 (no holder counts): loaded into the heap once, the counts written with the
      // next block, read from the store at the next start.
      await makeFormat2(dir);
      const { ledger: heap } = await Ledger.open(options(dir));
      assert.ok(!heap.state.onDisk, 'a store of format 2 is loaded into the heap');
      assert.equal(heap.state.holderCount(DEFINITION), holders);
      const more = accounts(ACCOUNTS + 1000, ACCOUNTS + 1003);
      assert.deepEqual(await commitAdminBlock(heap, more), await commitAdminBlock(memory, more));
      await heap.flushState();
      await heap.close();
      const { ledger: disk } = await Ledger.open(options(dir));
      assert.ok(disk.state.onDisk, 'the next start reads the store');
      assert.equal(disk.state.holderCount(DEFINITION), holders + 3);
      assert.equal(disk.state.holderCount(DEFINITION), memory.state.holdersOfDefinition(DEFINITION).length);
      await disk.close();
      await memory.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
