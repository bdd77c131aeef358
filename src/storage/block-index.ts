// In-memory index height → (segment, offset, size), rebuilt by the open-time scan. Heights are
// consecutive, so each segment keeps two growable typed arrays indexed by (height - firstHeight):
// 12 bytes per block, about 12 MB for a million blocks, with no per-block objects.

import { assert } from '../util/assert.js';
import { HEADER_BYTES, PAYLOAD_FIXED_BYTES } from './record.js';
import type { SegmentFile } from './segment-files.js';

const INITIAL_CAPACITY = 1024;

export class IndexedSegment {
  private offsets = new Float64Array(INITIAL_CAPACITY);
  private sizes = new Uint32Array(INITIAL_CAPACITY);
  count = 0;
  /** Bytes of valid records; new records go here. */
  endOffset = 0;

  constructor(readonly file: SegmentFile) {
    assert(
      Number.isSafeInteger(file.firstHeight) && file.firstHeight >= 1,
      `block index: segment first height ${file.firstHeight}`,
    );
  }

  get firstHeight(): number {
    return this.file.firstHeight;
  }

  add(offset: number, size: number): void {
    assert(offset === this.endOffset, 'block index: records must be added in file order');
    // Sizes live in a Uint32Array, which would wrap a larger one silently; a record is at least a header.
    assert(
      Number.isSafeInteger(size) && size >= HEADER_BYTES + PAYLOAD_FIXED_BYTES && size <= 0xffffffff,
      `block index: record size ${size}`,
    );
    if (this.count === this.offsets.length) {
      const offsets = new Float64Array(this.count * 2);
      offsets.set(this.offsets);
      const sizes = new Uint32Array(this.count * 2);
      sizes.set(this.sizes);
      this.offsets = offsets;
      this.sizes = sizes;
    }
    this.offsets[this.count] = offset;
    this.sizes[this.count] = size;
    this.count += 1;
    this.endOffset = offset + size;
  }

  // Past `count` the typed arrays hold stale zeros (or nothing): never read them as a record.
  offsetOf(height: number): number {
    const i = height - this.firstHeight;
    assert(i >= 0 && i < this.count, `block index: offset of ${height} outside segment ${this.firstHeight}`);
    return this.offsets[i]!;
  }

  sizeOf(height: number): number {
    const i = height - this.firstHeight;
    assert(i >= 0 && i < this.count, `block index: size of ${height} outside segment ${this.firstHeight}`);
    return this.sizes[i]!;
  }
}

export interface RecordLocation {
  segment: IndexedSegment;
  offset: number;
  size: number;
}

export class BlockIndex {
  readonly segments: IndexedSegment[] = [];
  height: number;

  /**
   * `first`: the lowest height the log holds, 1 unless it was restored from a snapshot at that height
   * (block-log-base.ts); the index is empty until its record is added.
   */
  constructor(readonly first = 1) {
    assert(Number.isSafeInteger(first) && first >= 1, `block index: first height ${first}`);
    this.height = first - 1;
  }

  addSegment(file: SegmentFile): IndexedSegment {
    assert(file.firstHeight === this.height + 1, 'block index: a segment must start at the next height');
    const segment = new IndexedSegment(file);
    this.segments.push(segment);
    return segment;
  }

  /** Adds the next height's record to the last segment. */
  add(offset: number, size: number): void {
    const last = this.segments.at(-1);
    assert(last !== undefined, 'block index: no segment');
    last.add(offset, size);
    this.height += 1;
    assert(
      this.height === last.firstHeight + last.count - 1,
      `block index: height ${this.height} but the last segment ends at ${last.firstHeight + last.count - 1}`,
    );
  }

  locate(height: number): RecordLocation | undefined {
    if (!Number.isSafeInteger(height) || height < this.first || height > this.height) return undefined;
    let lo = 0;
    let hi = this.segments.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.segments[mid]!.firstHeight <= height) lo = mid;
      else hi = mid - 1;
    }
    const segment = this.segments[lo]!;
    assert(
      height >= segment.firstHeight && height < segment.firstHeight + segment.count,
      'block index: height outside its segment',
    );
    return { segment, offset: segment.offsetOf(height), size: segment.sizeOf(height) };
  }
}
