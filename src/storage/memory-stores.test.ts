// The in-memory stores hold the same contract as the disk ones (the same scenarios run against both),
// and their fault model: a refused write, and a crash that drops what was not yet durable.

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { GENESIS_PREV_HASH, makeChain } from '../../test/fixtures/storage/chain-fixture.js';
import { BlockLog } from './block-log.js';
import type { BlockStore, StateBackend } from './block-store.js';
import { StorageError } from './errors.js';
import { MemoryBlockMedium, MemoryBlockStore } from './memory-block-store.js';
import { MemoryStateBackend, MemoryStateMedium } from './memory-state-backend.js';
import { StateStore } from './state-store.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'torana-memstore-'));
  dirs.push(dir);
  return dir;
}
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));
const hash = (n: number) => new Uint8Array(32).fill(n);
const code = (e: unknown) => (e instanceof StorageError ? e.code : String(e));

async function collect(it: AsyncIterable<{ height: number }>): Promise<number[]> {
  const out: number[] = [];
  for await (const r of it) out.push(r.height);
  return out;
}

/** One scenario of the BlockStore contract; `reopen` closes and opens the same store again. */
async function blockStoreScenario(open: () => Promise<BlockStore>): Promise<void> {
  let store = await open();
  assert.equal(store.height, 0);
  assert.equal(store.tipHash, undefined);
  const chain = makeChain(0, GENESIS_PREV_HASH, 5);
  await store.append(chain.slice(0, 2));
  await store.append(chain.slice(2));
  assert.equal(store.height, 5);
  assert.deepEqual(store.tipHash, chain[4]!.hash);
  assert.deepEqual((await store.read(3))?.bytes, chain[2]!.bytes);
  assert.deepEqual(store.readSync(5)?.hash, chain[4]!.hash);
  assert.equal(await store.read(6), undefined);
  assert.equal(store.readSync(0), undefined);
  assert.deepEqual(await collect(store.iterate(2, 4)), [2, 3, 4]);
  assert.deepEqual(await collect(store.iterate(4)), [4, 5]);
  // A gap, and a broken chain, are refused with nothing written.
  const next = makeChain(5, chain[4]!.hash, 2);
  await assert.rejects(store.append([next[1]!]), (e) => code(e) === 'storage_invalid_append');
  await assert.rejects(
    store.append([{ ...next[0]!, prevHash: hash(9) }]),
    (e) => code(e) === 'storage_invalid_append',
  );
  assert.equal(store.height, 5);
  await store.close();
  await store.close();
  assert.throws(
    () => store.readSync(1),
    (e) => code(e) === 'storage_closed',
  );
  store = await open();
  assert.equal(store.height, 5);
  assert.deepEqual(store.tipHash, chain[4]!.hash);
  await store.append(next);
  assert.deepEqual(await collect(store.iterate(1)), [1, 2, 3, 4, 5, 6, 7]);
  await store.close();
}

async function stateScenario(open: () => Promise<StateBackend>): Promise<void> {
  let s = await open();
  assert.equal(s.appliedHeight(), 0);
  await s.commit(1, hash(1), [
    { key: 'b/2', value: enc('x') },
    { key: 'a', value: enc('1') },
    { key: enc('b/1'), value: enc('y') },
    { key: 'c', value: enc('gone') },
  ]);
  await s.commit(2, hash(2), [
    { key: 'c', value: undefined },
    { key: 'a', value: enc('2') },
    { key: 'a', value: enc('3') },
  ]);
  await assert.rejects(s.commit(4, hash(4), []), (e) => code(e) === 'storage_invalid_height');
  await s.close();
  s = await open();
  assert.equal(s.appliedHeight(), 2);
  assert.deepEqual(s.appliedBlockHash(), hash(2));
  assert.equal(dec(s.get('a')), '3', 'the later change to a key wins');
  assert.equal(s.get('c'), undefined);
  const scanned = [...s.entries('b/')].map((e) => `${dec(e.key)}=${dec(e.value)}`);
  assert.deepEqual(scanned, ['b/1=y', 'b/2=x']);
  assert.deepEqual(
    [...s.entries()].map((e) => dec(e.key)),
    ['a', 'b/1', 'b/2'],
  );
  // Ranges [start, end) both ways: a key equal to start is in, one equal to end is out.
  const range = (start: string, end: string, reverse: boolean) =>
    [...s.range!(enc(start), enc(end), reverse)].map((e) => `${dec(e.key)}=${dec(e.value)}`);
  assert.deepEqual(range('a', 'b/2', false), ['a=3', 'b/1=y']);
  assert.deepEqual(range('a', 'b/2', true), ['b/1=y', 'a=3']);
  assert.deepEqual(range('a0', 'z', true), ['b/2=x', 'b/1=y']);
  assert.deepEqual(range('b/1', 'b/2\u0000', true), ['b/2=x', 'b/1=y']);
  assert.deepEqual(range('', 'a', true), []);
  assert.deepEqual(range('b', 'a', false), []);
  assert.throws(
    () => s.get('k'.repeat(5000)),
    (e) => code(e) === 'storage_invalid_key',
  );
  await s.close();
}

