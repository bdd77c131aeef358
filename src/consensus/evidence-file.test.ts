// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { crc32c } from '../codec/crc32c.js';
import { StorageCorruptionError } from '../storage/errors.js';
import { crashingFailPoints, recordingFailPoints } from '../util/failpoints.js';
import { EVIDENCE_FILE_HEADER_BYTES, type EvidenceEntry, encodeEvidenceRecord } from './evidence-file.js';
import { EvidenceStore } from './evidence-store.js';

const dirs: string[] = [];
async function tempPath(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'torana-evidence-'));
  dirs.push(dir);
  return join(dir, 'data', 'evidence.log');
}
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

function entry(n: number): EvidenceEntry {
  return {
    id: n.toString(16).padStart(64, '0'),
    kind: 'InvalidProposal',
    finding: 'state_root_mismatch',
    recordedAtMs: 1_700_000_000_000 + n,
    recordedAtHeight: n,
    evidence: {
      kind: 'InvalidProposal',
      height: n,
      view: n % 3,
      validatorSetHash: new Uint8Array(32).fill(1),
      proposerIndex: n % 4,
      blockHash: new Uint8Array(32).fill(n % 256),
      reason: 'state_root_mismatch',
    },
  };
}

const all = (s: EvidenceStore) => s.list({ offset: 0, limit: 10_000 }).items;
const opts = { fsync: false };

async function filled(path: string, from: number, to: number, capacity?: number): Promise<EvidenceStore> {
  const store = await EvidenceStore.open(path, { ...opts, ...(capacity ? { capacity } : {}) });
  for (let n = from; n <= to; n++) store.add(entry(n));
  await store.flush();
  return store;
}

async function openError(path: string): Promise<StorageCorruptionError> {
  const e = await EvidenceStore.open(path, opts).then(
    () => undefined,
    (err: unknown) => err,
  );
  assert.ok(e instanceof StorageCorruptionError, `expected StorageCorruptionError, got ${String(e)}`);
  return e;
}

