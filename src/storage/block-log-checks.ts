// Option defaults and the checks an append must pass before a byte is written. A failed check is
// caller misuse and throws a typed StorageError; the log on disk is untouched.

import { assert } from '../util/assert.js';
import type { FailPoints } from '../util/failpoints.js';
import { noFailPoints } from '../util/failpoints.js';
import { bytesEqual } from '../util/hex.js';
import { StorageError } from './errors.js';
import type { BlockRecord } from './record.js';
import { HASH_BYTES, PAYLOAD_FIXED_BYTES } from './record.js';

const MIB = 1024 * 1024;

export interface BlockLogOptions {
  /** A new segment starts when the next batch would push the current one past this. */
  segmentBytesMax: number;
  /** Largest payload (height + hashes + block bytes) written or accepted when reading. */
  recordBytesMax: number;
  /** fsync data and directories; false only for tests and benchmarks. */
  fsync: boolean;
  failPoints?: FailPoints;
}

export const BLOCK_LOG_DEFAULTS = {
  segmentBytesMax: 128 * MIB,
  recordBytesMax: 64 * MIB,
  fsync: true,
} as const;

/** Upper bound for `recordBytesMax`: a payload must fit one Buffer and a u32 length field. */
export const RECORD_BYTES_MAX_CEILING = 1024 * MIB;

export interface ResolvedBlockLogOptions {
  segmentBytesMax: number;
  recordBytesMax: number;
  fsync: boolean;
  failPoints: FailPoints;
}

export function resolveBlockLogOptions(opts: Partial<BlockLogOptions> = {}): ResolvedBlockLogOptions {
  const resolved = {
    segmentBytesMax: opts.segmentBytesMax ?? BLOCK_LOG_DEFAULTS.segmentBytesMax,
    recordBytesMax: opts.recordBytesMax ?? BLOCK_LOG_DEFAULTS.recordBytesMax,
    fsync: opts.fsync ?? BLOCK_LOG_DEFAULTS.fsync,
    failPoints: opts.failPoints ?? noFailPoints,
  };
  const { segmentBytesMax, recordBytesMax } = resolved;
  if (!Number.isSafeInteger(segmentBytesMax) || segmentBytesMax < 1) {
    throw new StorageError('storage_invalid_options', 'segmentBytesMax must be a positive integer', {
      segmentBytesMax,
    });
  }
  if (
    !Number.isSafeInteger(recordBytesMax) ||
    recordBytesMax < PAYLOAD_FIXED_BYTES ||
    recordBytesMax > RECORD_BYTES_MAX_CEILING
  ) {
    throw new StorageError(
      'storage_invalid_options',
      `recordBytesMax must be an integer in [${PAYLOAD_FIXED_BYTES}, ${RECORD_BYTES_MAX_CEILING}]`,
      { recordBytesMax },
    );
  }
  return resolved;
}

/**
 * Checks a batch against the current tip: consecutive heights from `height + 1`, 32-byte hashes,
 * each prevHash equal to the previous record's hash (genesis: 32 zero bytes), payloads within the
 * limit. The whole batch is checked before anything is written.
 */
export function checkBatch(
  records: readonly BlockRecord[],
  height: number,
  tipHash: Uint8Array,
  recordBytesMax: number,
): void {
  // The tip the caller checks against is its own: a safe height and a 32-byte hash (zeros before genesis).
  assert(
    Number.isSafeInteger(height) && height >= 0 && tipHash.length === HASH_BYTES,
    `block log: batch checked against height ${height} with a ${tipHash.length}-byte tip hash`,
  );
  let expected = height + 1;
  let prev = tipHash;
  for (const [i, r] of records.entries()) {
    const at = { index: i, height: r.height, expectedHeight: expected };
    if (r.height !== expected) {
      throw new StorageError(
        'storage_invalid_append',
        `record ${i}: height ${r.height}, expected ${expected}`,
        at,
      );
    }
    if (r.hash.length !== HASH_BYTES || r.prevHash.length !== HASH_BYTES) {
      throw new StorageError(
        'storage_invalid_append',
        `record ${i}: hash and prevHash must be ${HASH_BYTES} bytes`,
        at,
      );
    }
    if (!bytesEqual(r.prevHash, prev)) {
      throw new StorageError(
        'storage_invalid_append',
        `record ${i}: prevHash does not match the previous block's hash`,
        at,
      );
    }
    const payloadBytes = PAYLOAD_FIXED_BYTES + r.bytes.length;
    if (payloadBytes > recordBytesMax) {
      throw new StorageError(
        'storage_record_too_large',
        `record ${i}: ${payloadBytes} bytes exceeds recordBytesMax`,
        {
          ...at,
          payloadBytes,
          recordBytesMax,
        },
      );
    }
    prev = r.hash;
    expected += 1;
  }
}
