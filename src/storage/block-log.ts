// The durable block log: append-only segment files of checksummed, hash-chained records
// (docs/design/architecture.md; docs/design/testing.md "Durability discipline"). A batch is written, fsynced once
// (group commit), and only then indexed and visible to readers, so nothing a caller was told is
// durable can be lost by a crash, and nothing unsynced is ever served.

import { closeSync, openSync, readSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { mkdir, open } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { assert } from '../util/assert.js';
import type { BlockIndex, IndexedSegment, RecordLocation } from './block-index.js';
import type { BlockLogOptions, ResolvedBlockLogOptions } from './block-log-checks.js';
import { checkBatch, resolveBlockLogOptions } from './block-log-checks.js';
import type { BlockStore } from './block-store.js';
import { StorageCorruptionError, StorageError } from './errors.js';
import { ReadHandles } from './read-handles.js';
import type { BlockRecord, RecordVerdict } from './record.js';
import {
  decodePayload,
  encodeRecords,
  examineBytes,
  HASH_BYTES,
  HEADER_BYTES,
  PAYLOAD_FIXED_BYTES,
  recordBytes,
} from './record.js';
import { recoverBlockLog } from './recovery.js';
import { BLOCKS_DIR, createSegment, readUpTo, syncDirectory, writeFully } from './segment-files.js';
import { examineRecord, SegmentReader } from './segment-reader.js';

export type { BlockLogOptions } from './block-log-checks.js';
export type { BlockRecord } from './record.js';

export interface OpenReport {
  height: number;
  tipHash: Uint8Array | undefined;
  /** Bytes cut from the end of the last segment (a torn write from a crash). */
  truncatedTailBytes: number;
  segments: number;
  scannedRecords: number;
}

export class BlockLog implements BlockStore {
  private readonly readHandles = new ReadHandles();
  /** Appends run one at a time: each waits for the previous one to settle. */
  private appendTail: Promise<void> = Promise.resolve();
  private closed = false;
  /** Set when a write or fsync failed: the file's tail is unknown until a reopen recovers it. */
  private failure: unknown;
  /**
   * Bytes of the active segment known durable (written and, with fsync, synced): the index is never
   * extended past them, so no reader is ever handed a record a crash could still take away.
   */
  private durableEnd: number;

  private constructor(
    private readonly blocksDir: string,
    private readonly opts: ResolvedBlockLogOptions,
    private readonly index: BlockIndex,
    private active: { segment: IndexedSegment; handle: FileHandle },
    private tip: Uint8Array,
  ) {
    assert(
      active.segment === index.segments.at(-1) && tip.length === HASH_BYTES,
      'block log: the active segment must be the last indexed one, the tip a 32-byte hash',
    );
    this.durableEnd = active.segment.endOffset;
  }

  /** Opens (creating if needed) `<dir>/blocks/`, verifying every record; see recovery.ts. */
  static async open(
    dir: string,
    options?: Partial<BlockLogOptions>,
  ): Promise<{ log: BlockLog; report: OpenReport }> {
    const opts = resolveBlockLogOptions(options);
    const blocksDir = resolve(dir, BLOCKS_DIR);
    // 0700: the data directory is the node's alone, even under umask 000.
    const created = await mkdir(blocksDir, { recursive: true, mode: 0o700 });
    if (opts.fsync && created !== undefined) await syncNewDirectories(resolve(created), blocksDir);
    const recovered = await recoverBlockLog(blocksDir, opts);
    const { index } = recovered;
    let segment = index.segments.at(-1);
    let handle: FileHandle;
    if (segment === undefined) {
      const created = await createSegment(blocksDir, index.first, opts.fsync, opts.failPoints);
      segment = index.addSegment(created.file);
      handle = created.handle;
    } else {
      handle = await open(segment.file.path, 'r+');
      // Recovery cut any torn tail: the file ends exactly where its last indexed record does.
      const size = (await handle.stat()).size;
      if (size !== segment.endOffset) await handle.close();
      assert(
        size === segment.endOffset,
        `block log: segment ${segment.firstHeight} holds ${size} bytes, its records end at ${segment.endOffset}`,
      );
    }
    const log = new BlockLog(blocksDir, opts, index, { segment, handle }, recovered.tipHash);
    const report: OpenReport = {
      height: index.height,
      tipHash: log.tipHash,
      truncatedTailBytes: recovered.truncatedTailBytes,
      segments: index.segments.length,
      scannedRecords: recovered.scannedRecords,
    };
    return { log, report };
  }

  /** The first height the log holds: 1, or the base of a log restored from a snapshot. */
  get firstHeight(): number {
    return this.index.first;
  }

  /** The last durable height; 0 when the log is empty. */
  get height(): number {
    // Appends go to the last indexed segment, so the height is where that segment ends.
    const last = this.active.segment;
    assert(
      last === this.index.segments.at(-1) && this.index.height === last.firstHeight + last.count - 1,
      `block log: height ${this.index.height}, the active segment holds ${last.firstHeight}+${last.count}`,
    );
    return this.index.height;
  }

  /** The hash of the last durable record (a copy), or undefined when the log is empty. */
  get tipHash(): Uint8Array | undefined {
    assert(this.tip.length === HASH_BYTES, `block log: a ${this.tip.length}-byte tip hash`);
    return this.index.height === 0 ? undefined : new Uint8Array(this.tip);
  }

  /**
   * Writes the records after the tip, fsyncs once, and resolves when they are durable and readable.
   * Throws StorageError `storage_invalid_append` / `storage_record_too_large` (nothing written) or
   * `storage_failed` (an I/O error; the log refuses further appends until reopened).
   */
  append(records: readonly BlockRecord[]): Promise<void> {
    const run = this.appendTail.then(() => this.appendNow(records));
    this.appendTail = run.catch(() => undefined);
    return run;
  }

  private async appendNow(records: readonly BlockRecord[]): Promise<void> {
    this.checkOpen();
    if (this.failure !== undefined) {
      throw new StorageError('storage_failed', 'an earlier write failed; reopen the block log to recover', {
        cause: String(this.failure),
      });
    }
    if (records.length === 0) return;
    checkBatch(records, this.index.height, this.tip, this.opts.recordBytesMax);
    // Everything taken from the caller's arrays is captured now, before the first await.
    // (`new Uint8Array(x)` copies; `Buffer#slice` would not.)
    const bytes = encodeRecords(records);
    const sizes = records.map(recordBytes);
    // The index will place the records by these sizes: together they are exactly the bytes written.
    assert(
      sizes.reduce((a, b) => a + b, 0) === bytes.length,
      `block log: ${records.length} records of ${bytes.length} bytes indexed by other sizes`,
    );
    const newTip = new Uint8Array(records.at(-1)!.hash);
    try {
      await this.writeDurably(bytes);
    } catch (e) {
      this.failure = e;
      throw new StorageError('storage_failed', `block log write failed: ${String(e)}`, { cause: String(e) });
    }
    // Published only now: readers never see a record before it is durable.
    const heightBefore = this.index.height;
    assert(
      heightBefore + 1 === records[0]!.height,
      `block log: batch from height ${records[0]!.height} onto height ${heightBefore} after its write`,
    );
    let offset = this.active.segment.endOffset;
    for (const size of sizes) {
      assert(
        offset + size <= this.durableEnd,
        `block log: record ${this.index.height + 1} at ${offset}+${size} would be indexed past the durable ${this.durableEnd} bytes`,
      );
      this.index.add(offset, size);
      offset += size;
    }
    assert(
      this.index.height === heightBefore + records.length && this.active.segment.endOffset === offset,
      `block log: ${records.length} records took the height from ${heightBefore} to ${this.index.height}`,
    );
    this.tip = newTip;
  }

  private async writeDurably(bytes: Uint8Array): Promise<void> {
    const fp = this.opts.failPoints;
    const current = this.active.segment;
    if (current.endOffset > 0 && current.endOffset + bytes.length > this.opts.segmentBytesMax)
      await this.roll();
    const { handle, segment } = this.active;
    // A segment passes segmentBytesMax only by one batch that starts it; writes go where the index ends.
    assert(
      bytes.length > 0 &&
        (segment.endOffset === 0 || segment.endOffset + bytes.length <= this.opts.segmentBytesMax) &&
        segment.endOffset === this.durableEnd,
      `block log: ${bytes.length} bytes at ${segment.endOffset} of segment ${segment.firstHeight} (durable to ${this.durableEnd})`,
    );
    fp.hit('blocklog.before-write');
    // Two writes instead of one so that the `blocklog.mid-write` fail point can leave a genuinely
    // torn record on disk; the extra syscall is negligible next to the fsync.
    const half = bytes.length >>> 1;
    await writeFully(handle, bytes.subarray(0, half), segment.endOffset);
    fp.hit('blocklog.mid-write');
    await writeFully(handle, bytes.subarray(half), segment.endOffset + half);
    fp.hit('blocklog.after-write');
    if (this.opts.fsync) await handle.datasync();
    this.durableEnd = segment.endOffset + bytes.length;
    fp.hit('blocklog.after-fsync');
  }

  /** Starts a new segment named after the next height; the old one is already fsynced. */
  private async roll(): Promise<void> {
    const previous = this.active.segment;
    const created = await createSegment(
      this.blocksDir,
      this.index.height + 1,
      this.opts.fsync,
      this.opts.failPoints,
    );
    const old = this.active.handle;
    assert(
      previous.endOffset === this.durableEnd,
      `block log: rolling segment ${previous.firstHeight} with ${this.durableEnd - previous.endOffset} unindexed bytes`,
    );
    this.active = { segment: this.index.addSegment(created.file), handle: created.handle };
    this.durableEnd = 0;
    assert(
      created.file.firstHeight === previous.firstHeight + previous.count && previous.count > 0,
      `block log: segment ${created.file.firstHeight} rolled after segment ${previous.firstHeight} of ${previous.count} records`,
    );
    await old.close();
  }

  /** The record at `height`, or undefined when it is not (yet) in the log. Verifies the checksum. */
  async read(height: number): Promise<BlockRecord | undefined> {
    this.checkOpen();
    const at = this.index.locate(height);
    if (at === undefined) return undefined;
    assertWithinSegment(at, height);
    // Fsync ordering, read side: nothing past the synced bytes of the active segment is ever served.
    assert(
      at.segment !== this.active.segment || at.offset + at.size <= this.durableEnd,
      `block log: record ${height} at ${at.offset}+${at.size} past the durable ${this.durableEnd} bytes`,
    );
    const path = at.segment.file.path;
    const bytes = await this.readHandles.use(path, (h) => readUpTo(h, at.offset, at.size));
    assert(
      bytes.length <= at.size,
      `block log: read ${bytes.length} bytes of the ${at.size} of record ${height}`,
    );
    return verifiedRecord(examineBytes(bytes, this.opts.recordBytesMax), path, at.offset, height, false);
  }

  /**
   * The same as `read`, synchronously (positioned read on a short-lived descriptor). For callers that
   * cannot await, such as query execution over committed blocks; verifies the checksum likewise.
   */
  readSync(height: number): BlockRecord | undefined {
    this.checkOpen();
    const at = this.index.locate(height);
    if (at === undefined) return undefined;
    assertWithinSegment(at, height);
    // Fsync ordering, read side: nothing past the synced bytes of the active segment is ever served.
    assert(
      at.segment !== this.active.segment || at.offset + at.size <= this.durableEnd,
      `block log: record ${height} at ${at.offset}+${at.size} past the durable ${this.durableEnd} bytes`,
    );
    const path = at.segment.file.path;
    const fd = openSync(path, 'r');
    let bytes: Uint8Array;
    try {
      const buf = new Uint8Array(at.size);
      const n = readSync(fd, buf, 0, at.size, at.offset);
      assert(n >= 0 && n <= at.size, `block log: read ${n} bytes of the ${at.size} of record ${height}`);
      bytes = buf.subarray(0, n);
    } finally {
      closeSync(fd);
    }
    return verifiedRecord(examineBytes(bytes, this.opts.recordBytesMax), path, at.offset, height, false);
  }

  /**
   * Records `fromHeight..toHeight` (default: the height when called) in order, one segment read
   * sequentially through a bounded window at a time.
   */
  async *iterate(fromHeight: number, toHeight?: number): AsyncIterable<BlockRecord> {
    this.checkOpen();
    if (!Number.isSafeInteger(fromHeight) || (toHeight !== undefined && !Number.isSafeInteger(toHeight))) {
      throw new StorageError('storage_invalid_height', 'iterate needs integer heights', {
        fromHeight,
        toHeight,
      });
    }
    const last = Math.min(toHeight ?? this.index.height, this.index.height);
    let height = Math.max(this.index.first, fromHeight);
    while (height <= last) {
      const first = this.index.locate(height);
      assert(first !== undefined, `block log: height ${height} of ${this.index.height} is not indexed`);
      const segment = first.segment;
      const end = Math.min(last, segment.firstHeight + segment.count - 1);
      assert(
        end >= height && (segment !== this.active.segment || segment.endOffset <= this.durableEnd),
        `block log: segment ${segment.firstHeight} ends before height ${height} or past its durable bytes`,
      );
      const handle = await open(segment.file.path, 'r');
      try {
        const reader = new SegmentReader(handle, segment.endOffset);
        let next = segment.offsetOf(height);
        for (; height <= end; height += 1) {
          const offset = segment.offsetOf(height);
          // Records of a segment are indexed back to back: each starts where the one before ends.
          assert(
            offset === next,
            `block log: record ${height} at ${offset}, the previous one ends at ${next}`,
          );
          next = offset + segment.sizeOf(height);
          const verdict = await examineRecord(reader, offset, this.opts.recordBytesMax);
          // The window is reused, so the record must not keep views into it.
          yield verifiedRecord(verdict, segment.file.path, offset, height, true);
        }
      } finally {
        await handle.close();
      }
    }
  }

  /** Waits for appends in flight, then releases every file. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.appendTail;
    await this.active.handle.close();
    await this.readHandles.closeAll();
  }

  private checkOpen(): void {
    if (this.closed) throw new StorageError('storage_closed', 'the block log is closed');
  }
}

/** An indexed record lies wholly within the durable bytes of its segment, and is at least a header long. */
function assertWithinSegment(at: RecordLocation, height: number): void {
  assert(
    at.offset >= 0 &&
      at.size >= HEADER_BYTES + PAYLOAD_FIXED_BYTES &&
      at.offset + at.size <= at.segment.endOffset,
    `block log: record ${height} at ${at.offset}+${at.size} outside segment ${at.segment.firstHeight} ` +
      `(${at.segment.endOffset} bytes)`,
  );
}

/** Turns a verdict into a record, or into a corruption error naming the file and offset. */
function verifiedRecord(
  verdict: RecordVerdict,
  file: string,
  offset: number,
  height: number,
  copy: boolean,
): BlockRecord {
  // The height asked for and the offset are the index's own.
  assert(
    Number.isSafeInteger(height) && height >= 1 && offset >= 0,
    `block log: record ${height} at ${offset}`,
  );
  if (!verdict.ok) throw new StorageCorruptionError({ file, offset, height, reason: verdict.reason });
  const record = decodePayload(copy ? new Uint8Array(verdict.payload) : verdict.payload);
  if (record.height !== height) {
    const extra = { recordHeight: record.height };
    throw new StorageCorruptionError({ file, offset, height, reason: 'height_discontinuity', extra });
  }
  return record;
}

/** fsyncs the parent of every directory `mkdir -p` created, so their entries survive a power cut. */
async function syncNewDirectories(firstCreated: string, deepest: string): Promise<void> {
  // `mkdir -p` created `firstCreated` and everything below it down to `deepest`: the walk up ends there.
  assert(
    deepest === firstCreated || deepest.startsWith(`${firstCreated}${sep}`),
    `block log: ${deepest} is not below the created ${firstCreated}`,
  );
  let dir = deepest;
  for (;;) {
    await syncDirectory(dirname(dir));
    if (dir === firstCreated || dirname(dir) === dir) return;
    dir = dirname(dir);
  }
}
