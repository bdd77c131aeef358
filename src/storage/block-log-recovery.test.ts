import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { GENESIS_PREV_HASH, makeChain } from '../../test/fixtures/storage/chain-fixture.js';
import { BlockLog } from './block-log.js';
import { StorageCorruptionError } from './errors.js';
import type { BlockRecord } from './record.js';
import { encodeRecords, recordBytes } from './record.js';

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const N = 10;
const chain = makeChain(0, GENESIS_PREV_HASH, N);
const SEG1 = 'seg-000000000001.log';

/** Byte offset of each height's record in a single segment holding `records`. */
function offsets(records: readonly BlockRecord[]): number[] {
  const out: number[] = [];
  let at = 0;
  for (const r of records) {
    out.push(at);
    at += recordBytes(r);
  }
  return out;
}

/** A fresh log directory whose first segment holds exactly `segment` bytes. */
async function logWith(segment: Uint8Array, name = SEG1): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'torana-recovery-'));
  dirs.push(dir);
  await BlockLog.open(dir, { fsync: false }).then(({ log }) => log.close());
  const file = join(dir, 'blocks', name);
  await writeFile(file, segment);
  return { dir, file };
}

async function expectCorruption(
  dir: string,
  file: string,
  offset: number,
  height: number,
): Promise<StorageCorruptionError> {
  const before = await readFile(file);
  let caught: unknown;
  await BlockLog.open(dir, { fsync: false }).then(
    () => assert.fail('open should have refused a corrupt log'),
    (e: unknown) => {
      caught = e;
    },
  );
  assert.ok(caught instanceof StorageCorruptionError, String(caught));
  assert.equal(caught.code, 'storage_corruption');
  assert.equal(caught.file, file);
  assert.equal(caught.offset, offset);
  assert.equal(caught.height, height);
  assert.deepEqual(await readFile(file), before, 'a corrupt log must be left untouched');
  return caught;
}

