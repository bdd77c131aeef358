// Online backups of a node's data directory (docs/operations.md "Backups and restores"), taken while the
// node runs, from another process. Consistency comes from the order of the copies: each LMDB store
// of the data folder (world state, bridge, a module's store) is copied first, by LMDB's own consistent copy of one read
// transaction; the block log is copied after, so it holds at least every block the copied state has
// applied. A restored node opens a log at least as high as its state and replays the difference, as it
// does after a crash; a tail record caught mid-write is a torn tail, cut when the copy is checked.
// The manifest (backup.json) lists every file with its size and SHA-256.

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { open as openLmdb } from 'lmdb';
import { BlockLog } from '../storage/block-log.js';
import { BASE_FILE } from '../storage/block-log-base.js';
import { BLOCKS_DIR, listSegments, syncDirectory } from '../storage/segment-files.js';
import { StateStore } from '../storage/state-store.js';
import { nodeFiles } from './files.js';

export const BACKUP_MANIFEST = 'backup.json';
const BACKUP_FORMAT = 1;
const SAFETY_FILE = 'consensus-safety.bin';

export interface BackupFile {
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
}

export interface BackupManifest {
  readonly format: number;
  readonly chain_id: string;
  /** Height of the newest block the copied world state has applied. */
  readonly state_height: number;
  /** Height of the copied block log (at least state_height). */
  readonly block_log_height: number;
  readonly created_at: string;
  readonly files: readonly BackupFile[];
}

export class BackupError extends Error {
  constructor(
    readonly code:
      | 'backup_target_not_empty'
      | 'backup_source_missing'
      | 'backup_manifest_invalid'
      | 'backup_file_mismatch'
      | 'backup_inconsistent'
      | 'restore_target_not_empty',
    message: string,
  ) {
    super(message);
  }
}

async function isEmptyOrMissing(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch {
    return true;
  }
}

async function isLmdbEnv(dir: string): Promise<boolean> {
  return stat(join(dir, 'data.mdb')).then(
    (s) => s.isFile(),
    () => false,
  );
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function syncFile(path: string): Promise<void> {
  const h = await open(path, 'r');
  try {
    await h.sync();
  } finally {
    await h.close();
  }
}

async function walkFiles(root: string, dir = root): Promise<string[]> {
  const out: string[] = [];
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  )) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walkFiles(root, p)));
    // LMDB's lock file holds no data (readers' slots); each opener makes its own.
    else if (entry.isFile() && entry.name !== 'lock.mdb') out.push(relative(root, p));
  }
  return out;
}

/** Copies one LMDB environment consistently (one read transaction), while its writer runs. */
async function copyLmdb(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true, mode: 0o700 });
  const env = openLmdb({ path: from, readOnly: true });
  try {
    await env.backup(to, false);
  } finally {
    await env.close();
  }
}

export type BackupProgress = (step: string) => void;

/**
 * Backs up `nodeDir`'s data directory into `outDir` (new or empty) while the node may be running;
 * returns the manifest written to `outDir/backup.json`. Keys and configuration are not included:
 * they are backed up once, offline, with the operator's own secret storage.
 */
