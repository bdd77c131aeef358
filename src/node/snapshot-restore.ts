// `torana snapshot restore` (docs/operations.md "Joining from a snapshot"): a new data directory that
// starts at the snapshot's height H. One pass over the file, checked as it is read (snapshot-verify.ts);
// nothing becomes usable unless the whole file verifies. The writes are ordered so that a restore cut
// short leaves a directory the node refuses to open with a typed error, never one it would run on:
//   1. blocks/base.json (the log starts at H): a state store behind it is `ledger_state_behind_base`;
//   2. the rows, in batches, the applied height still 0;
//   3. the state tree of H, the chain counters and the applied (H, block hash), in one transaction:
//      without the log's block H this is `ledger_state_ahead`;
//   4. block H, with its certificate, as the log's first record.
// The node then opens at H and block-syncs from H + 1. A directory this restore created is removed
// again when the snapshot fails to verify.

import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { blockHash } from '../model/block.js';
import { CHAIN_COUNTERS_KEY } from '../pipeline/chain-counters.js';
import { storeNodeReader } from '../pipeline/state-tree-store.js';
import { EMPTY_TREE_VERSION, StateTree } from '../state/merkle/tree.js';
import { STATE_INDEX_PREFIX } from '../state/state-index-keys.js';
import { BlockLog } from '../storage/block-log.js';
import { writeBlockLogBase } from '../storage/block-log-base.js';
import type { StateChange } from '../storage/block-store.js';
import { BLOCKS_DIR } from '../storage/segment-files.js';
import { StateStore } from '../storage/state-store.js';
import { assert } from '../util/assert.js';
import { bytesEqual } from '../util/hex.js';
import { nodeFiles } from './files.js';
import { SnapshotError } from './snapshot-format.js';
import { type SnapshotTrust, type VerifiedSnapshot, verifySnapshot } from './snapshot-verify.js';

async function isEmptyOrMissing(dir: string): Promise<boolean> {
  return readdir(dir).then(
    (names) => names.length === 0,
    () => true,
  );
}

export interface RestoreOptions {
  progress?: (line: string) => void;
  fsync?: boolean;
  lmdbMapBytes?: number;
}

/** Verifies `file` against `trust` and writes it as `nodeDir`'s data directory (which must be empty). */
export async function restoreSnapshot(
  file: string,
  nodeDir: string,
  trust: SnapshotTrust,
  opts: RestoreOptions = {},
): Promise<VerifiedSnapshot> {
  const progress = opts.progress ?? (() => {});
  const data = nodeFiles(nodeDir).data;
  if (!(await isEmptyOrMissing(data)))
    throw new SnapshotError(
      'snapshot_target_not_empty',
      `${data} is not empty: restore into a new node directory`,
    );
  await mkdir(join(data, BLOCKS_DIR), { recursive: true, mode: 0o700 });
  const fsync = opts.fsync ?? true;
  let store: StateStore | undefined;
  try {
    store = await StateStore.open(data, {
      fsync,
      ...(opts.lmdbMapBytes === undefined ? {} : { mapSizeBytes: opts.lmdbMapBytes }),
    });
    const s = store;
    const verified = await verifySnapshot(file, trust, {
      progress,
      onBlock: (block) =>
        writeBlockLogBase(join(data, BLOCKS_DIR), {
          height: block.header.height,
          prevHash: block.header.prevHash,
        }),
      sink: (rows) => s.restoreRows(rows),
    });
    const { header } = verified.block;
    const height = header.height;
    progress(`building the state tree of height ${height}`);
    const tree = new StateTree(storeNodeReader(s), EMPTY_TREE_VERSION, undefined);
    const rows = [...s.entries(Uint8Array.of(0x01))];
    for (let tag = 0x02; tag < STATE_INDEX_PREFIX; tag++) rows.push(...s.entries(Uint8Array.of(tag)));
    const update = tree.prepare(rows, height);
    // The rows were checked against this root while they were read.
    assert(
      bytesEqual(update.stateRoot, header.stateRoot),
      'snapshot restore: the stored rows give another root',
    );
    const last: StateChange[] = [...update.writes];
    if (verified.counters !== undefined) last.push({ key: CHAIN_COUNTERS_KEY, value: verified.counters });
    const hash = blockHash(header);
    await s.finishRestore(height, hash, last);
    await s.close();
    store = undefined;
    const { log } = await BlockLog.open(data, { fsync });
    try {
      await log.append([{ height, hash, prevHash: header.prevHash, bytes: verified.blockBytes }]);
    } finally {
      await log.close();
    }
    progress(`restored height ${height}: ${verified.rows} rows`);
    return verified;
  } catch (e) {
    await store?.close().catch(() => undefined);
    await rm(data, { recursive: true, force: true });
    throw e;
  }
}
