// Byte layout of one block log record (docs/design/testing.md "Durability discipline" rule 1; README.md in
// this folder has the table). Everything little-endian:
//   magic u32 | payloadLength u32 | checksum u32 = CRC32C(payloadLength bytes ‖ payload) | payload
//   payload = height u64 | hash [32] | prevHash [32] | block bytes (opaque)
// The checksum covers the length so that a flipped length bit is caught even when the bytes it
// points at happen to look plausible.

import { crc32c } from '../codec/crc32c.js';
import { assert } from '../util/assert.js';

export const RECORD_MAGIC = 0x52414e54; // bytes 54 4E 41 52 on disk, "TNAR"
export const HEADER_BYTES = 12;
export const HASH_BYTES = 32;
/** height + hash + prevHash: the smallest legal payload (a block with no bytes). */
export const PAYLOAD_FIXED_BYTES = 8 + HASH_BYTES + HASH_BYTES;

export interface BlockRecord {
  /** 1 for genesis; consecutive. Heights stay below 2^53. */
  height: number;
  hash: Uint8Array;
  prevHash: Uint8Array;
  /** The encoded block; storage never looks inside. */
  bytes: Uint8Array;
}

export type HeaderVerdict =
  | { ok: true; payloadLength: number }
  | { ok: false; reason: 'bad_magic' | 'length_out_of_range' };

/** Checks magic and length before anything is allocated for the payload. */
export function checkHeader(header: Uint8Array, recordBytesMax: number): HeaderVerdict {
  // Callers hand over a whole header (a short file is their `short_record`, decided before).
  assert(header.length >= HEADER_BYTES, `record header of ${header.length} bytes`);
  const view = new DataView(header.buffer, header.byteOffset, HEADER_BYTES);
  if (view.getUint32(0, true) !== RECORD_MAGIC) return { ok: false, reason: 'bad_magic' };
  const payloadLength = view.getUint32(4, true);
  if (payloadLength < PAYLOAD_FIXED_BYTES || payloadLength > recordBytesMax) {
    return { ok: false, reason: 'length_out_of_range' };
  }
  return { ok: true, payloadLength };
}

/** True when the stored checksum matches CRC32C(length bytes ‖ payload). */
export function checksumMatches(header: Uint8Array, payload: Uint8Array): boolean {
  const view = new DataView(header.buffer, header.byteOffset, HEADER_BYTES);
  // The payload handed over is exactly the one the (already checked) length field declares.
  assert(
    payload.length === view.getUint32(4, true),
    `checksum over ${payload.length} payload bytes, the header declares ${view.getUint32(4, true)}`,
  );
  return view.getUint32(8, true) === crc32c(payload, crc32c(header.subarray(4, 8)));
}

/**
 * Reads the payload's fixed fields. `hash`, `prevHash` and `bytes` are views into `payload`; copy
 * them if the buffer is reused. The height is exact below 2^53 and otherwise merely huge, which the
 * continuity check then rejects.
 */
export function decodePayload(payload: Uint8Array): BlockRecord {
  // Only a payload whose length checkHeader accepted gets here.
  assert(payload.length >= PAYLOAD_FIXED_BYTES, `record payload of ${payload.length} bytes`);
  const view = new DataView(payload.buffer, payload.byteOffset, payload.length);
  const height = view.getUint32(4, true) * 2 ** 32 + view.getUint32(0, true);
  return {
    height,
    hash: payload.subarray(8, 8 + HASH_BYTES),
    prevHash: payload.subarray(8 + HASH_BYTES, PAYLOAD_FIXED_BYTES),
    bytes: payload.subarray(PAYLOAD_FIXED_BYTES),
  };
}

export type RecordDefect = 'bad_magic' | 'length_out_of_range' | 'short_record' | 'checksum_mismatch';
export type RecordVerdict =
  | { ok: true; totalBytes: number; payload: Uint8Array }
  | { ok: false; reason: RecordDefect };

/** Decides whether `bytes` starts with one complete, checksummed record (more bytes may follow). */
export function examineBytes(bytes: Uint8Array, recordBytesMax: number): RecordVerdict {
  if (bytes.length < HEADER_BYTES) return { ok: false, reason: 'short_record' };
  const verdict = checkHeader(bytes, recordBytesMax);
  if (!verdict.ok) return verdict;
  const totalBytes = HEADER_BYTES + verdict.payloadLength;
  if (totalBytes > bytes.length) return { ok: false, reason: 'short_record' };
  const payload = bytes.subarray(HEADER_BYTES, totalBytes);
  if (!checksumMatches(bytes, payload)) return { ok: false, reason: 'checksum_mismatch' };
  assert(
    totalBytes <= bytes.length && payload.length === verdict.payloadLength,
    `record of ${totalBytes} bytes verified within ${bytes.length}`,
  );
  return { ok: true, totalBytes, payload };
}

export function recordBytes(record: BlockRecord): number {
  return HEADER_BYTES + PAYLOAD_FIXED_BYTES + record.bytes.length;
}

/** Encodes records back to back into one buffer, so a batch is one write and one fsync. */
export function encodeRecords(records: readonly BlockRecord[]): Uint8Array {
  let total = 0;
  for (const r of records) total += recordBytes(r);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  let at = 0;
  for (const r of records) {
    assert(
      Number.isSafeInteger(r.height) &&
        r.height >= 1 &&
        r.hash.length === HASH_BYTES &&
        r.prevHash.length === HASH_BYTES,
      `block log record ${r.height}: height or hash lengths out of range (checked before encoding)`,
    );
    const payloadLength = PAYLOAD_FIXED_BYTES + r.bytes.length;
    const p = at + HEADER_BYTES;
    view.setUint32(at, RECORD_MAGIC, true);
    view.setUint32(at + 4, payloadLength, true);
    view.setUint32(p, r.height % 2 ** 32, true);
    view.setUint32(p + 4, Math.floor(r.height / 2 ** 32), true);
    out.set(r.hash, p + 8);
    out.set(r.prevHash, p + 8 + HASH_BYTES);
    out.set(r.bytes, p + PAYLOAD_FIXED_BYTES);
    const payload = out.subarray(p, p + payloadLength);
    view.setUint32(at + 8, crc32c(payload, crc32c(out.subarray(at + 4, at + 8))), true);
    at = p + payloadLength;
  }
  assert(at === total, `block log records: wrote ${at} bytes of ${total}`);
  return out;
}
