// A small cache of read-only file handles for point reads, so `read(height)` does not open a file
// each time and a log with thousands of segments does not hold thousands of descriptors. Handles in
// use are never closed under a reader: the cache may exceed its capacity while all are busy, and
// after `closeAll` a busy handle is closed when its last reader finishes.

import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { assert } from '../util/assert.js';

export const READ_HANDLES_MAX = 16;

interface Entry {
  handle: Promise<FileHandle>;
  users: number;
}

export class ReadHandles {
  // Insertion order is the recency order (least recent first); nothing here is hashed or replicated.
  private readonly entries = new Map<string, Entry>();
  private closed = false;

  constructor(private readonly capacity = READ_HANDLES_MAX) {
    assert(Number.isSafeInteger(capacity) && capacity >= 1, `read handle cache of ${capacity}`);
  }

  async use<T>(path: string, fn: (handle: FileHandle) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error('read handles are closed');
    let entry = this.entries.get(path);
    if (entry === undefined) entry = { handle: open(path, 'r'), users: 0 };
    else this.entries.delete(path);
    this.entries.set(path, entry);
    entry.users += 1;
    try {
      const handle = await entry.handle.catch((e: unknown) => {
        // A failed open (EMFILE, say) must not stay cached and fail every later read.
        if (this.entries.get(path) === entry) this.entries.delete(path);
        throw e;
      });
      return await fn(handle);
    } finally {
      entry.users -= 1;
      assert(entry.users >= 0, `read handle of ${path} released more often than taken`);
      await this.evict();
    }
  }

  async closeAll(): Promise<void> {
    this.closed = true;
    await this.evict();
    // Only handles still in use remain; each closes when its last reader finishes.
    for (const [path, entry] of this.entries)
      assert(entry.users > 0, `read handles: idle ${path} left open after closeAll`);
  }

  /** Closes idle handles, least recently used first, until the cache fits (nothing fits once closed). */
  private async evict(): Promise<void> {
    const keep = this.closed ? 0 : this.capacity;
    const idle: Entry[] = [];
    for (const [path, entry] of this.entries) {
      if (this.entries.size <= keep) break;
      if (entry.users > 0) continue;
      this.entries.delete(path);
      idle.push(entry);
    }
    // Evicted entries were idle, and the cache fits unless every handle left is in use.
    assert(
      idle.every((e) => e.users === 0) &&
        (this.entries.size <= keep || [...this.entries.values()].every((e) => e.users > 0)),
      `read handles: ${this.entries.size} kept of ${keep} after eviction`,
    );
    await Promise.all(idle.map((e) => closeQuietly(e.handle)));
  }
}

async function closeQuietly(handle: Promise<FileHandle>): Promise<void> {
  try {
    await (await handle).close();
  } catch {
    // Opening failed (that error already went to the reader), so there is nothing to close.
  }
}
