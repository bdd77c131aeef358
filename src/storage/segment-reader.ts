// Sequential reading of one segment through a fixed window, so scanning a 128 MiB segment holds
// about one window plus one record in memory (brief: "sequential, bounded memory"). `examineRecord`
// is the single place that decides whether the bytes at an offset form a valid record; recovery,
// iteration and point reads all use it.

import type { FileHandle } from 'node:fs/promises';
import { assert } from '../util/assert.js';
import type { RecordVerdict } from './record.js';
import { checkHeader, examineBytes, HEADER_BYTES } from './record.js';
import { readUpTo } from './segment-files.js';

export const READ_WINDOW_BYTES = 1024 * 1024;

export class SegmentReader {
  private window: Uint8Array = new Uint8Array(0);
  private windowStart = 0;

  constructor(
    private readonly handle: FileHandle,
    /** File size when the reader was made; nothing past it is read. */
    readonly size: number,
    private readonly windowBytes = READ_WINDOW_BYTES,
  ) {
    assert(
      Number.isSafeInteger(size) && size >= 0 && windowBytes >= HEADER_BYTES,
      `segment reader of ${size} bytes through a ${windowBytes}-byte window`,
    );
  }

  /**
   * Up to `length` bytes at `offset` (fewer at end of file). The result may be a view into the
   * window and is valid only until the next call.
   */
  async read(offset: number, length: number): Promise<Uint8Array> {
    assert(
      Number.isSafeInteger(offset) && offset >= 0 && Number.isSafeInteger(length) && length >= 0,
      `segment read of ${length} bytes at ${offset}`,
    );
    const wanted = Math.max(0, Math.min(length, this.size - offset));
    if (wanted === 0) return new Uint8Array(0);
    const inWindow = offset >= this.windowStart && offset + wanted <= this.windowStart + this.window.length;
    if (inWindow) return this.window.subarray(offset - this.windowStart, offset - this.windowStart + wanted);
    if (wanted > this.windowBytes) return readUpTo(this.handle, offset, wanted);
    this.window = await readUpTo(this.handle, offset, Math.min(this.windowBytes, this.size - offset));
    this.windowStart = offset;
    // The window never holds more than asked for, nor reaches past the size the reader was made with.
    assert(
      this.window.length <= this.windowBytes && offset + this.window.length <= this.size,
      `segment reader: a ${this.window.length}-byte window at ${offset} of ${this.size}`,
    );
    return this.window.subarray(0, Math.min(wanted, this.window.length));
  }

  /**
   * The bytes from `offset` to the end of the current window, refilling it only when `offset` lies
   * outside. Lets a byte-by-byte search advance without a read per step. Valid until the next call.
   */
  async peek(offset: number): Promise<Uint8Array> {
    assert(Number.isSafeInteger(offset) && offset >= 0, `segment peek at ${offset}`);
    const end = this.windowStart + this.window.length;
    if (offset >= this.windowStart && offset < end) return this.window.subarray(offset - this.windowStart);
    return this.read(offset, this.windowBytes);
  }
}

/**
 * Decides whether a complete, checksummed record starts at `offset`. The length is bounded by
 * `recordBytesMax` and by the file size before the payload is read, so a damaged length field never
 * causes a large allocation. `payload` is valid until the reader's next call.
 */
export async function examineRecord(
  reader: SegmentReader,
  offset: number,
  recordBytesMax: number,
): Promise<RecordVerdict> {
  // Offsets come from the index or the scan, both inside the file.
  assert(offset >= 0 && offset <= reader.size, `record at ${offset} of a ${reader.size}-byte segment`);
  if (reader.size - offset < HEADER_BYTES) return { ok: false, reason: 'short_record' };
  const verdict = checkHeader(await reader.read(offset, HEADER_BYTES), recordBytesMax);
  if (!verdict.ok) return verdict;
  const totalBytes = HEADER_BYTES + verdict.payloadLength;
  if (totalBytes > reader.size - offset) return { ok: false, reason: 'short_record' };
  return examineBytes(await reader.read(offset, totalBytes), recordBytesMax);
}

const MAGIC_ON_DISK = Buffer.from([0x54, 0x4e, 0x41, 0x52]);

/**
 * The offset of the first valid record that starts after `from`, or undefined. Used after a bad
 * record: a good one behind it means committed history is damaged, not merely a torn tail.
 */
export async function findNextGoodRecord(
  reader: SegmentReader,
  from: number,
  recordBytesMax: number,
): Promise<number | undefined> {
  let pos = from;
  while (reader.size - pos >= HEADER_BYTES) {
    const chunk = await reader.peek(pos);
    const hit = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length).indexOf(MAGIC_ON_DISK);
    if (hit < 0) {
      // Keep the last 3 bytes: a magic may straddle the chunk boundary.
      pos += Math.max(1, chunk.length - (MAGIC_ON_DISK.length - 1));
      continue;
    }
    const candidate = pos + hit;
    assert(candidate >= pos && candidate < reader.size, `magic found at ${candidate} outside the search`);
    if ((await examineRecord(reader, candidate, recordBytesMax)).ok) return candidate;
    pos = candidate + 1;
  }
  return undefined;
}
