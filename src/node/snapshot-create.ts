// `torana snapshot create` (docs/operations.md "Joining from a snapshot"): the world-state rows of the
// newest height the node's state store has applied, with that height's block and commit certificate,
// written from another process while the node runs. Consistency: the applied height, the rows and the
// chain counters are read in ONE LMDB read transaction; the block log, which never runs behind the
// state store, is read after and must hold the applied block's hash at that height.

import { open as openFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { open as openLmdb } from 'lmdb';
import { decode } from '../codec/frame.js';
import { DEFAULT_DECODE_LIMITS, type DecodeLimits } from '../codec/limits.js';
import { BlockCodec } from '../model/block.js';
import { CHAIN_COUNTERS_KEY } from '../pipeline/chain-counters.js';
import { stateRootVersion } from '../state/merkle/hash.js';
import { STATE_INDEX_PREFIX } from '../state/state-index-keys.js';
import { readBlockLogBase } from '../storage/block-log-base.js';
import { decodePayload } from '../storage/record.js';
import { BLOCKS_DIR, listSegments } from '../storage/segment-files.js';
import { examineRecord, SegmentReader } from '../storage/segment-reader.js';
import { decodeApplied, fromUserKey, META_APPLIED, userKey } from '../storage/state-keys.js';
import { STATE_DIR } from '../storage/state-store.js';
import { bytesEqual, toHex } from '../util/hex.js';
import { nodeFiles } from './files.js';
import {
  SECTION,
  SNAPSHOT_FORMAT,
  type SnapshotEnd,
  SnapshotError,
  type SnapshotManifest,
  SnapshotWriter,
} from './snapshot-format.js';

/** The node's own stored blocks decode without the gateway's size limits (as the ledger reads them). */
export const STORED_BLOCK_LIMITS: DecodeLimits = {
  ...DEFAULT_DECODE_LIMITS,
  bytesMax: Number.MAX_SAFE_INTEGER,
  itemsMax: Number.MAX_SAFE_INTEGER,
};

export type SnapshotProgress = (line: string) => void;

/** Block log records are at most this large (storage/block-log-checks.ts bounds what is written). */
const RECORD_BYTES_MAX = 1024 * 1024 * 1024;

/** The stored block record at `height`, read without opening (or repairing) the running node's log. */
export async function readStoredBlock(
  dataDir: string,
  height: number,
): Promise<{ hash: Uint8Array; bytes: Uint8Array } | undefined> {
  const blocksDir = join(dataDir, BLOCKS_DIR);
  const segments = await listSegments(blocksDir).catch(() => []);
  const seg = segments.filter((s) => s.firstHeight <= height).at(-1);
  if (seg === undefined) return undefined;
  const base = await readBlockLogBase(blocksDir);
  if (base !== undefined && height < base.height) return undefined;
  const fh = await openFile(seg.path, 'r');
  try {
    const reader = new SegmentReader(fh, (await fh.stat()).size);
    let offset = 0;
    for (let h = seg.firstHeight; offset < reader.size; h++) {
      const v = await examineRecord(reader, offset, RECORD_BYTES_MAX);
      if (!v.ok) return undefined;
      if (h === height) {
        const r = decodePayload(new Uint8Array(v.payload));
        return r.height === height ? { hash: r.hash, bytes: r.bytes } : undefined;
      }
      offset += v.totalBytes;
    }
    return undefined;
  } finally {
    await fh.close();
  }
}

export interface CreatedSnapshot {
  manifest: SnapshotManifest;
  end: SnapshotEnd;
  bytes: number;
}

/**
 * Writes the snapshot of `nodeDir`'s state at its newest applied height into `outFile` (which must not
 * exist; written as `<out>.partial`, renamed when complete). `height`, when given, must be that height:
 * the state store keeps only its newest rows.
 */
export async function createSnapshot(
  nodeDir: string,
  outFile: string,
  chainId: string,
  opts: { height?: number; progress?: SnapshotProgress } = {},
): Promise<CreatedSnapshot> {
  const progress = opts.progress ?? (() => {});
  const data = nodeFiles(nodeDir).data;
  const statePath = join(data, STATE_DIR);
  if (
    !(await stat(join(statePath, 'data.mdb')).then(
      (s) => s.isFile(),
      () => false,
    ))
  )
    throw new SnapshotError('snapshot_source_missing', `${data} holds no state store`);
  if (
    await stat(outFile).then(
      () => true,
      () => false,
    )
  )
    throw new SnapshotError('snapshot_out_exists', `${outFile} exists: choose a new file`);
  const env = openLmdb<Uint8Array, Uint8Array>({
    path: statePath,
    readOnly: true,
    keyEncoding: 'binary',
    encoding: 'binary',
    compression: false,
    cache: false,
  });
  const partial = `${outFile}.partial`;
  let fh: Awaited<ReturnType<typeof openFile>> | undefined;
  try {
    const txn = env.useReadTransaction();
    try {
      const meta = env.get(META_APPLIED, { transaction: txn });
      const applied = meta === undefined ? undefined : decodeApplied(meta);
      if (applied === undefined || applied.height < 2)
        throw new SnapshotError(
          'snapshot_source_missing',
          'the state store has applied no block after genesis',
        );
      const height = applied.height;
      if (opts.height !== undefined && opts.height !== height)
        throw new SnapshotError(
          'snapshot_source_missing',
          `the state store holds the rows of height ${height} only (asked for ${opts.height})`,
          { height },
        );
      const rec = await readStoredBlock(data, height);
      if (rec === undefined || !bytesEqual(rec.hash, applied.blockHash))
        throw new SnapshotError(
          'snapshot_source_missing',
          `the block log holds no block ${height} to certify the state`,
        );
      const block = decode(BlockCodec, rec.bytes, STORED_BLOCK_LIMITS);
      if (!block.ok)
        throw new SnapshotError('snapshot_source_missing', `block ${height} of the log does not decode`);
      const stateRoot = block.value.header.stateRoot;
      if (stateRootVersion(stateRoot) !== 2)
        throw new SnapshotError(
          'snapshot_state_root_version',
          `block ${height} commits to the state with a multiset hash (header version 1): no snapshot can be checked against it`,
        );
      const manifest: SnapshotManifest = {
        format: SNAPSHOT_FORMAT,
        chain_id: chainId,
        height,
        block_hash: toHex(applied.blockHash),
        state_root: toHex(stateRoot),
        created_at: new Date().toISOString(),
      };
      fh = await openFile(partial, 'wx', 0o600);
      const w = new SnapshotWriter(fh);
      await w.start();
      await w.section(SECTION.manifest, new TextEncoder().encode(JSON.stringify(manifest)));
      await w.section(SECTION.block, rec.bytes);
      const counters = env.get(userKey(CHAIN_COUNTERS_KEY), { transaction: txn });
      await w.section(SECTION.counters, counters ?? new Uint8Array(0));
      progress(`snapshot of height ${height}: writing rows`);
      const range = { start: userKey(Uint8Array.of(0x01)), end: userKey(Uint8Array.of(STATE_INDEX_PREFIX)) };
      for (const { key, value } of env.getRange({ ...range, transaction: txn })) {
        await w.row(fromUserKey(key), value);
        if (w.rowCount % 100_000 === 0) progress(`${w.rowCount} rows`);
      }
      const end = await w.finish();
      await fh.sync();
      await fh.close();
      fh = undefined;
      await rename(partial, outFile);
      progress(`${end.rows} rows, ${w.bytesWritten} bytes`);
      return { manifest, end, bytes: w.bytesWritten };
    } finally {
      txn.done();
    }
  } catch (e) {
    await fh?.close().catch(() => undefined);
    await rm(partial, { force: true });
    throw e;
  } finally {
    await env.close();
  }
}