describe('EvidenceStore on disk', () => {
  it('keeps every record across a restart, and still refuses duplicates', async () => {
    const path = await tempPath();
    const first = await filled(path, 1, 3);
    const before = all(first);
    await first.close();
    const again = await EvidenceStore.open(path, opts);
    assert.deepEqual(all(again), before);
    assert.deepEqual([again.count(), again.dropped, again.truncatedTailBytes], [3, 0, 0]);
    assert.equal(again.add(entry(2)), 'duplicate');
    assert.equal(again.add(entry(4)), 'accepted');
    await again.close();
    const third = await EvidenceStore.open(path, opts);
    assert.deepEqual([third.count(), third.fileRecords], [4, 4]);
    await third.close();
  });

  it('cuts off a torn last record at every length, and appends after it', async () => {
    const path = await tempPath();
    await (await filled(path, 1, 2)).close();
    const good = await readFile(path);
    const torn = encodeEvidenceRecord(entry(3));
    for (let cut = 1; cut < torn.length; cut += 7) {
      await writeFile(path, Buffer.concat([good, torn.subarray(0, cut)]));
      const store = await EvidenceStore.open(path, opts);
      assert.deepEqual([store.count(), store.truncatedTailBytes], [2, cut], `cut at ${cut}`);
      assert.equal((await stat(path)).size, good.length);
      await store.close();
    }
    const store = await filled(path, 3, 3);
    await store.close();
    assert.equal((await EvidenceStore.open(path, opts)).count(), 3);
  });

  it('refuses a damaged record followed by a good one, and leaves the file untouched', async () => {
    const path = await tempPath();
    await (await filled(path, 1, 3)).close();
    const bytes = await readFile(path);
    const bad = Buffer.from(bytes);
    const at = EVIDENCE_FILE_HEADER_BYTES + 40;
    bad[at] = (bad[at] ?? 0) ^ 0xff;
    await writeFile(path, bad);
    const e = await openError(path);
    assert.equal(e.code, 'storage_corruption');
    assert.equal(e.reason, 'checksum_mismatch');
    assert.equal(e.offset, EVIDENCE_FILE_HEADER_BYTES);
    assert.ok(typeof e.details.goodRecordAt === 'number');
    assert.deepEqual(await readFile(path), bad, 'a corrupt file is never truncated');
    const header = Buffer.from(bytes);
    header[9] = 1; // the dropped counter, covered by the header checksum
    await writeFile(path, header);
    assert.equal((await openError(path)).reason, 'checksum_mismatch');
  });

  it('refuses a record whose checksum holds but whose payload does not decode', async () => {
    const path = await tempPath();
    await (await filled(path, 1, 1)).close();
    const payload = Uint8Array.of(0xff, 0xff, 0xff);
    const record = new Uint8Array(12 + payload.length);
    const view = new DataView(record.buffer);
    record.set([0x54, 0x45, 0x56, 0x52], 0);
    view.setUint32(4, payload.length, true);
    record.set(payload, 12);
    view.setUint32(8, crc32c(payload, crc32c(record.subarray(4, 8))), true);
    await appendFile(path, record);
    assert.equal((await openError(path)).reason, 'undecodable_record');
  });

  it('stays bounded: drops the oldest, keeps counting across restarts, rewrites past 2x capacity', async () => {
    const path = await tempPath();
    const store = await EvidenceStore.open(path, { ...opts, capacity: 3 });
    for (let n = 1; n <= 10; n++) {
      store.add(entry(n));
      await store.flush();
      assert.ok(store.fileRecords <= 6, `file holds ${store.fileRecords} records`);
    }
    assert.deepEqual([store.count(), store.dropped], [3, 7]);
    const kept = all(store);
    await store.close();
    const again = await EvidenceStore.open(path, { ...opts, capacity: 3 });
    assert.deepEqual(all(again), kept);
    assert.equal(again.dropped, 7);
    assert.equal(again.add(entry(1)), 'accepted', 'a dropped record is forgotten');
    assert.equal(again.add(entry(10)), 'duplicate');
    await again.close();
    // A file written with a larger capacity is cut down at open.
    const small = await EvidenceStore.open(path, { ...opts, capacity: 1 });
    assert.deepEqual([small.count(), small.fileRecords, small.dropped], [1, 1, 10]);
    await small.close();
  });

  it('groups records accepted meanwhile into one write and one fsync', async () => {
    const path = await tempPath();
    const fp = recordingFailPoints();
    const store = await EvidenceStore.open(path, { fsync: true, failPoints: fp });
    for (let n = 1; n <= 5; n++) store.add(entry(n));
    await store.flush();
    assert.equal(fp.names.filter((n) => n === 'evidence.after-fsync').length, 2);
    assert.equal(store.fileRecords, 5);
    await store.close();
  });

  it('keeps the old file when a rewrite crashes before its rename', async () => {
    const path = await tempPath();
    await (await filled(path, 1, 4, 2)).close();
    const failPoints = crashingFailPoints({ name: 'evidence.rewrite-after-temp', nth: 1 }, () => {
      throw new Error('simulated crash');
    });
    const errors: unknown[] = [];
    const onError = (e: unknown) => errors.push(e);
    const store = await EvidenceStore.open(path, { ...opts, capacity: 2, failPoints, onError });
    for (let n = 5; n <= 6; n++) store.add(entry(n));
    await assert.rejects(store.flush(), /simulated crash/);
    assert.equal(store.add(entry(7)), 'accepted', 'memory keeps working');
    await assert.rejects(store.flush(), /simulated crash/);
    assert.equal(errors.length, 1, 'the failure is reported once');
    await store.close().catch(() => undefined);
    const again = await EvidenceStore.open(path, { ...opts, capacity: 2 });
    assert.deepEqual(
      all(again).map((e) => e.recordedAtHeight),
      [4, 3],
    );
    assert.equal(again.dropped, 2);
    await again.close();
  });
});
