// The node's off-chain store of content files (docs/content.md "Storage"): one file per SHA-256 digest
// under `<data>/content/`, so two bundles listing the same bytes share them. A write goes to a
// temporary file, is fsynced, renamed over its name and the directory fsynced: a crash leaves the file
// whole or absent, never torn (a leftover temporary file is removed when the store opens). The store
// holds at most `bytesMax` bytes; it never relays, fetches or interprets what it holds.

import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';

const NAME = /^[0-9a-f]{64}$/;

export class ContentStoreFullError extends Error {
  constructor(
    readonly used: number,
    readonly limit: number,
  ) {
    super(`the content store holds ${used} of ${limit} bytes`);
  }
}

export class ContentStore {
  private readonly sizes = new Map<string, number>();
  private used = 0;
  private temp = 0;

  private constructor(
    readonly dir: string,
    readonly bytesMax: number,
    private readonly fsync: boolean,
  ) {}

  /** Opens (creating) the store at `dir`, counting what it holds and removing torn temporary files. */
  static async open(dir: string, bytesMax: number, opts: { fsync?: boolean } = {}): Promise<ContentStore> {
    const s = new ContentStore(dir, bytesMax, opts.fsync ?? true);
    await mkdir(dir, { recursive: true });
    for (const name of (await readdir(dir)).sort()) {
      if (name.endsWith('.tmp')) await unlink(join(dir, name));
      else if (NAME.test(name)) {
        const size = (await stat(join(dir, name))).size;
        s.sizes.set(name, size);
        s.used += size;
      }
    }
    return s;
  }

  /** Bytes held. */
  bytesUsed(): number {
    return this.used;
  }

  has(sha256: string): boolean {
    return this.sizes.has(sha256);
  }

  /**
   * Keeps `bytes` under their digest (the caller checked it); false when already held. Throws
   * ContentStoreFullError when they would take the store past its limit.
   */
  async put(sha256: string, bytes: Uint8Array): Promise<boolean> {
    if (!NAME.test(sha256)) throw new Error(`not a digest: ${sha256}`);
    if (this.sizes.has(sha256)) return false;
    if (this.used + bytes.length > this.bytesMax) throw new ContentStoreFullError(this.used, this.bytesMax);
    // Reserved before the first await, so concurrent uploads cannot pass the limit together.
    this.used += bytes.length;
    const tmp = join(this.dir, `${sha256}.${this.temp++}.tmp`);
    try {
      const fh = await open(tmp, 'w', 0o600);
      try {
        await fh.writeFile(bytes);
        if (this.fsync) await fh.sync();
      } finally {
        await fh.close();
      }
      if (this.sizes.has(sha256)) {
        await unlink(tmp);
        this.used -= bytes.length;
        return false;
      }
      await rename(tmp, join(this.dir, sha256));
      if (this.fsync) await syncDirectory(this.dir);
      this.sizes.set(sha256, bytes.length);
      return true;
    } catch (e) {
      this.used -= bytes.length;
      await unlink(tmp).catch(() => undefined);
      throw e;
    }
  }

  /** The bytes `start..end` (inclusive) of a held file as a stream. */
  read(sha256: string, start: number, end: number): ReadStream {
    return createReadStream(join(this.dir, sha256), { start, end });
  }
}

async function syncDirectory(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
