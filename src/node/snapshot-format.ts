// The state snapshot file (docs/design/snapshots.md): the world-state rows at one certified height,
// that height's block with its commit certificate, a manifest and checksums. Written and read as a
// stream of sections, so neither side holds more than one section (at most SNAPSHOT_SECTION_BYTES_MAX)
// of the file in memory:
//   magic "TORSNAP" 0x01
//   section = u8 kind | u32 LE payload length | payload | u32 LE CRC32C(kind ‖ length ‖ payload)
//   MANIFEST (JSON), BLOCK (the block's codec bytes), COUNTERS (chain counters), ROWS*, END (JSON)
// A ROWS payload is rows back to back: u16 LE key length | key | u32 LE value length | value, keys
// strictly increasing across the whole file. END holds the row count and the SHA-256 of every byte
// before it.

import { createHash, type Hash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { crc32c } from '../codec/crc32c.js';
import { assert } from '../util/assert.js';

export const SNAPSHOT_MAGIC = Uint8Array.of(0x54, 0x4f, 0x52, 0x53, 0x4e, 0x41, 0x50, 0x01);
export const SNAPSHOT_FORMAT = 1;
/** The largest section a reader accepts (a block, or one batch of rows). */
export const SNAPSHOT_SECTION_BYTES_MAX = 64 * 1024 * 1024;
/** Rows are cut into sections of about this many bytes. */
export const SNAPSHOT_ROWS_SECTION_BYTES = 1024 * 1024;

export const SECTION = { manifest: 1, block: 2, counters: 3, rows: 4, end: 5 } as const;
export type SectionKind = (typeof SECTION)[keyof typeof SECTION];

/** Stable codes of `torana snapshot create | verify | restore`: listed in docs/errors.md "Snapshots". */
export const SNAPSHOT_ERROR_CODES = [
  'snapshot_source_missing',
  'snapshot_out_exists',
  'snapshot_target_not_empty',
  'snapshot_malformed',
  'snapshot_damaged',
  'snapshot_chain_mismatch',
  'snapshot_rows_invalid',
  'snapshot_state_root_version',
  'snapshot_state_root_mismatch',
  'snapshot_certificate_invalid',
  'snapshot_validator_set_untrusted',
] as const;
export type SnapshotErrorCode = (typeof SNAPSHOT_ERROR_CODES)[number];

export class SnapshotError extends Error {
  override readonly name = 'SnapshotError';
  constructor(
    readonly code: SnapshotErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

export interface SnapshotManifest {
  format: number;
  chain_id: string;
  height: number;
  /** Hex: the hash of the block at `height` (its header). */
  block_hash: string;
  /** Hex: that header's state root (version 2), which the rows must give. */
  state_root: string;
  /** When the file was written (informational only: never checked). */
  created_at: string;
}

export interface SnapshotEnd {
  rows: number;
  /** Hex SHA-256 of every byte of the file before the END section. */
  sha256: string;
}

function sectionHeader(kind: SectionKind, length: number): Uint8Array {
  const h = new Uint8Array(5);
  h[0] = kind;
  new DataView(h.buffer).setUint32(1, length, true);
  return h;
}

function crcOf(header: Uint8Array, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, crc32c(payload, crc32c(header)), true);
  return out;
}

/** Writes sections to a file, appending, hashing everything before END. */
export class SnapshotWriter {
  private pos = 0;
  private readonly sha: Hash = createHash('sha256');
  private rows: Uint8Array[] = [];
  private rowBytes = 0;
  rowCount = 0;
  private lastKey: Uint8Array | undefined;

  constructor(private readonly fh: FileHandle) {}

  private async put(bytes: Uint8Array, hashed: boolean): Promise<void> {
    let done = 0;
    while (done < bytes.length) {
      const { bytesWritten } = await this.fh.write(bytes, done, bytes.length - done, this.pos + done);
      done += bytesWritten;
    }
    this.pos += bytes.length;
    if (hashed) this.sha.update(bytes);
  }

  get bytesWritten(): number {
    return this.pos;
  }

  async start(): Promise<void> {
    assert(this.pos === 0, 'snapshot writer: started twice');
    await this.put(SNAPSHOT_MAGIC, true);
  }

  async section(kind: SectionKind, payload: Uint8Array): Promise<void> {
    assert(payload.length <= SNAPSHOT_SECTION_BYTES_MAX, `a snapshot section of ${payload.length} bytes`);
    const h = sectionHeader(kind, payload.length);
    await this.put(h, kind !== SECTION.end);
    await this.put(payload, kind !== SECTION.end);
    await this.put(crcOf(h, payload), kind !== SECTION.end);
  }

  /** Adds one row (keys strictly increasing); full batches go out as ROWS sections. */
  async row(key: Uint8Array, value: Uint8Array): Promise<void> {
    assert(
      this.lastKey === undefined || Buffer.compare(this.lastKey, key) < 0,
      'snapshot writer: rows out of key order',
    );
    assert(key.length <= 0xffff, `a state key of ${key.length} bytes`);
    this.lastKey = key;
    const head = new Uint8Array(2 + key.length + 4);
    const v = new DataView(head.buffer);
    v.setUint16(0, key.length, true);
    head.set(key, 2);
    v.setUint32(2 + key.length, value.length, true);
    this.rows.push(head, value);
    this.rowBytes += head.length + value.length;
    this.rowCount++;
    if (this.rowBytes >= SNAPSHOT_ROWS_SECTION_BYTES) await this.flushRows();
  }

  private async flushRows(): Promise<void> {
    if (this.rows.length === 0) return;
    await this.section(SECTION.rows, Buffer.concat(this.rows));
    this.rows = [];
    this.rowBytes = 0;
  }

  /** Writes the last rows and END; returns what END says. */
  async finish(): Promise<SnapshotEnd> {
    await this.flushRows();
    const end: SnapshotEnd = { rows: this.rowCount, sha256: this.sha.digest('hex') };
    await this.section(SECTION.end, new TextEncoder().encode(JSON.stringify(end)));
    return end;
  }
}

/** Reads sections in order, checking each one's CRC and hashing every byte before END. */
export class SnapshotReader {
  private pos = 0;
  private readonly sha: Hash = createHash('sha256');
  private digest: string | undefined;

  constructor(
    private readonly fh: FileHandle,
    readonly size: number,
  ) {}

  private async take(n: number): Promise<Uint8Array> {
    if (n > this.size - this.pos)
      throw new SnapshotError('snapshot_malformed', `the file ends inside a section (at byte ${this.pos})`);
    const buf = new Uint8Array(n);
    let done = 0;
    while (done < n) {
      const { bytesRead } = await this.fh.read(buf, done, n - done, this.pos + done);
      if (bytesRead === 0)
        throw new SnapshotError('snapshot_malformed', `the file ends inside a section (at byte ${this.pos})`);
      done += bytesRead;
    }
    this.pos += n;
    return buf;
  }

  get position(): number {
    return this.pos;
  }

  async start(): Promise<void> {
    const magic = await this.take(SNAPSHOT_MAGIC.length);
    if (!Buffer.from(magic).equals(Buffer.from(SNAPSHOT_MAGIC)))
      throw new SnapshotError('snapshot_malformed', 'not a torana snapshot (bad magic)');
    this.sha.update(magic);
  }

  /** The next section, or undefined at the end of the file. */
  async next(): Promise<{ kind: number; payload: Uint8Array } | undefined> {
    if (this.pos === this.size) return undefined;
    const at = this.pos;
    const h = await this.take(5);
    const kind = h[0]!;
    const length = new DataView(h.buffer).getUint32(1, true);
    if (length > SNAPSHOT_SECTION_BYTES_MAX)
      throw new SnapshotError('snapshot_malformed', `a section of ${length} bytes at byte ${at}`, {
        offset: at,
      });
    const payload = await this.take(length);
    const crc = await this.take(4);
    if (!Buffer.from(crc).equals(Buffer.from(crcOf(h, payload))))
      throw new SnapshotError('snapshot_damaged', `section at byte ${at}: checksum mismatch`, { offset: at });
    if (kind === SECTION.end) this.digest = this.sha.digest('hex');
    else if (this.digest === undefined) {
      this.sha.update(h);
      this.sha.update(payload);
      this.sha.update(crc);
    }
    return { kind, payload };
  }

  /** The SHA-256 of every byte before the END section (once END has been read). */
  sha256BeforeEnd(): string | undefined {
    return this.digest;
  }
}

/** The rows of one ROWS payload, in order. */
export function* rowsOf(payload: Uint8Array): Generator<{ key: Uint8Array; value: Uint8Array }> {
  const v = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  let at = 0;
  const bad = () => new SnapshotError('snapshot_malformed', 'a ROWS section does not parse');
  while (at < payload.length) {
    if (at + 2 > payload.length) throw bad();
    const kl = v.getUint16(at, true);
    if (at + 2 + kl + 4 > payload.length) throw bad();
    const key = payload.subarray(at + 2, at + 2 + kl);
    const vl = v.getUint32(at + 2 + kl, true);
    const vs = at + 2 + kl + 4;
    if (vs + vl > payload.length) throw bad();
    yield { key, value: payload.subarray(vs, vs + vl) };
    at = vs + vl;
  }
}
