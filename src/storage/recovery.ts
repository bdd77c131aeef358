// Open-time scan of the block log (docs/design/testing.md "Durability discipline"). Every segment is read
// in order and every record is checked: magic, length, checksum, height continuity, hash linkage.
// Only one kind of damage is repaired: a bad record at the very end of the last segment, with no
// valid record behind it, is a torn write from a crash during append and is cut off. Anything else
// is committed history gone bad and stops the open with StorageCorruptionError.

import { open } from 'node:fs/promises';
import { assert } from '../util/assert.js';
import type { FailPoints } from '../util/failpoints.js';
import { bytesEqual } from '../util/hex.js';
import { BlockIndex } from './block-index.js';
import { readBlockLogBase } from './block-log-base.js';
import { StorageCorruptionError } from './errors.js';
import { decodePayload, HASH_BYTES } from './record.js';
import type { SegmentFile } from './segment-files.js';
import { listSegments } from './segment-files.js';
import { examineRecord, findNextGoodRecord, SegmentReader } from './segment-reader.js';

export interface RecoveryOptions {
  recordBytesMax: number;
  fsync: boolean;
  failPoints: FailPoints;
}

export interface Recovered {
  index: BlockIndex;
  /** Hash of the last record; 32 zero bytes when the log is empty (genesis's prevHash). */
  tipHash: Uint8Array;
  truncatedTailBytes: number;
  scannedRecords: number;
}

export async function recoverBlockLog(blocksDir: string, opts: RecoveryOptions): Promise<Recovered> {
  // A log restored from a snapshot starts at its base, after a parent it does not hold.
  const base = await readBlockLogBase(blocksDir);
  const index = new BlockIndex(base?.height ?? 1);
  const tipHash = new Uint8Array(HASH_BYTES);
  if (base !== undefined) tipHash.set(base.prevHash);
  const segments = await listSegments(blocksDir);
  let truncatedTailBytes = 0;
  for (let i = 0; i < segments.length; i++) {
    const file = segments[i]!;
    if (file.firstHeight !== index.height + 1) {
      throw new StorageCorruptionError({
        file: file.path,
        offset: 0,
        height: index.height + 1,
        reason: 'unexpected_segment',
        extra: { nameHeight: file.firstHeight },
      });
    }
    index.addSegment(file);
    const tornAt = await scanSegment(file, i === segments.length - 1, index, tipHash, opts.recordBytesMax);
    if (tornAt !== undefined) {
      // Only the last segment is cut, exactly where its last good record ends: the index covers every
      // byte that stays and nothing of what goes.
      assert(
        i === segments.length - 1 && index.segments.at(-1)!.endOffset === tornAt,
        `recovery: cutting segment ${file.firstHeight} at ${tornAt}, its records end at ${index.segments.at(-1)!.endOffset}`,
      );
      truncatedTailBytes = await truncateTail(file, tornAt, opts);
    }
  }
  assert(
    index.segments.length === segments.length &&
      (index.height > 0 || tipHash.every((b) => b === 0)) &&
      index.height >= index.first - 1,
    `recovery: ${index.segments.length} of ${segments.length} segments indexed up to height ${index.height}`,
  );
  return { index, tipHash, truncatedTailBytes, scannedRecords: index.height - (index.first - 1) };
}

/** Indexes the segment's records; returns the offset of a torn tail to cut off, if any. */
async function scanSegment(
  file: SegmentFile,
  isLast: boolean,
  index: BlockIndex,
  tipHash: Uint8Array,
  recordBytesMax: number,
): Promise<number | undefined> {
  const handle = await open(file.path, 'r');
  try {
    const reader = new SegmentReader(handle, (await handle.stat()).size);
    let offset = 0;
    while (offset < reader.size) {
      const height = index.height + 1;
      const verdict = await examineRecord(reader, offset, recordBytesMax);
      if (!verdict.ok) {
        const site = { file: file.path, offset, height, reason: verdict.reason };
        if (!isLast) throw new StorageCorruptionError({ ...site, extra: { segmentIsLast: false } });
        const goodAt = await findNextGoodRecord(reader, offset + 1, recordBytesMax);
        if (goodAt !== undefined)
          throw new StorageCorruptionError({ ...site, extra: { goodRecordAt: goodAt } });
        return offset;
      }
      const record = decodePayload(verdict.payload);
      if (record.height !== height) {
        const extra = { recordHeight: record.height };
        throw new StorageCorruptionError({
          file: file.path,
          offset,
          height,
          reason: 'height_discontinuity',
          extra,
        });
      }
      if (!bytesEqual(record.prevHash, tipHash)) {
        throw new StorageCorruptionError({ file: file.path, offset, height, reason: 'hash_linkage' });
      }
      tipHash.set(record.hash);
      index.add(offset, verdict.totalBytes);
      offset += verdict.totalBytes;
    }
    // examineRecord never accepts a record running past the file: the scan ends exactly at its end.
    assert(offset === reader.size, `recovery: scan of ${file.path} ended at ${offset} of ${reader.size}`);
    return undefined;
  } finally {
    await handle.close();
  }
}

async function truncateTail(file: SegmentFile, tornAt: number, opts: RecoveryOptions): Promise<number> {
  const handle = await open(file.path, 'r+');
  try {
    const size = (await handle.stat()).size;
    assert(tornAt >= 0 && tornAt < size, `recovery: cut at ${tornAt} of a ${size}-byte segment`);
    await handle.truncate(tornAt);
    if (opts.fsync) await handle.sync();
    // After recovery the segment ends at a complete record: where the last good one ends.
    const after = (await handle.stat()).size;
    assert(after === tornAt, `recovery: cut at ${tornAt}, the segment holds ${after} bytes`);
    opts.failPoints.hit('blocklog.recovery-truncated');
    return size - tornAt;
  } finally {
    await handle.close();
  }
}
