// The consensus safety-state file: the few bytes a validator must never forget across a crash (its
// lock and the last view it voted in; docs/consensus.md). The content is opaque here; this file only
// makes replacing it crash-safe (docs/design/testing.md "Durability discipline"): write a temporary file, fsync
// it, rename it over the target, fsync the directory. A crash at any step leaves either the old or the
// new content, never a mix. A header (magic, version, length, CRC-32C) lets a read tell a torn or
// damaged file from a good one; such a file is refused with `safety_file_corrupt`, never guessed at.
//
// Layout (little-endian): "TSAF" | version u8 (1) | 3 zero bytes | payload length u32 | crc32c u32 over
// the first 12 bytes and the payload | payload.

import { open, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { crc32c } from '../codec/crc32c.js';
import { assert } from '../util/assert.js';
import { type FailPoints, noFailPoints } from '../util/failpoints.js';

const MAGIC = Uint8Array.of(0x54, 0x53, 0x41, 0x46); // "TSAF"
export const SAFETY_FILE_VERSION = 1;
export const SAFETY_HEADER_BYTES = 16;
/** Largest payload: the lock certificate, the last votes and the payloads voted for at one height (≤ 16 blocks). */
export const SAFETY_BYTES_MAX = 64 * 1024 * 1024;

export type SafetyCorruptReason =
  | 'short_header'
  | 'bad_magic'
  | 'unsupported_version'
  | 'length_mismatch'
  | 'checksum_mismatch';

/** The file exists but does not hold a whole, intact safety record. The node must not start on it. */
export class SafetyFileError extends Error {
  override readonly name = 'SafetyFileError';
  readonly code = 'safety_file_corrupt' as const;
  constructor(
    readonly path: string,
    readonly reason: SafetyCorruptReason,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(`safety file corrupt: ${reason} in ${path}`);
  }
}

export interface SafetyWriteOptions {
  /** Fsync the file and directory (default true); false only for tests and benchmarks. */
  fsync?: boolean;
  /** Steps: `safety.after-temp-write` (temp durable, not renamed), `safety.after-rename`. */
  failPoints?: FailPoints;
}

/** The temporary file a write goes through; one fixed name, so a crash never leaves more than one. */
export function safetyTempPath(path: string): string {
  return `${path}.tmp`;
}

export function encodeSafety(payload: Uint8Array): Uint8Array {
  assert(payload.length <= SAFETY_BYTES_MAX, `safety payload over ${SAFETY_BYTES_MAX} bytes`);
  const out = new Uint8Array(SAFETY_HEADER_BYTES + payload.length);
  const view = new DataView(out.buffer);
  out.set(MAGIC, 0);
  view.setUint8(4, SAFETY_FILE_VERSION);
  view.setUint32(8, payload.length, true);
  out.set(payload, SAFETY_HEADER_BYTES);
  view.setUint32(12, checksum(out), true);
  return out;
}

function checksum(file: Uint8Array): number {
  return crc32c(file.subarray(SAFETY_HEADER_BYTES), crc32c(file.subarray(0, 12)));
}

/** The payload of a whole safety file; throws `SafetyFileError` for anything else. */
export function decodeSafety(path: string, file: Uint8Array): Uint8Array {
  if (file.length < SAFETY_HEADER_BYTES)
    throw new SafetyFileError(path, 'short_header', { bytes: file.length });
  if (!MAGIC.every((b, i) => file[i] === b)) throw new SafetyFileError(path, 'bad_magic');
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const version = view.getUint8(4);
  if (version !== SAFETY_FILE_VERSION || view.getUint32(4, true) >>> 8 !== 0)
    throw new SafetyFileError(path, 'unsupported_version', { version });
  const length = view.getUint32(8, true);
  if (length !== file.length - SAFETY_HEADER_BYTES)
    throw new SafetyFileError(path, 'length_mismatch', {
      declared: length,
      found: file.length - SAFETY_HEADER_BYTES,
    });
  if (view.getUint32(12, true) !== checksum(file)) throw new SafetyFileError(path, 'checksum_mismatch');
  return new Uint8Array(file.subarray(SAFETY_HEADER_BYTES));
}

/** The payload, or undefined when the file does not exist (first start). */
export async function readSafety(path: string): Promise<Uint8Array | undefined> {
  let file: Buffer;
  try {
    const fh = await open(path, 'r');
    try {
      const { size } = await fh.stat();
      if (size > SAFETY_HEADER_BYTES + SAFETY_BYTES_MAX)
        throw new SafetyFileError(path, 'length_mismatch', { found: size - SAFETY_HEADER_BYTES });
      file = await readFile(fh);
    } finally {
      await fh.close();
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  return decodeSafety(path, new Uint8Array(file.buffer, file.byteOffset, file.byteLength));
}

/**
 * Replaces the file with `payload`, durably. Not serialised: two concurrent calls on one path race for
 * the temporary file; use `SafetyFile` when writes may overlap.
 */
export async function writeSafety(
  path: string,
  payload: Uint8Array,
  opts: SafetyWriteOptions = {},
): Promise<void> {
  const fsync = opts.fsync ?? true;
  const fp = opts.failPoints ?? noFailPoints;
  const tmp = safetyTempPath(path);
  const fh = await open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(encodeSafety(payload));
    if (fsync) await fh.sync();
  } finally {
    await fh.close();
  }
  fp.hit('safety.after-temp-write');
  await rename(tmp, path);
  fp.hit('safety.after-rename');
  if (fsync) await syncDirectory(dirname(path));
}

async function syncDirectory(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

interface PendingWrite {
  payload: Uint8Array;
  resolve: () => void;
  reject: (e: unknown) => void;
  promise: Promise<void>;
}

function pendingWrite(payload: Uint8Array): PendingWrite {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { payload, resolve, reject, promise };
}

/**
 * One safety file with serialised writes. A write issued while another is in flight waits for it;
 * writes issued meanwhile coalesce into one that carries the latest payload, so a burst costs at most
 * two fsync rounds. Each promise resolves only once its payload, or a newer one, is durable, and
 * rejects if the write that carried it failed (the next write tries again).
 */
export class SafetyFile {
  private queued: PendingWrite | undefined;
  private draining = false;
  private writesDone = 0;

  constructor(
    readonly path: string,
    private readonly opts: SafetyWriteOptions = {},
  ) {}

  read(): Promise<Uint8Array | undefined> {
    return readSafety(this.path);
  }

  write(payload: Uint8Array): Promise<void> {
    // Copied now: the caller may reuse its buffer before the write runs.
    const copy = payload.slice();
    if (this.queued !== undefined) {
      this.queued.payload = copy;
      return this.queued.promise;
    }
    const job = pendingWrite(copy);
    this.queued = job;
    if (!this.draining) void this.drain();
    return job.promise;
  }

  /** Writes that reached the disk (a coalesced burst counts once). */
  get writes(): number {
    return this.writesDone;
  }

  private async drain(): Promise<void> {
    this.draining = true;
    while (this.queued !== undefined) {
      const job = this.queued;
      this.queued = undefined;
      try {
        await writeSafety(this.path, job.payload, this.opts);
        this.writesDone++;
        job.resolve();
      } catch (e) {
        job.reject(e);
      }
    }
    this.draining = false;
  }
}