export async function createBackup(
  nodeDir: string,
  outDir: string,
  chainId: string,
  progress: BackupProgress = () => {},
): Promise<BackupManifest> {
  const data = nodeFiles(nodeDir).data;
  if (await isEmptyOrMissing(data)) throw new BackupError('backup_source_missing', `${data} holds no data`);
  if (!(await isEmptyOrMissing(outDir)))
    throw new BackupError('backup_target_not_empty', `${outDir} is not empty`);
  const outData = join(outDir, 'data');
  await mkdir(outData, { recursive: true, mode: 0o700 });
  const entries = (await readdir(data, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
  // 1. Every LMDB store, each in one read transaction.
  for (const e of entries)
    if (e.isDirectory() && (await isLmdbEnv(join(data, e.name)))) {
      progress(`copying store ${e.name}`);
      await copyLmdb(join(data, e.name), join(outData, e.name));
    }
  // 2. The block log after the state: it can only have grown since.
  const segments = await listSegments(join(data, BLOCKS_DIR));
  await mkdir(join(outData, BLOCKS_DIR), { recursive: true, mode: 0o700 });
  for (const s of segments) {
    progress(`copying block log ${relative(data, s.path)}`);
    await copyFile(s.path, join(outData, BLOCKS_DIR, relative(join(data, BLOCKS_DIR), s.path)));
  }
  // A log restored from a state snapshot starts at its base (storage/block-log-base.ts).
  const base = join(data, BLOCKS_DIR, BASE_FILE);
  if (
    await stat(base).then(
      (st) => st.isFile(),
      () => false,
    )
  )
    await copyFile(base, join(outData, BLOCKS_DIR, BASE_FILE));
  // 3. The other files (evidence log, consensus safety record, replay marks), as they are now.
  for (const e of entries) if (e.isFile()) await copyFile(join(data, e.name), join(outData, e.name));
  // 4. Check the copy: the log opens (cutting a tail caught mid-write) and covers the state.
  progress('checking the copy');
  const { log, report } = await BlockLog.open(outData);
  const logHeight = report.height;
  await log.close();
  const state = await StateStore.open(outData, { fsync: true });
  const stateHeight = state.appliedHeight();
  await state.close();
  if (stateHeight > logHeight)
    throw new BackupError(
      'backup_inconsistent',
      `the copied state has applied block ${stateHeight} but the copied log ends at ${logHeight}`,
    );
  const manifest = await writeManifest(outDir, chainId, stateHeight, logHeight, progress);
  return manifest;
}

async function writeManifest(
  outDir: string,
  chainId: string,
  stateHeight: number,
  logHeight: number,
  progress: BackupProgress,
): Promise<BackupManifest> {
  progress('hashing and syncing');
  const files: BackupFile[] = [];
  for (const path of await walkFiles(outDir)) {
    if (path === BACKUP_MANIFEST) continue;
    const full = join(outDir, path);
    await syncFile(full);
    files.push({ path, bytes: (await stat(full)).size, sha256: await sha256Of(full) });
  }
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    chain_id: chainId,
    state_height: stateHeight,
    block_log_height: logHeight,
    created_at: new Date().toISOString(),
    files,
  };
  const tmp = join(outDir, `${BACKUP_MANIFEST}.tmp`);
  await writeFile(tmp, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  await syncFile(tmp);
  await rename(tmp, join(outDir, BACKUP_MANIFEST));
  for (const d of new Set([outDir, ...files.map((f) => dirname(join(outDir, f.path)))]))
    await syncDirectory(d);
  return manifest;
}

/** Reads a backup's manifest and checks every file against it (size and SHA-256). */
export async function verifyBackup(fromDir: string): Promise<BackupManifest> {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(join(fromDir, BACKUP_MANIFEST), 'utf8')) as BackupManifest;
  } catch (e) {
    throw new BackupError(
      'backup_manifest_invalid',
      `${join(fromDir, BACKUP_MANIFEST)}: ${(e as Error).message}`,
    );
  }
  if (manifest.format !== BACKUP_FORMAT || !Array.isArray(manifest.files))
    throw new BackupError('backup_manifest_invalid', `unknown backup format ${String(manifest.format)}`);
  if (!(manifest.state_height <= manifest.block_log_height))
    throw new BackupError('backup_inconsistent', 'the state is ahead of the block log');
  const listed = new Set(manifest.files.map((f) => f.path));
  for (const path of await walkFiles(fromDir))
    if (path !== BACKUP_MANIFEST && !listed.has(path))
      throw new BackupError('backup_file_mismatch', `${path} is in the backup but not in its manifest`);
  for (const f of manifest.files) {
    const full = join(fromDir, f.path);
    const size = await stat(full).then(
      (s) => s.size,
      () => -1,
    );
    if (size !== f.bytes)
      throw new BackupError(
        'backup_file_mismatch',
        `${f.path}: ${size < 0 ? 'missing' : `${size} bytes, manifest says ${f.bytes}`}`,
      );
    if ((await sha256Of(full)) !== f.sha256)
      throw new BackupError('backup_file_mismatch', `${f.path}: SHA-256 differs from the manifest`);
  }
  return manifest;
}

/**
 * Restores a checked backup into `nodeDir/data`. The data directory must be empty or absent unless
 * `replace`, which moves the old one aside (`data.before-restore-<time>`) and carries its consensus
 * safety record over when it has one: a validator's record of what it voted must never go back, or it
 * could vote twice in a view it already voted in.
 */
export async function restoreBackup(
  fromDir: string,
  nodeDir: string,
  opts: { replace?: boolean; progress?: BackupProgress } = {},
): Promise<{ manifest: BackupManifest; movedAside?: string; keptSafetyRecord: boolean }> {
  const progress = opts.progress ?? (() => {});
  progress('checking the backup');
  const manifest = await verifyBackup(fromDir);
  const data = nodeFiles(nodeDir).data;
  let movedAside: string | undefined;
  if (!(await isEmptyOrMissing(data))) {
    if (opts.replace !== true)
      throw new BackupError(
        'restore_target_not_empty',
        `${data} is not empty: stop the node and pass --replace (the old data is moved aside, not deleted)`,
      );
    movedAside = `${data}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    await rename(data, movedAside);
  } else await rm(data, { recursive: true, force: true });
  await mkdir(data, { recursive: true, mode: 0o700 });
  for (const f of manifest.files) {
    if (!f.path.startsWith('data/')) continue;
    const to = join(nodeDir, f.path);
    await mkdir(dirname(to), { recursive: true, mode: 0o700 });
    await copyFile(join(fromDir, f.path), to);
    await syncFile(to);
  }
  let keptSafetyRecord = false;
  if (movedAside !== undefined) {
    const old = join(movedAside, SAFETY_FILE);
    if (
      await stat(old).then(
        () => true,
        () => false,
      )
    ) {
      await copyFile(old, join(data, SAFETY_FILE));
      await syncFile(join(data, SAFETY_FILE));
      keptSafetyRecord = true;
    }
  }
  for (const d of new Set(manifest.files.map((f) => dirname(join(nodeDir, f.path))))) await syncDirectory(d);
  await syncDirectory(nodeDir);
  return { manifest, ...(movedAside === undefined ? {} : { movedAside }), keptSafetyRecord };
}
