// Segment file naming and the low-level file operations of the block log: listing, creating a new
// segment durably (file fsync + directory fsync, docs/design/testing.md "Durability discipline"
// rule 2), and
// positional reads and writes that loop until every byte is transferred.

import type { FileHandle } from 'node:fs/promises';
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { assert } from '../util/assert.js';
import type { FailPoints } from '../util/failpoints.js';

export const BLOCKS_DIR = 'blocks';
const SEGMENT_NAME = /^seg-(\d{12})\.log$/;
const HEIGHT_DIGITS = 12;

export interface SegmentFile {
  /** Height of the first record in the file; the file name says it. */
  firstHeight: number;
  path: string;
}

export function segmentFileName(firstHeight: number): string {
  // A 13th digit would make a name `listSegments` does not match: the segment would vanish on reopen.
  assert(
    Number.isSafeInteger(firstHeight) && firstHeight >= 1 && firstHeight < 10 ** HEIGHT_DIGITS,
    `segment first height ${firstHeight} does not fit ${HEIGHT_DIGITS} digits`,
  );
  return `seg-${String(firstHeight).padStart(HEIGHT_DIGITS, '0')}.log`;
}

/** Segment files in `blocksDir`, in height order. Other files are ignored. */
export async function listSegments(blocksDir: string): Promise<SegmentFile[]> {
  const out: SegmentFile[] = [];
  for (const name of await readdir(blocksDir)) {
    const m = SEGMENT_NAME.exec(name);
    if (m === null) continue;
    out.push({ firstHeight: Number(m[1]), path: join(blocksDir, name) });
  }
  out.sort((a, b) => a.firstHeight - b.firstHeight);
  // Fixed-width names are distinct numbers: the order is strict (recovery checks the heights follow on).
  for (let i = 1; i < out.length; i++)
    assert(
      out[i - 1]!.firstHeight < out[i]!.firstHeight,
      `two segments named for height ${out[i]!.firstHeight}`,
    );
  return out;
}

/** Makes directory entries (a new file, a rename) durable: POSIX needs an fsync of the directory. */
export async function syncDirectory(path: string): Promise<void> {
  const dir = await open(path, 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

/**
 * Creates an empty segment and makes its existence durable before any record goes into it, so a
 * crash can never leave records in a file whose directory entry was lost.
 */
export async function createSegment(
  blocksDir: string,
  firstHeight: number,
  fsync: boolean,
  failPoints: FailPoints,
): Promise<{ handle: FileHandle; file: SegmentFile }> {
  assert(Number.isSafeInteger(firstHeight) && firstHeight >= 1, `segment first height ${firstHeight}`);
  const path = join(blocksDir, segmentFileName(firstHeight));
  // 0600 whatever the umask: blocks are only the node's to read.
  const handle = await open(path, 'wx+', 0o600);
  try {
    if (fsync) await handle.sync();
    failPoints.hit('blocklog.segment-created');
    if (fsync) await syncDirectory(blocksDir);
  } catch (e) {
    await handle.close();
    throw e;
  }
  return { handle, file: { firstHeight, path } };
}

export async function writeFully(handle: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  // Positions come from the index (where the last record ends).
  assert(Number.isSafeInteger(position) && position >= 0, `segment write at ${position}`);
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, position + done);
    // A write of zero bytes would loop forever; more than asked would be past the buffer.
    assert(
      bytesWritten > 0 && bytesWritten <= bytes.length - done,
      `segment write moved ${bytesWritten} bytes`,
    );
    done += bytesWritten;
  }
}

/** Reads exactly `length` bytes, or returns the shorter prefix the file has (end of file). */
export async function readUpTo(handle: FileHandle, position: number, length: number): Promise<Uint8Array> {
  assert(
    Number.isSafeInteger(position) && position >= 0 && Number.isSafeInteger(length) && length >= 0,
    `segment read of ${length} bytes at ${position}`,
  );
  const out = new Uint8Array(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(out, done, length - done, position + done);
    if (bytesRead === 0) break;
    assert(bytesRead <= length - done, `segment read returned ${bytesRead} bytes, ${length - done} asked`);
    done += bytesRead;
  }
  return done === length ? out : out.subarray(0, done);
}
