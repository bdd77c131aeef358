// The base of a block log restored from a state snapshot (docs/design/snapshots.md): `blocks/base.json`
// names the first height the log holds and the hash of that block's parent, which the log never holds.
// A log without the file starts at height 1 (genesis, parent all zeros). The file is written before
// any record, atomically, and never changes: recovery refuses a log whose first segment does not start
// at the base, so a segment lost from the front is damage, never a silent later start.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assert } from '../util/assert.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { fromHex, toHex } from '../util/hex.js';
import { StorageCorruptionError } from './errors.js';
import { HASH_BYTES } from './record.js';

export const BASE_FILE = 'base.json';
const BASE_FORMAT = 1;

export interface BlockLogBase {
  /** The first height the log holds (≥ 2: a log starting at 1 has no base file). */
  height: number;
  /** The hash of block `height - 1`, the parent of the first record. */
  prevHash: Uint8Array;
}

/** The base recorded in `blocksDir`, or undefined when the log starts at genesis. */
export async function readBlockLogBase(blocksDir: string): Promise<BlockLogBase | undefined> {
  const path = join(blocksDir, BASE_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const bad = () =>
    new StorageCorruptionError({ file: path, offset: 0, height: undefined, reason: 'base_invalid' });
  let o: { format?: unknown; height?: unknown; prev_hash?: unknown };
  try {
    o = JSON.parse(text) as typeof o;
  } catch {
    throw bad();
  }
  if (
    o.format !== BASE_FORMAT ||
    typeof o.height !== 'number' ||
    !Number.isSafeInteger(o.height) ||
    o.height < 2 ||
    typeof o.prev_hash !== 'string'
  )
    throw bad();
  const prevHash = fromHex(o.prev_hash);
  if (prevHash === undefined || prevHash.length !== HASH_BYTES) throw bad();
  // What writeBlockLogBase accepts reads back: a base above genesis with its parent's hash.
  assert(o.height >= 2 && prevHash.length === HASH_BYTES, `block log base at ${o.height}`);
  return { height: o.height, prevHash };
}

/** Records the base of a new, empty log (durably: the file, then its directory). */
export async function writeBlockLogBase(blocksDir: string, base: BlockLogBase): Promise<void> {
  // A base names the first block a restored log holds: never genesis, and its parent by hash.
  assert(
    Number.isSafeInteger(base.height) && base.height >= 2 && base.prevHash.length === HASH_BYTES,
    `block log base at ${base.height} with a ${base.prevHash.length}-byte parent hash`,
  );
  const doc = { format: BASE_FORMAT, height: base.height, prev_hash: toHex(base.prevHash) };
  await writeFileAtomic(join(blocksDir, BASE_FILE), `${JSON.stringify(doc)}\n`, 0o600);
}