describe('memory stores behave like the disk ones', () => {
  it('BlockStore contract: BlockLog on disk', async () => {
    const dir = await tempDir();
    await blockStoreScenario(async () => (await BlockLog.open(dir, { fsync: false })).log);
  });

  it('BlockStore contract: MemoryBlockStore', async () => {
    const medium = new MemoryBlockMedium();
    await blockStoreScenario(async () => MemoryBlockStore.open(medium).store);
  });

  it('StateBackend contract: StateStore on disk', async () => {
    const dir = await tempDir();
    await stateScenario(() => StateStore.open(dir, { fsync: false }));
  });

  it('StateBackend contract: MemoryStateBackend', async () => {
    const medium = new MemoryStateMedium();
    await stateScenario(async () => MemoryStateBackend.open(medium));
  });

  it('a record read from memory is a copy: changing it changes nothing stored', async () => {
    const { store } = MemoryBlockStore.open();
    const [r] = makeChain(0, GENESIS_PREV_HASH, 1);
    await store.append([r!]);
    r!.bytes.fill(0xee);
    const read = store.readSync(1)!;
    assert.notDeepEqual(read.bytes, r!.bytes);
    read.hash.fill(0);
    assert.notDeepEqual(store.tipHash, read.hash);
  });
});

describe('memory stores: faults', () => {
  it('a refused block write fails with storage_failed, and the store refuses until reopened', async () => {
    const medium = new MemoryBlockMedium();
    let refuse = true;
    const faults = { failWrite: () => (refuse ? 'disk full' : undefined) };
    const { store } = MemoryBlockStore.open(medium, { faults });
    const chain = makeChain(0, GENESIS_PREV_HASH, 2);
    await assert.rejects(store.append([chain[0]!]), (e) => code(e) === 'storage_failed');
    refuse = false;
    await assert.rejects(store.append([chain[0]!]), (e) => code(e) === 'storage_failed');
    assert.equal(store.height, 0);
    const again = MemoryBlockStore.open(medium, { faults }).store;
    await again.append(chain);
    assert.equal(again.height, 2);
  });

  it('a crash drops block and state writes waiting for their sync; durable ones survive', async () => {
    const blocks = new MemoryBlockMedium();
    const state = new MemoryStateMedium();
    const waiting: (() => void)[] = [];
    let hold = false;
    const faults = {
      sync: () => (hold ? new Promise<void>((r) => waiting.push(r)) : Promise.resolve()),
    };
    const store = MemoryBlockStore.open(blocks, { faults }).store;
    const backend = MemoryStateBackend.open(state, { faults });
    const chain = makeChain(0, GENESIS_PREV_HASH, 2);
    await store.append([chain[0]!]);
    await backend.commit(1, hash(1), [{ key: 'a', value: enc('1') }]);
    hold = true;
    const lostBlock = store.append([chain[1]!]);
    const lostState = backend.commit(2, hash(2), [{ key: 'a', value: enc('2') }]);
    await new Promise((r) => setImmediate(r));
    assert.equal(waiting.length, 2, 'both writes wait for their sync');
    assert.equal(store.height, 1, 'an unsynced block is not visible');
    blocks.crash();
    state.crash();
    for (const w of waiting) w();
    await assert.rejects(lostBlock, (e) => code(e) === 'storage_failed');
    await assert.rejects(lostState, (e) => code(e) === 'storage_failed');
    assert.equal(blocks.droppedWrites + state.droppedWrites, 2);
    assert.throws(
      () => store.readSync(1),
      (e) => code(e) === 'storage_closed',
    );
    hold = false;
    const reopened = MemoryBlockStore.open(blocks).store;
    assert.equal(reopened.height, 1);
    const backend2 = MemoryStateBackend.open(state);
    assert.equal(backend2.appliedHeight(), 1);
    assert.equal(dec(backend2.get('a')), '1');
  });
});
