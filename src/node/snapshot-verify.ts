// `torana snapshot verify` (docs/design/snapshots.md "What is trusted"): reads a snapshot once, as a
// stream, and accepts it only when
//   1. every section's CRC and the file's SHA-256 hold, and the sections come in order;
//   2. the block's header hashes to the certificate's block hash, at the snapshot's height, phase Commit;
//   3. the rows (strictly increasing keys, world-state key ranges only) give the header's state root;
//   4. the validator set of that height, read from the rows' peer table, is one the user trusts: the
//      set of the genesis file they hold (or a set hash they name), and the rows' own first set is the
//      genesis set;
//   5. the certificate carries a quorum of that set's signatures over the trusted chain id.
// Rows can be handed to a sink as they are read (restore writes them while checking); the caller must
// not use them unless this resolves.

import { open, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { decode } from '../codec/frame.js';
import { verifyCertificate } from '../consensus/certificate.js';
import { rosterHistory, validatorSetAt } from '../consensus/membership.js';
import { ValidatorSet } from '../consensus/validator-set.js';
import { type Block, BlockCodec, blockHash } from '../model/block.js';
import { TABLE_TAGS } from '../model/tags.js';
import { stateRootVersion } from '../state/merkle/hash.js';
import { LeavesRoot } from '../state/merkle/leaves-root.js';
import { STATE_INDEX_PREFIX } from '../state/state-index-keys.js';
import { WorldState } from '../state/world-state.js';
import { bytesEqual, compareBytes, toHex } from '../util/hex.js';
import { genesisFromJson, genesisRoster } from './genesis.js';
import { STORED_BLOCK_LIMITS } from './snapshot-create.js';
import {
  rowsOf,
  SECTION,
  SNAPSHOT_FORMAT,
  type SnapshotEnd,
  SnapshotError,
  type SnapshotManifest,
  SnapshotReader,
} from './snapshot-format.js';

/** What the user trusts: the chain id and validator set of a genesis file, and any set hashes named. */
export interface SnapshotTrust {
  chainId: string;
  genesisSet: ValidatorSet;
  /** Hex hashes of further validator sets the operator vouches for (after membership changes). */
  trustedSetHashes: readonly string[];
}

/** The trust of a genesis file, or of the `genesis.json` of a node directory. */
export async function loadTrust(genesisPathOrDir: string, trustedSetHashes: readonly string[] = []) {
  const path = (await stat(genesisPathOrDir)).isDirectory()
    ? join(genesisPathOrDir, 'genesis.json')
    : genesisPathOrDir;
  const json = JSON.parse(await readFile(path, 'utf8')) as { chain_id?: unknown };
  const genesis = genesisFromJson(json, String(json.chain_id));
  const trust: SnapshotTrust = {
    chainId: genesis.chainId,
    genesisSet: new ValidatorSet(genesisRoster(genesis)),
    trustedSetHashes: trustedSetHashes.map((h) => h.toLowerCase()),
  };
  return trust;
}

export interface VerifiedSnapshot {
  manifest: SnapshotManifest;
  block: Block;
  blockBytes: Uint8Array;
  /** The chain counters row as the source had it (statistics; not covered by the state root). */
  counters: Uint8Array | undefined;
  rows: number;
  validatorSetHash: string;
  signers: number;
}

export type RowSink = (rows: { key: Uint8Array; value: Uint8Array }[]) => Promise<void>;

function fail(code: ConstructorParameters<typeof SnapshotError>[0], message: string, details = {}): never {
  throw new SnapshotError(code, message, details);
}

export async function verifySnapshot(
  file: string,
  trust: SnapshotTrust,
  opts: { progress?: (line: string) => void; sink?: RowSink; onBlock?: (block: Block) => Promise<void> } = {},
): Promise<VerifiedSnapshot> {
  const progress = opts.progress ?? (() => {});
  const fh = await open(file, 'r');
  try {
    const r = new SnapshotReader(fh, (await fh.stat()).size);
    await r.start();
    const expect = async (kind: number, what: string) => {
      const s = await r.next();
      if (s === undefined || s.kind !== kind) fail('snapshot_malformed', `expected the ${what} section`);
      return s.payload;
    };
    let manifest: SnapshotManifest;
    try {
      manifest = JSON.parse(new TextDecoder().decode(await expect(SECTION.manifest, 'MANIFEST')));
    } catch (e) {
      if (e instanceof SnapshotError) throw e;
      fail('snapshot_malformed', 'the manifest is not JSON');
    }
    if (manifest.format !== SNAPSHOT_FORMAT || !Number.isSafeInteger(manifest.height) || manifest.height < 2)
      fail('snapshot_malformed', `unknown snapshot format ${String(manifest.format)} or height`);
    if (manifest.chain_id !== trust.chainId)
      fail(
        'snapshot_chain_mismatch',
        `the snapshot is of chain "${manifest.chain_id}", the genesis of "${trust.chainId}"`,
      );
    const blockBytes = await expect(SECTION.block, 'BLOCK');
    const d = decode(BlockCodec, blockBytes, STORED_BLOCK_LIMITS);
    if (!d.ok) fail('snapshot_malformed', `the block does not decode: ${d.error.message}`);
    const block = d.value;
    const { header, certificate: cert } = block;
    const hash = blockHash(header);
    if (cert.phase.kind !== 'Commit' || cert.height !== header.height || !bytesEqual(cert.blockHash, hash))
      fail(
        'snapshot_certificate_invalid',
        `the certificate does not certify block ${header.height}'s header`,
        {
          problem: 'subject',
        },
      );
    if (
      header.height !== manifest.height ||
      manifest.block_hash !== toHex(hash) ||
      manifest.state_root !== toHex(header.stateRoot)
    )
      fail('snapshot_malformed', 'the manifest does not describe the block it carries');
    if (stateRootVersion(header.stateRoot) !== 2)
      fail('snapshot_state_root_version', 'the header commits to the state with a multiset hash (version 1)');
    await opts.onBlock?.(block);
    const countersPayload = await expect(SECTION.counters, 'COUNTERS');
    const leaves = new LeavesRoot();
    const peerRows: { key: Uint8Array; value: Uint8Array }[] = [];
    let last: Uint8Array | undefined;
    let end: SnapshotEnd | undefined;
    for (;;) {
      const s = await r.next();
      if (s === undefined) fail('snapshot_malformed', 'the file has no END section');
      if (s.kind === SECTION.end) {
        try {
          end = JSON.parse(new TextDecoder().decode(s.payload)) as SnapshotEnd;
        } catch {
          fail('snapshot_malformed', 'the END section is not JSON');
        }
        break;
      }
      if (s.kind !== SECTION.rows) fail('snapshot_malformed', `an unexpected section of kind ${s.kind}`);
      const batch: { key: Uint8Array; value: Uint8Array }[] = [];
      for (const row of rowsOf(s.payload)) {
        if (last !== undefined && compareBytes(last, row.key) >= 0)
          fail('snapshot_rows_invalid', 'rows out of key order, or a key twice');
        if (row.key.length === 0 || row.key[0]! < 0x01 || row.key[0]! >= STATE_INDEX_PREFIX)
          fail('snapshot_rows_invalid', 'a row outside the world-state key ranges');
        last = row.key;
        leaves.add(row.key, row.value);
        if (row.key[0] === TABLE_TAGS.peer) peerRows.push(row);
        batch.push(row);
      }
      await opts.sink?.(batch);
      if (leaves.size % 100_000 < batch.length) progress(`${leaves.size} rows checked`);
    }
    if ((await r.next()) !== undefined) fail('snapshot_malformed', 'bytes after the END section');
    if (end.sha256 !== r.sha256BeforeEnd() || end.rows !== leaves.size)
      fail('snapshot_damaged', "the file's SHA-256 or row count differs from its END section");
    if (!bytesEqual(leaves.stateRoot(), header.stateRoot))
      fail('snapshot_state_root_mismatch', `the rows do not give block ${header.height}'s state root`, {
        height: header.height,
      });
    // The rows are the certified header's: the validator set read from them is the chain's.
    let state: WorldState;
    try {
      state = WorldState.fromEntries(peerRows);
    } catch {
      fail('snapshot_rows_invalid', 'the peer rows do not decode');
    }
    const history = rosterHistory(state, header.height);
    const set = validatorSetAt(state, header.height);
    const setHex = toHex(set.hash);
    if (history.length === 0 || !bytesEqual(history[0]!.set.hash, trust.genesisSet.hash))
      fail('snapshot_validator_set_untrusted', "the snapshot's first validator set is not the genesis set");
    if (
      set.size === 0 ||
      (!bytesEqual(set.hash, trust.genesisSet.hash) && !trust.trustedSetHashes.includes(setHex))
    )
      fail(
        'snapshot_validator_set_untrusted',
        `the validator set of height ${header.height} (${setHex}) is not the genesis set: name it with --trust-validator-set after checking it`,
        { validator_set_hash: setHex },
      );
    const problem = verifyCertificate(trust.chainId, cert, set);
    if (problem !== undefined)
      fail('snapshot_certificate_invalid', `the certificate of block ${header.height}: ${problem}`, {
        problem,
      });
    const signers = [...cert.signers].reduce((n, b) => n + popcount(b), 0);
    return {
      manifest,
      block,
      blockBytes,
      counters: countersPayload.length === 0 ? undefined : countersPayload,
      rows: leaves.size,
      validatorSetHash: setHex,
      signers,
    };
  } finally {
    await fh.close();
  }
}

function popcount(b: number): number {
  let n = 0;
  for (let x = b; x !== 0; x >>= 1) n += x & 1;
  return n;
}
