// Writes a file so that a crash leaves either the old or the new content: write a temporary file in the
// same directory, fsync it, rename it over the target, fsync the directory.

import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export async function writeFileAtomic(
  path: string,
  content: string | Uint8Array,
  mode = 0o644,
): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const fh = await open(tmp, 'wx', mode);
    try {
      await fh.writeFile(content);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
    const dir = await open(dirname(path), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}
