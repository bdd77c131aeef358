// Always-on assertions of the block log and state store, each shown with a planted violation: a record
// encoded with bad fields, a zero-byte or oversized write, an index that points past its segment, a
// batch that did not advance the height by its length, a state store height moved during a commit.

import assert from 'node:assert/strict';
import type { FileHandle } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AssertionError } from '../util/assert.js';
import { BlockLog } from './block-log.js';
import { checkBatch } from './block-log-checks.js';
import { MemoryBlockMedium, MemoryBlockStore } from './memory-block-store.js';
import { MemoryStateBackend, MemoryStateMedium } from './memory-state-backend.js';
import { encodeRecords } from './record.js';
import { createSegment, readUpTo, segmentFileName, writeFully } from './segment-files.js';
import { StateStore } from './state-store.js';

const dirs: string[] = [];
const tempDir = async () => {
  const d = await mkdtemp(join(tmpdir(), 'torana-storage-asserts-'));
  dirs.push(d);
  return d;
};
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const hash = (n: number) => new Uint8Array(32).fill(n);
const record = (height: number, prev: number) => ({
  height,
  hash: hash(height),
  prevHash: hash(prev),
  bytes: new Uint8Array([height]),
});
const isAssertion = (message: RegExp) => (e: unknown) =>
  e instanceof AssertionError && message.test(e.message);

describe('block log assertions', () => {
  it('encodeRecords refuses fields the append checks should have refused', () => {
    assert.throws(() => encodeRecords([{ ...record(1, 0), hash: new Uint8Array(31) }]), AssertionError);
    assert.throws(() => encodeRecords([record(0, 0)]), AssertionError);
  });

  it('writeFully stops on a zero-byte write instead of looping; readUpTo on an oversized read', async () => {
    const stuck = { write: async () => ({ bytesWritten: 0 }) } as unknown as FileHandle;
    await assert.rejects(writeFully(stuck, new Uint8Array(4), 0), isAssertion(/moved 0 bytes/));
    const greedy = { read: async () => ({ bytesRead: 9 }) } as unknown as FileHandle;
    await assert.rejects(readUpTo(greedy, 0, 4), isAssertion(/returned 9 bytes/));
  });

  it('createSegment refuses a first height below 1', async () => {
    const { noFailPoints } = await import('../util/failpoints.js');
    await assert.rejects(createSegment(await tempDir(), 0, false, noFailPoints), AssertionError);
  });

  it('a read whose index entry lies past the segment end fails before reading', async () => {
    const { log } = await BlockLog.open(await tempDir(), { fsync: false });
    await log.append([record(1, 0)]);
    assert.equal((await log.read(1))?.height, 1);
    // Planted: the index believes the segment holds fewer bytes than its record needs.
    const index = (log as unknown as { index: { segments: { endOffset: number }[] } }).index;
    index.segments[0]!.endOffset = 10;
    await assert.rejects(log.read(1), isAssertion(/outside segment/));
    assert.throws(() => log.readSync(1), isAssertion(/outside segment/));
    index.segments[0]!.endOffset = Number.MAX_SAFE_INTEGER;
    await log.close();
  });

  it('an append that finds the height moved during its write fails', async () => {
    let plant: (() => void) | undefined;
    const failPoints = { hit: (name: string) => name === 'blocklog.after-fsync' && plant?.() };
    const { log } = await BlockLog.open(await tempDir(), { fsync: false, failPoints });
    const index = (log as unknown as { index: { height: number } }).index;
    plant = () => {
      index.height += 1; // planted: something indexed a record while this batch was being written
    };
    await assert.rejects(log.append([record(1, 0)]), isAssertion(/batch from height 1 onto height 1/));
    await log.close();
  });
});

