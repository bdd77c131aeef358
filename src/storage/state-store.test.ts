import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { recordingFailPoints } from '../util/failpoints.js';
import { StorageError } from './errors.js';
import { RowPack } from './row-pack.js';
import { STATE_KEY_BYTES_MAX, StateStore } from './state-store.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'torana-state-'));
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

describe('StateStore', () => {
  it('commits, reopens at the applied height, deletes', async () => {
    const dir = await tempDir();
    const store = await StateStore.open(dir, { fsync: true });
    assert.equal(store.appliedHeight(), 0);
    assert.equal(store.appliedBlockHash(), undefined);
    await store.commit(1, hash(1), [
      { key: 'a', value: enc('1') },
      { key: enc('b'), value: enc('2') },
      { key: 'empty', value: new Uint8Array(0) },
    ]);
    await store.commit(2, hash(2), [
      { key: 'a', value: undefined },
      { key: 'b', value: enc('3') },
      { key: 'b', value: enc('4') },
    ]);
    assert.equal(store.appliedHeight(), 2);
    await store.close();

    const again = await StateStore.open(dir);
    assert.equal(again.appliedHeight(), 2);
    assert.deepEqual(again.appliedBlockHash(), hash(2));
    assert.equal(again.get('a'), undefined);
    assert.equal(dec(again.get('b')), '4', 'the later change to a key wins');
    assert.equal(again.get('empty')?.length, 0);
    await again.close();
  });

  it('releases its mapped pages: values read before stay whole, reads and commits go on', async () => {
    const dir = await tempDir();
    const store = await StateStore.open(dir, { fsync: true });
    const many = Array.from({ length: 2000 }, (_, i) => ({ key: `k${i}`, value: enc(`v${i}`.repeat(20)) }));
    await store.commit(1, hash(1), many);
    const read = [...store.entries('k')];
    const inFlight = store.commit(2, hash(2), [{ key: 'late', value: enc('x') }]);
    await store.releaseMappedPages();
    await inFlight;
    assert.equal(read.length, 2000);
    assert.equal(dec(read.find((e) => dec(e.key) === 'k7')?.value), 'v7'.repeat(20));
    assert.equal(dec(store.get('late')), 'x', 'a commit queued before the release is there after it');
    await store.commit(3, hash(3), [{ key: 'k7', value: enc('new') }]);
    assert.equal(dec(store.get('k7')), 'new');
    assert.equal(store.appliedHeight(), 3);
    await store.close();
    await assert.rejects(store.releaseMappedPages(), (e) => code(e) === 'storage_closed');
    const again = await StateStore.open(dir);
    assert.equal(again.appliedHeight(), 3);
    assert.equal(dec(again.get('k8')), 'v8'.repeat(20));
    await again.close();
  });

  it('iterates by prefix in bytewise key order and hides its meta key', async () => {
    const dir = await tempDir();
    const store = await StateStore.open(dir, { fsync: false });
    const keys = [
      Uint8Array.of(0xff),
      Uint8Array.of(0x00),
      enc('acc/b'),
      enc('acc/a'),
      enc('acc'),
      enc('acc0'),
      Uint8Array.of(0x61, 0xff, 0xff),
    ];
    await store.commit(
      1,
      hash(1),
      keys.map((key, i) => ({ key, value: Uint8Array.of(i) })),
    );
    const collected = [...store.entries()];
    for (const e of collected) {
      const i = keys.findIndex((k) => Buffer.from(k).equals(e.key));
      assert.deepEqual([...e.value], [i], 'each collected entry keeps its own value');
    }
    const all = collected.map((e) => Buffer.from(e.key).toString('hex'));
    const sorted = keys.map((k) => Buffer.from(k).toString('hex')).sort();
    assert.deepEqual(all, sorted);
    assert.deepEqual(
      [...store.entries('acc/')].map((e) => dec(e.key)),
      ['acc/a', 'acc/b'],
    );
    assert.deepEqual(
      [...store.entries('acc')].map((e) => dec(e.key)),
      ['acc', 'acc/a', 'acc/b', 'acc0'],
    );
    assert.deepEqual(
      [...store.entries(Uint8Array.of(0x61, 0xff))].map((e) => Buffer.from(e.key).toString('hex')),
      ['61ffff'],
    );
    assert.deepEqual(
      [...store.entries(Uint8Array.of(0xff))].map((e) => e.value),
      [Uint8Array.of(0)].map((v) => Buffer.from(v)),
    );
    await store.close();
  });

  it('appends packed rows given in key order, and refuses one below the last key stored', async () => {
    const dir = await tempDir();
    const store = await StateStore.open(dir, { fsync: false });
    const pack = new RowPack();
    for (const k of ['a1', 'a2', 'b']) pack.put(enc(k), enc(`v${k}`));
    await store.restorePacked(pack, { append: true });
    pack.clear();
    // A later pack goes on above the keys of the earlier ones.
    for (const k of ['c', 'c0']) pack.put(enc(k), enc(`v${k}`));
    await store.restorePacked(pack, { append: true });
    assert.deepEqual(
      [...store.entries()].map((e) => `${dec(e.key)}=${dec(e.value)}`),
      ['a1=va1', 'a2=va2', 'b=vb', 'c=vc', 'c0=vc0'],
    );
    // Below the last key stored (an unsorted bulk load): refused, never inserted in the middle.
    pack.clear();
    pack.put(enc('d'), enc('vd'));
    pack.put(enc('a3'), enc('va3'));
    await assert.rejects(store.restorePacked(pack, { append: true }), (e) => {
      assert.equal(code(e), 'storage_invalid_append');
      return true;
    });
    assert.equal(store.get(enc('a3')), undefined);
    // Without append, the same pack is inserted where its keys belong.
    pack.clear();
    pack.put(enc('a3'), enc('va3'));
    await store.restorePacked(pack);
    assert.equal(dec(store.get(enc('a3'))), 'va3');
    await store.close();
  });

  it('rejects a wrong height, a bad hash and an oversized key, changing nothing', async () => {
    const dir = await tempDir();
    const store = await StateStore.open(dir, { fsync: false });
    await assert.rejects(store.commit(2, hash(2), []), (e) => code(e) === 'storage_invalid_height');
    await store.commit(1, hash(1), [{ key: 'x', value: enc('1') }]);
    await assert.rejects(store.commit(1, hash(1), []), (e) => code(e) === 'storage_invalid_height');
    await assert.rejects(store.commit(3, hash(3), []), (e) => code(e) === 'storage_invalid_height');
    await assert.rejects(
      store.commit(2, new Uint8Array(31), []),
      (e) => code(e) === 'storage_invalid_commit',
    );
    const longKey = new Uint8Array(STATE_KEY_BYTES_MAX + 1);
    await assert.rejects(
      store.commit(2, hash(2), [
        { key: 'x', value: enc('changed') },
        { key: longKey, value: enc('v') },
      ]),
      (e) => code(e) === 'storage_invalid_key',
    );
    assert.equal(store.appliedHeight(), 1);
    assert.equal(dec(store.get('x')), '1');
    await store.commit(2, hash(2), [{ key: new Uint8Array(STATE_KEY_BYTES_MAX), value: enc('max') }]);
    assert.equal(dec(store.get(new Uint8Array(STATE_KEY_BYTES_MAX))), 'max');
    await store.close();
    assert.throws(
      () => store.get('x'),
      (e) => code(e) === 'storage_closed',
    );
  });

  it('serialises concurrent commits in call order', async () => {
    const dir = await tempDir();
    const store = await StateStore.open(dir, { fsync: false });
    await Promise.all(
      [1, 2, 3, 4].map((h) => store.commit(h, hash(h), [{ key: 'k', value: enc(String(h)) }])),
    );
    assert.equal(store.appliedHeight(), 4);
    assert.equal(dec(store.get('k')), '4');
    await store.close();
  });

  it('clear wipes entries and the applied height, durably', async () => {
    const dir = await tempDir();
    const store = await StateStore.open(dir);
    await store.commit(1, hash(1), [{ key: 'k', value: enc('v') }]);
    await store.clear();
    assert.equal(store.appliedHeight(), 0);
    assert.equal([...store.entries()].length, 0);
    await store.close();
    const again = await StateStore.open(dir);
    assert.equal(again.appliedHeight(), 0);
    assert.equal(again.get('k'), undefined);
    await again.commit(1, hash(7), []);
    assert.deepEqual(again.appliedBlockHash(), hash(7));
    await again.close();
  });

  it('hits its fail points in order, the mid-transaction one with the batch prepared', async () => {
    const dir = await tempDir();
    const fp = recordingFailPoints();
    const store = await StateStore.open(dir, { fsync: false, failPoints: fp });
    await store.commit(1, hash(1), [{ key: 'k', value: enc('v') }]);
    assert.deepEqual(fp.names, ['state.before-commit', 'state.mid-transaction', 'state.after-commit']);
    await store.close();
  });

  // lmdb-js commits what a batch callback queued even if the callback throws, so a throw while the
  // commit is being prepared must come before LMDB sees any write of the block.
  it('leaves the store unchanged when preparing a change throws', async () => {
    const dir = await tempDir();
    const store = await StateStore.open(dir, { fsync: false });
    await store.commit(1, hash(1), [{ key: 'a', value: enc('1') }]);
    const bad = [
      { key: 'a', value: enc('2') },
      { key: 'b', value: enc('2') },
      { key: 'c', value: enc('2') },
      { key: 'd', value: 42 as unknown as Uint8Array },
    ];
    await assert.rejects(store.commit(2, hash(2), bad), (e) => code(e) === 'storage_invalid_commit');
    await assertUnchanged(store, dir);
  });

  it('leaves the store unchanged when the mid-transaction fail point throws', async () => {
    const dir = await tempDir();
    let armed = false;
    const failPoints = {
      hit(name: string): void {
        if (armed && name === 'state.mid-transaction') throw new Error('fail point');
      },
    };
    const store = await StateStore.open(dir, { fsync: false, failPoints });
    await store.commit(1, hash(1), [{ key: 'a', value: enc('1') }]);
    armed = true;
    const changes = ['a', 'b', 'c', 'd'].map((key) => ({ key, value: enc('2') }));
    await assert.rejects(store.commit(2, hash(2), changes), /fail point/);
    await assertUnchanged(store, dir);
  });
});

/** Height 1 with only a = "1", in memory and after a reopen; the next commit still works. */
async function assertUnchanged(store: StateStore, dir: string): Promise<void> {
  const check = (s: StateStore) => {
    assert.equal(s.appliedHeight(), 1);
    assert.deepEqual(
      [...s.entries()].map((e) => [dec(e.key), dec(e.value)]),
      [['a', '1']],
    );
  };
  check(store);
  await store.close();
  const again = await StateStore.open(dir, { fsync: false });
  try {
    check(again);
    await again.commit(2, hash(2), [{ key: 'b', value: enc('3') }]);
    assert.equal(dec(again.get('b')), '3');
  } finally {
    await again.close();
  }
}
