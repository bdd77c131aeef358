// The evidence file: an append-only log of evidence records in the node's data directory.
// Evidence is
// rare, so every append is fsynced before it counts as durable. The file follows the block log's recovery
// policy (src/storage/README.md "Recovery rules"): a short or bad record at the very end with no valid
// record after it is a torn append and is cut off; a bad record followed by a valid one is corruption and
// the open fails with `StorageCorruptionError` naming the file and offset. The file is only ever replaced
// whole (temp file, fsync, rename, directory fsync), which is how the store compacts it.
//
// Layout (little-endian):
//   header: "TEVF" | version u8 (1) | 3 zero bytes | dropped u64 | crc32c u32 of the first 16 bytes
//   record: "TEVR" | payload length u32 | crc32c u32 of (length bytes ‖ payload) | payload
// where the payload is the codec encoding of `EvidenceRecordCodec`, and `dropped` counts the records the
// store had dropped (full) before the ones this file holds.

import type { FileHandle } from 'node:fs/promises';
import { mkdir, open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { struct } from '../codec/compound.js';
import { crc32c } from '../codec/crc32c.js';
import { decode, encode } from '../codec/frame.js';
import { fixedBytes, string, varuint } from '../codec/primitives.js';
import { type CorruptionReason, StorageCorruptionError } from '../storage/errors.js';
import { assert } from '../util/assert.js';
import { type FailPoints, noFailPoints } from '../util/failpoints.js';
import { fromHex, toHex } from '../util/hex.js';
import { type Evidence, EvidenceCodec } from './evidence.js';

/** One stored record as the store keeps it in memory. */
export interface EvidenceEntry {
  /** Hex of `evidenceId`. */
  id: string;
  kind: Evidence['kind'];
  /** What the evidence proves (`double_vote`, the certificate problem of an InvalidQc, a proposal's reason). */
  finding: string;
  recordedAtMs: number;
  /** The chain height when the node recorded it. */
  recordedAtHeight: number;
  evidence: Evidence;
}

export const EvidenceRecordCodec = struct('EvidenceRecord', {
  id: fixedBytes(32),
  finding: string(64),
  recordedAtMs: varuint,
  recordedAtHeight: varuint,
  evidence: EvidenceCodec,
});

const FILE_MAGIC = Uint8Array.of(0x54, 0x45, 0x56, 0x46); // "TEVF"
const RECORD_MAGIC = Uint8Array.of(0x54, 0x45, 0x56, 0x52); // "TEVR"
const FILE_VERSION = 1;
export const EVIDENCE_FILE_HEADER_BYTES = 20;
const RECORD_HEADER_BYTES = 12;
/** Largest record payload: the largest accepted evidence plus id, finding and two counters. */
export const EVIDENCE_RECORD_BYTES_MAX = 8 * 1024 + 256;

export interface EvidenceFileOptions {
  /** Fsync appends and replacements (default true); false only for tests and benchmarks. */
  fsync?: boolean;
  /**
   * Steps: `evidence.after-write`, `evidence.after-fsync` (append); `evidence.rewrite-after-temp`,
   * `evidence.rewrite-after-rename` (replacement).
   */
  failPoints?: FailPoints;
}

export interface EvidenceFileContents {
  /** Every record, oldest first, as written (duplicates included; the store deduplicates). */
  records: EvidenceEntry[];
  /** Records dropped before the first one held here (from the header). */
  droppedBefore: number;
  /** Bytes of a torn last append cut off at open (0 when the file was whole). */
  truncatedTailBytes: number;
}

export function encodeEvidenceRecord(entry: EvidenceEntry): Uint8Array {
  const id = fromHex(entry.id, 32);
  assert(id !== undefined, `evidence id is not 32 bytes of hex: ${entry.id}`);
  const payload = encode(EvidenceRecordCodec, { ...entry, id });
  assert(payload.length <= EVIDENCE_RECORD_BYTES_MAX, 'evidence record over its limit');
  const out = new Uint8Array(RECORD_HEADER_BYTES + payload.length);
  const view = new DataView(out.buffer);
  out.set(RECORD_MAGIC, 0);
  view.setUint32(4, payload.length, true);
  out.set(payload, RECORD_HEADER_BYTES);
  view.setUint32(8, crc32c(payload, crc32c(out.subarray(4, 8))), true);
  return out;
}

export function encodeEvidenceFileHeader(droppedBefore: number): Uint8Array {
  assert(Number.isSafeInteger(droppedBefore) && droppedBefore >= 0, 'dropped count out of range');
  const out = new Uint8Array(EVIDENCE_FILE_HEADER_BYTES);
  const view = new DataView(out.buffer);
  out.set(FILE_MAGIC, 0);
  view.setUint8(4, FILE_VERSION);
  view.setBigUint64(8, BigInt(droppedBefore), true);
  view.setUint32(16, crc32c(out.subarray(0, 16)), true);
  return out;
}

type Examined = { ok: true; payload: Uint8Array; next: number } | { ok: false; reason: CorruptionReason };

function examineRecord(buf: Uint8Array, offset: number): Examined {
  assert(
    offset >= EVIDENCE_FILE_HEADER_BYTES && offset <= buf.length,
    `record offset ${offset} outside the file`,
  );
  if (buf.length - offset < RECORD_HEADER_BYTES) return { ok: false, reason: 'short_record' };
  if (!RECORD_MAGIC.every((b, i) => buf[offset + i] === b)) return { ok: false, reason: 'bad_magic' };
  const view = new DataView(buf.buffer, buf.byteOffset + offset, RECORD_HEADER_BYTES);
  const length = view.getUint32(4, true);
  if (length < 1 || length > EVIDENCE_RECORD_BYTES_MAX) return { ok: false, reason: 'length_out_of_range' };
  const next = offset + RECORD_HEADER_BYTES + length;
  if (next > buf.length) return { ok: false, reason: 'short_record' };
  const payload = buf.subarray(offset + RECORD_HEADER_BYTES, next);
  const sum = crc32c(payload, crc32c(buf.subarray(offset + 4, offset + 8)));
  if (sum !== view.getUint32(8, true)) return { ok: false, reason: 'checksum_mismatch' };
  return { ok: true, payload, next };
}

/** The offset of the first valid record at or after `from`, if any (used to tell a torn tail from rot). */
function findNextGoodRecord(buf: Uint8Array, from: number): number | undefined {
  assert(from > EVIDENCE_FILE_HEADER_BYTES, `searching for a record from offset ${from}, inside the header`);
  for (let at = buf.indexOf(RECORD_MAGIC[0]!, from); at >= 0; at = buf.indexOf(RECORD_MAGIC[0]!, at + 1))
    if (examineRecord(buf, at).ok) return at;
  return undefined;
}

const DECODE_LIMITS = { bytesMax: EVIDENCE_RECORD_BYTES_MAX, itemsMax: 64, depthMax: 16 };

function decodeEntry(path: string, offset: number, payload: Uint8Array): EvidenceEntry {
  const d = decode(EvidenceRecordCodec, payload, DECODE_LIMITS);
  if (!d.ok)
    throw new StorageCorruptionError({
      file: path,
      offset,
      height: undefined,
      reason: 'undecodable_record',
      extra: { codec: d.error.code },
    });
  return { ...d.value, id: toHex(d.value.id), kind: d.value.evidence.kind };
}

function readHeader(path: string, buf: Uint8Array): number {
  const corrupt = (reason: CorruptionReason) =>
    new StorageCorruptionError({ file: path, offset: 0, height: undefined, reason });
  if (buf.length < EVIDENCE_FILE_HEADER_BYTES) throw corrupt('short_record');
  if (!FILE_MAGIC.every((b, i) => buf[i] === b)) throw corrupt('bad_magic');
  const view = new DataView(buf.buffer, buf.byteOffset, EVIDENCE_FILE_HEADER_BYTES);
  if (view.getUint32(4, true) !== FILE_VERSION) throw corrupt('bad_magic');
  if (view.getUint32(16, true) !== crc32c(buf.subarray(0, 16))) throw corrupt('checksum_mismatch');
  const dropped = view.getBigUint64(8, true);
  if (dropped > BigInt(Number.MAX_SAFE_INTEGER)) throw corrupt('length_out_of_range');
  return Number(dropped);
}

/** Parses a whole file; returns its records and the offset of a torn tail to cut off, if any. */
export function scanEvidenceFile(
  path: string,
  buf: Uint8Array,
): { contents: EvidenceFileContents; tornAt: number | undefined } {
  const droppedBefore = readHeader(path, buf);
  const records: EvidenceEntry[] = [];
  let offset = EVIDENCE_FILE_HEADER_BYTES;
  while (offset < buf.length) {
    const r = examineRecord(buf, offset);
    if (!r.ok) {
      const goodAt = findNextGoodRecord(buf, offset + 1);
      if (goodAt !== undefined)
        throw new StorageCorruptionError({
          file: path,
          offset,
          height: undefined,
          reason: r.reason,
          extra: { goodRecordAt: goodAt },
        });
      return {
        contents: { records, droppedBefore, truncatedTailBytes: buf.length - offset },
        tornAt: offset,
      };
    }
    records.push(decodeEntry(path, offset, r.payload));
    // A whole record (header and at least one payload byte) lies between here and the next.
    assert(
      r.next > offset + RECORD_HEADER_BYTES && r.next <= buf.length,
      `evidence record at ${offset} ends at ${r.next}`,
    );
    offset = r.next;
  }
  // Recovered: the records end exactly where the file does.
  assert(offset === buf.length, `evidence records end at ${offset} of ${buf.length} bytes`);
  return { contents: { records, droppedBefore, truncatedTailBytes: 0 }, tornAt: undefined };
}

/** An open evidence file. Calls must not overlap: the store runs them one at a time. */
export class EvidenceFile {
  private constructor(
    readonly path: string,
    private handle: FileHandle,
    private size: number,
    private recordCount: number,
    private readonly fsync: boolean,
    private readonly failPoints: FailPoints,
  ) {
    assert(size >= EVIDENCE_FILE_HEADER_BYTES && recordCount >= 0, `an evidence file of ${size} bytes`);
  }

  /** Opens (creating an empty file if there is none), recovers a torn tail and reads every record. */
  static async open(
    path: string,
    opts: EvidenceFileOptions = {},
  ): Promise<{ file: EvidenceFile; contents: EvidenceFileContents }> {
    const fsync = opts.fsync ?? true;
    const failPoints = opts.failPoints ?? noFailPoints;
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    let handle = await openIfExists(path);
    if (handle === undefined || (await handle.stat()).size === 0) {
      await handle?.close();
      await replaceFile(path, [encodeEvidenceFileHeader(0)], fsync, failPoints);
      handle = await open(path, 'r+');
    }
    try {
      const buf = new Uint8Array(await handle.readFile());
      const { contents, tornAt } = scanEvidenceFile(path, buf);
      if (tornAt !== undefined) {
        await handle.truncate(tornAt);
        if (fsync) await handle.sync();
      }
      const size = tornAt ?? buf.length;
      assert(
        tornAt === undefined || tornAt >= EVIDENCE_FILE_HEADER_BYTES,
        `torn at ${tornAt}, in the header`,
      );
      const file = new EvidenceFile(path, handle, size, contents.records.length, fsync, failPoints);
      return { file, contents };
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  /** Records in the file, duplicates and dropped ones included (what compaction looks at). */
  get records(): number {
    return this.recordCount;
  }

  get bytes(): number {
    assert(this.size >= EVIDENCE_FILE_HEADER_BYTES, `an evidence file of ${this.size} bytes`);
    return this.size;
  }

  /** Appends records in one write and one fsync. */
  async append(entries: readonly EvidenceEntry[]): Promise<void> {
    if (entries.length === 0) return;
    // Records the store accepted: deduplicated, so one append never writes a record twice.
    assert(new Set(entries.map((e) => e.id)).size === entries.length, 'an evidence append repeats a record');
    const chunks = entries.map(encodeEvidenceRecord);
    const buf = Buffer.concat(chunks);
    for (let done = 0; done < buf.length; ) {
      const { bytesWritten } = await this.handle.write(buf, done, buf.length - done, this.size + done);
      assert(bytesWritten > 0, `an evidence write made no progress at ${done} of ${buf.length} bytes`);
      done += bytesWritten;
    }
    this.failPoints.hit('evidence.after-write');
    if (this.fsync) await this.handle.sync();
    this.failPoints.hit('evidence.after-fsync');
    this.size += buf.length;
    this.recordCount += entries.length;
  }

  /** Replaces the whole file by `entries` (temp file, fsync, rename, directory fsync). */
  async rewrite(entries: readonly EvidenceEntry[], droppedBefore: number): Promise<void> {
    // The store's records: deduplicated (a replacement never holds one record twice).
    assert(new Set(entries.map((e) => e.id)).size === entries.length, 'an evidence rewrite repeats a record');
    const chunks = [encodeEvidenceFileHeader(droppedBefore), ...entries.map(encodeEvidenceRecord)];
    await replaceFile(this.path, chunks, this.fsync, this.failPoints);
    const next = await open(this.path, 'r+');
    await this.handle.close();
    this.handle = next;
    this.size = chunks.reduce((n, c) => n + c.length, 0);
    this.recordCount = entries.length;
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

async function openIfExists(path: string): Promise<FileHandle | undefined> {
  try {
    return await open(path, 'r+');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

async function replaceFile(
  path: string,
  chunks: readonly Uint8Array[],
  fsync: boolean,
  failPoints: FailPoints,
): Promise<void> {
  assert(
    chunks[0]?.length === EVIDENCE_FILE_HEADER_BYTES && FILE_MAGIC.every((b, i) => chunks[0]![i] === b),
    'an evidence file replaced without its header first',
  );
  const tmp = `${path}.tmp`;
  const fh = await open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(Buffer.concat(chunks));
    if (fsync) await fh.sync();
  } finally {
    await fh.close();
  }
  failPoints.hit('evidence.rewrite-after-temp');
  await rename(tmp, path);
  failPoints.hit('evidence.rewrite-after-rename');
  if (!fsync) return;
  const dir = await open(dirname(path), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}