describe('block log durability ordering', () => {
  it('an append whose bytes were never made durable is not indexed, and the log stays as it was', async () => {
    const dir = await tempDir();
    const { log } = await BlockLog.open(dir, { fsync: false });
    await log.append([record(1, 0)]);
    // Planted: a write path that returns without writing or syncing anything.
    (log as unknown as { writeDurably: (b: Uint8Array) => Promise<void> }).writeDurably = async () => {};
    await assert.rejects(log.append([record(2, 1)]), isAssertion(/past the durable/));
    assert.equal(log.height, 1);
    assert.equal(await log.read(2), undefined);
    assert.equal((await log.read(1))?.height, 1);
    await log.close();
    const reopened = await BlockLog.open(dir, { fsync: false });
    assert.equal(reopened.report.height, 1);
    await reopened.log.close();
  });

  it('a read of a record past the synced bytes of the active segment fails', async () => {
    const { log } = await BlockLog.open(await tempDir(), { fsync: false });
    await log.append([record(1, 0), record(2, 1)]);
    assert.equal((await log.read(2))?.height, 2);
    // Planted: the durable mark lags the index (as if records were indexed before their sync).
    const durable = log as unknown as { durableEnd: number };
    const end = durable.durableEnd;
    durable.durableEnd = 100;
    await assert.rejects(log.read(2), isAssertion(/record 2 at \d+\+\d+ past the durable 100 bytes/));
    assert.throws(() => log.readSync(2), isAssertion(/past the durable 100 bytes/));
    await assert.rejects(
      async () => {
        for await (const _ of log.iterate(1)) {
          // iterating is enough
        }
      },
      isAssertion(/past its durable bytes/),
    );
    durable.durableEnd = end;
    await log.close();
  });

  it('a segment name that would not parse back is refused', () => {
    assert.equal(segmentFileName(1), 'seg-000000000001.log');
    assert.throws(() => segmentFileName(10 ** 12), isAssertion(/does not fit 12 digits/));
  });
});

describe('memory store assertions', () => {
  it('a block append finding the medium moved during its sync fails before applying', async () => {
    const medium = new MemoryBlockMedium();
    let plant: (() => void) | undefined;
    const faults = { sync: async () => plant?.() };
    const { store } = MemoryBlockStore.open(medium, { faults });
    await store.append([record(1, 0)]);
    plant = () => {
      medium.records.push(record(2, 1)); // planted: a second writer on the same medium
    };
    await assert.rejects(store.append([record(2, 1)]), isAssertion(/batch from 2 onto 2 records/));
    assert.equal(medium.records.length, 2); // the planted one only: the batch did not apply
  });

  it('a state commit finding the medium height moved during its sync fails before applying', async () => {
    const medium = new MemoryStateMedium();
    let plant: (() => void) | undefined;
    const backend = MemoryStateBackend.open(medium, { faults: { sync: async () => plant?.() } });
    await backend.commit(1, hash(1), [{ key: 'a', value: new Uint8Array([1]) }]);
    plant = () => {
      medium.height = 3; // planted
    };
    await assert.rejects(
      backend.commit(2, hash(2), [{ key: 'a', value: new Uint8Array([2]) }]),
      isAssertion(/commit 2 onto height 3/),
    );
    assert.deepEqual(backend.get('a'), new Uint8Array([1]));
  });
});

describe('block log tip assertions', () => {
  it('a batch checked against a tip hash that is not 32 bytes fails, before any record is looked at', () => {
    assert.throws(
      () => checkBatch([record(1, 0)], 0, new Uint8Array(31), 1 << 20),
      isAssertion(/a 31-byte tip hash/),
    );
  });

  it('a block log whose index runs past its active segment is stopped at the next look at its height', async () => {
    const { log } = await BlockLog.open(await tempDir(), { fsync: false });
    await log.append([record(1, 0)]);
    (log as unknown as { index: { height: number } }).index.height = 3; // planted
    assert.throws(() => log.height, isAssertion(/height 3, the active segment holds 1\+1/));
    (log as unknown as { index: { height: number } }).index.height = 1;
    await log.close();
  });

  it('a memory medium whose last slot does not hold its height is refused when a store opens on it', () => {
    const medium = new MemoryBlockMedium();
    medium.records.push(record(2, 1)); // planted: slot 1 holds height 2
    assert.throws(() => MemoryBlockStore.open(medium), isAssertion(/1 records on the medium/));
  });
});

describe('state store assertions', () => {
  it('a commit finding the applied height moved while it ran fails', async () => {
    let plant: (() => void) | undefined;
    const failPoints = { hit: (name: string) => name === 'state.after-commit' && plant?.() };
    const store = await StateStore.open(await tempDir(), { fsync: false, failPoints });
    await store.commit(1, hash(1), []);
    plant = () => {
      (store as unknown as { height: number }).height = 5; // planted
    };
    await assert.rejects(
      store.commit(2, hash(2), []),
      isAssertion(/applied height moved to 5 during commit 2/),
    );
    await store.close();
  });
});
