// Typed storage errors. Operating errors carry a stable string `code`;
// corruption additionally says where (file, byte offset, height) and what was wrong.

import { assert } from '../util/assert.js';

export type StorageErrorCode =
  | 'storage_corruption'
  | 'storage_invalid_append'
  | 'storage_record_too_large'
  | 'storage_invalid_height'
  | 'storage_invalid_key'
  | 'storage_invalid_commit'
  | 'storage_invalid_options'
  | 'storage_closed'
  | 'storage_failed';

export class StorageError extends Error {
  override readonly name: string = 'StorageError';
  constructor(
    readonly code: StorageErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    // Codes are stable identifiers (docs/errors.md): lower snake case under the storage_ prefix.
    assert(/^storage_[a-z_]+$/.test(code), `storage error code ${code}`);
  }
}

/** What was wrong with the bytes found on disk. */
export type CorruptionReason =
  | 'bad_magic'
  | 'length_out_of_range'
  | 'short_record'
  | 'checksum_mismatch'
  | 'height_discontinuity'
  | 'hash_linkage'
  | 'unexpected_segment'
  | 'state_meta_invalid'
  /** The block log's base file (block-log-base.ts) does not parse. */
  | 'base_invalid'
  /** A record whose checksum holds but whose payload does not decode (evidence file). */
  | 'undecodable_record';

export interface CorruptionSite {
  /** The file holding the bad bytes. */
  file: string;
  /** Byte offset of the bad record (or field) in that file. */
  offset: number;
  /** The height the bad record should have had, when known. */
  height: number | undefined;
  reason: CorruptionReason;
  /** Extra facts, e.g. the offset of a good record found after the bad one. */
  extra?: Readonly<Record<string, unknown>>;
}

/**
 * Committed history is damaged. The node must refuse to start (docs/design/testing.md "Durability
 * discipline" rule 3); storage never repairs this by dropping records.
 */
export class StorageCorruptionError extends StorageError {
  override readonly name = 'StorageCorruptionError';
  override readonly code = 'storage_corruption' as const;
  readonly file: string;
  readonly offset: number;
  readonly height: number | undefined;
  readonly reason: CorruptionReason;

  constructor(site: CorruptionSite) {
    // Where: a byte offset in a named file, and a height only when one is known.
    assert(
      site.file !== '' && Number.isSafeInteger(site.offset) && site.offset >= 0,
      `corruption at ${site.file}:${site.offset}`,
    );
    const at = site.height === undefined ? '' : ` (height ${site.height})`;
    super(
      'storage_corruption',
      `storage corrupt: ${site.reason} in ${site.file} at byte ${site.offset}${at}`,
      {
        file: site.file,
        offset: site.offset,
        height: site.height,
        reason: site.reason,
        ...site.extra,
      },
    );
    this.file = site.file;
    this.offset = site.offset;
    this.height = site.height;
    this.reason = site.reason;
  }
}
