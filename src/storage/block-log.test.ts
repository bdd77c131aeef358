import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { GENESIS_PREV_HASH, makeChain } from '../../test/fixtures/storage/chain-fixture.js';
import { recordingFailPoints } from '../util/failpoints.js';
import { BlockLog } from './block-log.js';
import { StorageError } from './errors.js';
import type { BlockRecord } from './record.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'torana-blocklog-'));
  dirs.push(dir);
  return dir;
}
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

function assertSameRecord(actual: BlockRecord | undefined, expected: BlockRecord): void {
  assert.ok(actual, `height ${expected.height} missing`);
  assert.equal(actual.height, expected.height);
  assert.deepEqual(Buffer.from(actual.hash), Buffer.from(expected.hash));
  assert.deepEqual(Buffer.from(actual.prevHash), Buffer.from(expected.prevHash));
  assert.deepEqual(Buffer.from(actual.bytes), Buffer.from(expected.bytes));
}

async function collect(it: AsyncIterable<BlockRecord>): Promise<BlockRecord[]> {
  const out: BlockRecord[] = [];
  for await (const r of it) out.push(r);
  return out;
}

describe('BlockLog', () => {
  it('round-trips batches across a reopen: read, iterate, tip hash', async () => {
    const dir = await tempDir();
    const chain = makeChain(0, GENESIS_PREV_HASH, 120);
    const { log, report } = await BlockLog.open(dir, { fsync: false });
    assert.deepEqual(report, {
      height: 0,
      tipHash: undefined,
      truncatedTailBytes: 0,
      segments: 1,
      scannedRecords: 0,
    });
    for (let i = 0; i < chain.length; i += 17) await log.append(chain.slice(i, i + 17));
    assert.equal(log.height, 120);
    await log.close();

    const reopened = await BlockLog.open(dir, { fsync: false });
    const log2 = reopened.log;
    assert.equal(reopened.report.height, 120);
    assert.equal(reopened.report.scannedRecords, 120);
    assert.deepEqual(reopened.report.tipHash, chain[119]!.hash);
    assert.deepEqual(log2.tipHash, chain[119]!.hash);
    for (const r of chain) assertSameRecord(await log2.read(r.height), r);
    assert.equal(await log2.read(0), undefined);
    assert.equal(await log2.read(121), undefined);
    assert.equal(await log2.read(1.5), undefined);
    const all = await collect(log2.iterate(1));
    assert.equal(all.length, 120);
    for (const [i, r] of all.entries()) assertSameRecord(r, chain[i]!);
    const some = await collect(log2.iterate(50, 60));
    assert.deepEqual(
      some.map((r) => r.height),
      Array.from({ length: 11 }, (_, i) => 50 + i),
    );
    assert.equal((await collect(log2.iterate(121))).length, 0);
    await log2.close();
  });

  it('rolls over to new segments named by first height and reads across them', async () => {
    const dir = await tempDir();
    const chain = makeChain(0, GENESIS_PREV_HASH, 200);
    const { log } = await BlockLog.open(dir, { fsync: false, segmentBytesMax: 4096 });
    for (let i = 0; i < chain.length; i += 5) await log.append(chain.slice(i, i + 5));
    await log.close();
    const names = (await readdir(join(dir, 'blocks'))).sort();
    assert.ok(names.length > 5, `expected several segments, got ${names.length}`);
    assert.equal(names[0], 'seg-000000000001.log');
    for (const name of names.slice(1)) {
      // A segment only ever starts at a batch boundary: 1, 6, 11, ...
      const first = Number(name.slice(4, 16));
      assert.equal((first - 1) % 5, 0, name);
    }
    for (const name of names.slice(0, -1)) {
      const { size } = await stat(join(dir, 'blocks', name));
      assert.ok(size <= 4096, `${name} is ${size} bytes`);
    }
    const { log: log2, report } = await BlockLog.open(dir, { fsync: false, segmentBytesMax: 4096 });
    assert.equal(report.segments, names.length);
    assert.equal(report.height, 200);
    for (const r of chain) assertSameRecord(await log2.read(r.height), r);
    const all = await collect(log2.iterate(1));
    for (const [i, r] of all.entries()) assertSameRecord(r, chain[i]!);
    await log2.close();
  });

  it('rejects misuse with typed errors and writes nothing', async () => {
    const dir = await tempDir();
    const chain = makeChain(0, GENESIS_PREV_HASH, 3);
    const { log } = await BlockLog.open(dir, { fsync: false, recordBytesMax: 1024 });
    const code = (e: unknown) => (e instanceof StorageError ? e.code : String(e));
    await assert.rejects(log.append([chain[1]!]), (e) => code(e) === 'storage_invalid_append');
    const badGenesis = { ...chain[0]!, prevHash: new Uint8Array(32).fill(1) };
    await assert.rejects(log.append([badGenesis]), (e) => code(e) === 'storage_invalid_append');
    const shortHash = { ...chain[0]!, hash: new Uint8Array(31) };
    await assert.rejects(log.append([shortHash]), (e) => code(e) === 'storage_invalid_append');
    await assert.rejects(log.append([chain[0]!, chain[2]!]), (e) => code(e) === 'storage_invalid_append');
    const big = { ...chain[0]!, bytes: new Uint8Array(1024) };
    await assert.rejects(log.append([big]), (e) => code(e) === 'storage_record_too_large');
    assert.equal(log.height, 0);
    assert.equal((await stat(join(dir, 'blocks', 'seg-000000000001.log'))).size, 0);
    await log.append(chain);
    assert.equal(log.height, 3);
    await assert.rejects(
      log.append([{ ...chain[2]!, height: 4 }]),
      (e) => code(e) === 'storage_invalid_append',
    );
    await log.close();
    await assert.rejects(log.read(1), (e) => code(e) === 'storage_closed');
    await assert.rejects(log.append(makeChain(3, chain[2]!.hash, 1)), (e) => code(e) === 'storage_closed');
    await assert.rejects(
      BlockLog.open(dir, { recordBytesMax: 10 }),
      (e) => code(e) === 'storage_invalid_options',
    );
  });

  it('serialises concurrent appends in call order', async () => {
    const dir = await tempDir();
    const chain = makeChain(0, GENESIS_PREV_HASH, 40);
    const { log } = await BlockLog.open(dir, { fsync: false });
    const done: number[] = [];
    await Promise.all(
      [0, 10, 20, 30].map((i) => log.append(chain.slice(i, i + 10)).then(() => done.push(log.height))),
    );
    assert.deepEqual(done, [10, 20, 30, 40]);
    const reads = await Promise.all(chain.map((r) => log.read(r.height)));
    for (const [i, r] of reads.entries()) assertSameRecord(r, chain[i]!);
    await log.close();
  });

  it('hits the fail points in persistence order, once per batch', async () => {
    const dir = await tempDir();
    const fp = recordingFailPoints();
    const chain = makeChain(0, GENESIS_PREV_HASH, 4);
    const { log } = await BlockLog.open(dir, { fsync: true, failPoints: fp, segmentBytesMax: 600 });
    assert.deepEqual(fp.names, ['blocklog.segment-created']);
    await log.append(chain.slice(0, 2));
    const batch = [
      'blocklog.before-write',
      'blocklog.mid-write',
      'blocklog.after-write',
      'blocklog.after-fsync',
    ];
    assert.deepEqual(fp.names.slice(1), batch);
    await log.append(chain.slice(2));
    assert.deepEqual(fp.names.slice(5), ['blocklog.segment-created', ...batch]);
    await log.close();
  });

  it('accepts an empty trailing segment and ignores unrelated files', async () => {
    const dir = await tempDir();
    const chain = makeChain(0, GENESIS_PREV_HASH, 5);
    const { log } = await BlockLog.open(dir, { fsync: false });
    await log.append(chain);
    await log.close();
    await writeFile(join(dir, 'blocks', 'seg-000000000006.log'), new Uint8Array(0));
    await writeFile(join(dir, 'blocks', 'notes.txt'), 'hello');
    const { log: log2, report } = await BlockLog.open(dir, { fsync: false });
    assert.equal(report.height, 5);
    assert.equal(report.segments, 2);
    await log2.append(makeChain(5, chain[4]!.hash, 2));
    await log2.close();
    assert.ok((await stat(join(dir, 'blocks', 'seg-000000000006.log'))).size > 0);
  });
});