describe('BlockLog recovery', () => {
  const full = encodeRecords(chain);
  const at = offsets(chain);
  const lastStart = at[N - 1]!;

  it('truncates a torn last record at every cut point, and appends work afterwards', async () => {
    const { dir, file } = await logWith(full);
    for (let cut = 1; cut < full.length - lastStart; cut++) {
      await writeFile(file, full.subarray(0, lastStart + cut));
      const { log, report } = await BlockLog.open(dir, { fsync: false });
      assert.equal(report.height, N - 1, `cut ${cut}`);
      assert.equal(report.truncatedTailBytes, cut, `cut ${cut}`);
      await log.close();
      assert.equal((await stat(file)).size, lastStart);
    }
    const { log } = await BlockLog.open(dir, { fsync: false });
    await log.append([chain[N - 1]!]);
    await log.close();
    const { log: again, report } = await BlockLog.open(dir, { fsync: false });
    assert.equal(report.height, N);
    assert.equal(report.truncatedTailBytes, 0);
    assert.deepEqual((await again.read(N))?.hash, chain[N - 1]!.hash);
    await again.close();
  });

  it('truncates garbage, zeros and a lone fake header after the last record', async () => {
    const garbage = Uint8Array.from({ length: 1000 }, (_, i) => (i * 2654435761) >>> 24);
    const fakeHeader = Uint8Array.from([
      0x54,
      0x4e,
      0x41,
      0x52,
      100,
      0,
      0,
      0,
      1,
      2,
      3,
      4,
      ...new Array(100).fill(7),
    ]);
    for (const tail of [garbage, new Uint8Array(4096), fakeHeader]) {
      const { dir, file } = await logWith(Buffer.concat([full, tail]));
      const { log, report } = await BlockLog.open(dir, { fsync: false });
      assert.equal(report.height, N);
      assert.equal(report.truncatedTailBytes, tail.length);
      await log.append(makeChain(N, chain[N - 1]!.hash, 1));
      await log.close();
      assert.equal(
        (await stat(file)).size,
        full.length + recordBytes(makeChain(N, chain[N - 1]!.hash, 1)[0]!),
      );
    }
  });

  it('refuses to start when an earlier record is damaged in any field, naming file and offset', async () => {
    const h = 5;
    const start = at[h - 1]!;
    const fields = {
      magic: start + 1,
      length: start + 5,
      checksum: start + 9,
      height: start + 12,
      payload: start + 100,
    };
    for (const [field, pos] of Object.entries(fields)) {
      const bytes = Uint8Array.from(full);
      bytes[pos]! ^= 0x10;
      const { dir, file } = await logWith(bytes);
      const err = await expectCorruption(dir, file, start, h);
      assert.equal(err.details['goodRecordAt'], at[h], field);
    }
  });

  it('refuses a hash linkage break even in the last record', async () => {
    const broken = chain.map((r) => ({ ...r }));
    broken[N - 1]!.prevHash = new Uint8Array(32).fill(9);
    const { dir, file } = await logWith(encodeRecords(broken));
    const err = await expectCorruption(dir, file, lastStart, N);
    assert.equal(err.reason, 'hash_linkage');
  });

  it('refuses a height gap', async () => {
    const gap = [
      ...chain.slice(0, 4),
      ...makeChain(4, chain[3]!.hash, 3).map((r) => ({ ...r, height: r.height + 1 })),
    ];
    const { dir, file } = await logWith(encodeRecords(gap));
    const err = await expectCorruption(dir, file, at[4]!, 5);
    assert.equal(err.reason, 'height_discontinuity');
  });

  it('refuses a torn-looking record at the end of a segment that is not the last', async () => {
    const { dir, file } = await logWith(full.subarray(0, full.length - 3));
    await writeFile(join(dir, 'blocks', 'seg-000000000010.log'), new Uint8Array(0));
    const err = await expectCorruption(dir, file, lastStart, N);
    assert.equal(err.reason, 'short_record');
  });

  it('refuses a missing first segment and a segment that does not continue the chain', async () => {
    const { dir } = await logWith(full);
    const second = join(dir, 'blocks', 'seg-000000000012.log');
    await writeFile(second, encodeRecords(makeChain(N, chain[N - 1]!.hash, 1)));
    const gapErr = await expectCorruption(dir, second, 0, N + 1);
    assert.equal(gapErr.reason, 'unexpected_segment');
    await unlink(join(dir, 'blocks', SEG1));
    const missing = await expectCorruption(dir, second, 0, 1);
    assert.equal(missing.reason, 'unexpected_segment');
  });

  it('treats an absurd length field as torn at the tail and corrupt mid-log, reading at most the file', async () => {
    const tail = Uint8Array.from(full);
    new DataView(tail.buffer).setUint32(lastStart + 4, 0xfffffff0, true);
    const t = await logWith(tail);
    const { log, report } = await BlockLog.open(t.dir, { fsync: false, recordBytesMax: 1024 * 1024 * 1024 });
    assert.equal(report.height, N - 1);
    await log.close();

    // Within recordBytesMax but far past the end of the file: must be judged by the file size.
    const mid = Uint8Array.from(full);
    new DataView(mid.buffer).setUint32(at[2]! + 4, 60 * 1024 * 1024, true);
    const m = await logWith(mid);
    const err = await expectCorruption(m.dir, m.file, at[2]!, 3);
    assert.equal(err.reason, 'short_record');
  });

  it('detects bit rot on read and iterate after a clean open', async () => {
    const { dir, file } = await logWith(full);
    const { log } = await BlockLog.open(dir, { fsync: false });
    const rotten = Uint8Array.from(full);
    rotten[at[2]! + 50]! ^= 1;
    await writeFile(file, rotten);
    await assert.rejects(log.read(3), (e) => e instanceof StorageCorruptionError && e.offset === at[2]);
    await assert.rejects(async () => {
      for await (const _ of log.iterate(1)) {
        // consume
      }
    }, StorageCorruptionError);
    assert.deepEqual((await log.read(2))?.hash, chain[1]!.hash);
    await log.close();
  });
});
