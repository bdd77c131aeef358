// The ledger: committed blocks (block log), the world state (in memory, persisted per block) and the
// transaction indexes. Commit order (docs/design/testing.md "Durability discipline"): append the block and fsync, then
// make the new state visible, then announce; the state store follows in the background and a restart
// replays whatever blocks it had not yet recorded, checking every replayed block's hash.

import { type DecodeResult, decode } from '../codec/frame.js';
import type { DecodeLimits } from '../codec/limits.js';
import { type Block, BlockCodec, type CommitCertificate, encodeBlock, ZERO_HASH } from '../model/block.js';
import { decodeBlockWithSpans, spanTransactionHash } from '../model/block-spans.js';
import { stateRootVersion } from '../state/merkle/hash.js';
import { EMPTY_TREE_VERSION, type StateTree } from '../state/merkle/tree.js';
import type { ProofVerdicts } from '../state/proof-verdicts.js';
import {
  decodeCount,
  decodeIndexMeta,
  STATE_INDEX_META_KEY,
  STATE_INDEX_PREFIX,
  tableCountKey,
} from '../state/state-index-keys.js';
import { TABLES, tableNames } from '../state/tables.js';
import { WorldState } from '../state/world-state.js';
import { BlockLog } from '../storage/block-log.js';
import type { BlockStore, BlockStoreOpenReport, StateBackend, StateChange } from '../storage/block-store.js';
import { StateStore } from '../storage/state-store.js';
import type { StateWarmUp, WarmUpProgress } from '../storage/state-warm.js';
import { assert } from '../util/assert.js';
import type { FailPoints } from '../util/failpoints.js';
import { bytesEqual, toHex } from '../util/hex.js';
import { accountHistory } from './account-history.js';
import {
  CHAIN_COUNTERS_KEY,
  type ChainCounters,
  countBlock,
  decodeCounters,
  encodeCounters,
  zeroCounters,
} from './chain-counters.js';
import { assertCommitExtendsTip, assertTipIs, type Tip } from './commit-checks.js';
import { type ExecutedBlock, executeProposal, sealBlock } from './executed-block.js';
import { decodeHistoryEntries, type HistoryEntry } from './history-entries.js';
import { pushIndexChanges } from './index-writes.js';
import type { ProofRetention } from './proof-retention.js';
import { openStoredTree } from './state-tree-store.js';
import {
  decodeLocation,
  TX_BY_ACCOUNT_PREFIX,
  TX_BY_ASSET_PREFIX,
  TX_BY_DEFINITION_PREFIX,
  type TxLocation,
  txByAccountKeyAt,
  txByHashKey,
  txIndexPrefix,
} from './tx-index.js';

/** What the ledger needs whatever its stores are. */
export interface LedgerCoreOptions {
  chainId: string;
  decodeLimits: DecodeLimits;
  /** Decoded blocks kept in memory for reads and streams. */
  blockCacheMax?: number;
  /** Decoded state-tree nodes kept in memory (config storage.state_tree_cache_nodes). */
  stateTreeCacheNodes?: number;
  /** Versions of the state tree kept readable for proofs (config storage.state_tree_versions_kept). */
  stateTreeVersionsKept?: number;
  /**
   * Keep the world state's rows and indexes in the state store, with this many decoded rows cached in
   * the heap (config storage.state_row_cache_rows); without it the whole state is loaded into the heap
   * (the simulator's and tests' memory stores). `Ledger.open` always keeps them on disk.
   */
  stateRowCacheRows?: number;
  /** Pinned heights kept provable beyond the window, and their old values (proof-retention.ts). */
  proofRetention?: ProofRetention;
  /**
   * Committed blocks whose state store write may still be pending before `commit` waits for the oldest
   * (default STATE_WRITES_BEHIND_MAX): block production slows to the store's pace instead of queueing
   * blocks' changes, and the tree nodes they hold, without bound.
   */
  stateWritesBehindMax?: number;
}

/** Blocks the state store may fall behind the block log before a commit waits for it. */
export const STATE_WRITES_BEHIND_MAX = 8;

/** Decoded rows a ledger on disk keeps in the heap unless configured (storage.state_row_cache_rows). */
export const STATE_ROW_CACHE_ROWS_DEFAULT = 100_000;

/** The disk stores' options besides the core ones (`Ledger.open`). */
export interface LedgerOptions extends LedgerCoreOptions {
  dir: string;
  fsync: boolean;
  segmentBytesMax: number;
  lmdbMapBytes: number;
  /** `storage.read_ahead` (StateStoreOptions.readAhead); default true. */
  readAhead?: boolean;
  /** `storage.map_chunks` (StateStoreOptions.mapChunks); default false. */
  mapChunks?: boolean;
  failPoints?: FailPoints;
}

/** Stores already open, for `Ledger.openWith` (the simulator's memory stores, or disk ones). */
export interface LedgerStores {
  blocks: BlockStore;
  state: StateBackend;
  /** What opening the block store found (default: nothing cut). */
  blocksReport?: BlockStoreOpenReport;
}

export interface LedgerOpenReport {
  height: number;
  stateHeight: number;
  replayedBlocks: number;
  truncatedTailBytes: number;
}

/** The codes a ledger refuses to open (or replay) with: listed in docs/errors.md "Data on disk". */
export const LEDGER_ERROR_CODES = [
  'ledger_replay_mismatch',
  'ledger_block_undecodable',
  'ledger_state_ahead',
  'ledger_state_chain_mismatch',
  'ledger_state_root_mismatch',
  'ledger_state_behind_base',
] as const;
export type LedgerErrorCode = (typeof LEDGER_ERROR_CODES)[number];

export class LedgerError extends Error {
  override readonly name = 'LedgerError';
  constructor(
    readonly code: LedgerErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

export class Ledger {
  private readonly cache = new Map<number, Block>();
  private readonly pendingIndex = new Map<string, TxLocation>();
  private stateWrites: Promise<void> = Promise.resolve();
  /** One promise per committed block whose state write has not finished, oldest first. */
  private readonly stateWritesPending: Promise<void>[] = [];
  private stateWriteError: unknown;
  /** The version of a state tree built at open whose nodes the next block's state write must carry. */
  private treeBootstrapVersion: number | undefined;
  /**
   * Whether the state store keeps the world state's index entries and counts (state-index-keys.ts), and
   * whether the next block's write must carry all of them (a store written before they were kept).
   */
  private storeIndexes = false;
  private indexBootstrap = false;
  /** Chain counters as of the newest block applied (chain-counters.ts). */
  private chainCounters: ChainCounters = zeroCounters();
  /** The newest height applied to the world state (replayed or committed); blocks apply in order. */
  private appliedHeight: number;
  /** The newest height in `cache` (0: none yet). */
  private newestCached = 0;

  private constructor(
    readonly state: WorldState,
    private readonly log: BlockStore,
    private readonly store: StateBackend,
    private readonly opts: LedgerCoreOptions,
  ) {
    this.appliedHeight = store.appliedHeight();
    // Opened only after the state store was checked not to lead the log (`openWith`).
    assert(
      Number.isSafeInteger(this.appliedHeight) && this.appliedHeight >= 0 && this.appliedHeight <= log.height,
      `ledger: state applied at ${this.appliedHeight}, blocks at ${log.height}`,
    );
  }

  /** Opens (creating if needed) the block log and state store under `opts.dir`. */
  static async open(opts: LedgerOptions): Promise<{ ledger: Ledger; report: LedgerOpenReport }> {
    const { log, report } = await BlockLog.open(opts.dir, {
      segmentBytesMax: opts.segmentBytesMax,
      fsync: opts.fsync,
      ...(opts.failPoints ? { failPoints: opts.failPoints } : {}),
    });
    const store = await StateStore.open(opts.dir, {
      fsync: opts.fsync,
      mapSizeBytes: opts.lmdbMapBytes,
      ...(opts.readAhead === false ? { readAhead: false } : {}),
      ...(opts.mapChunks === true ? { mapChunks: true } : {}),
      ...(opts.failPoints ? { failPoints: opts.failPoints } : {}),
    });
    const opened = await Ledger.openWith(
      { blocks: log, state: store, blocksReport: report },
      { ...opts, stateRowCacheRows: opts.stateRowCacheRows ?? STATE_ROW_CACHE_ROWS_DEFAULT },
    );
    // Recovery replayed exactly the blocks the state store had not recorded.
    const r = opened.report;
    assert(
      r.replayedBlocks === r.height - r.stateHeight && r.height === opened.ledger.height(),
      `ledger: opened at ${r.height} from state ${r.stateHeight} replaying ${r.replayedBlocks} blocks`,
    );
    return opened;
  }

  /**
   * A ledger over stores already open: checks that the state is not ahead of the blocks, loads the
   * world state and replays the blocks the state had not recorded. Closing the ledger closes them.
   */
  static async openWith(
    stores: LedgerStores,
    opts: LedgerCoreOptions,
  ): Promise<{ ledger: Ledger; report: LedgerOpenReport }> {
    const { blocks: log, state: store } = stores;
    const stateHeight = store.appliedHeight();
    if (stateHeight > log.height) {
      throw new LedgerError(
        'ledger_state_ahead',
        `state store is at height ${stateHeight} but the block log ends at ${log.height}`,
      );
    }
    // A log restored from a snapshot holds no block before its base: the state must start there.
    const base = log.firstHeight ?? 1;
    if (base > 1 && stateHeight < base) {
      throw new LedgerError(
        'ledger_state_behind_base',
        `the block log starts at height ${base} (restored from a snapshot) but the state store is at ${stateHeight}: the restore did not finish`,
        { height: stateHeight, base },
      );
    }
    await checkStateOnChain(log, store, stateHeight);
    // Rows stay in the store when it keeps their indexes and counts (nothing is decoded at start);
    // otherwise only the world state's key ranges are loaded into the heap: the transaction indexes
    // (0xFD, 0xFE) stay on disk and are read on demand.
    const treeOpts = {
      cacheNodes: opts.stateTreeCacheNodes,
      versionsKept: opts.stateTreeVersionsKept,
      pins: opts.proofRetention?.pins,
    };
    const { tree, built } = openStoredTree(store, stateHeight, treeOpts);
    const onDisk = opts.stateRowCacheRows === undefined ? undefined : storedIndexState(store, stateHeight);
    const load = (t: StateTree, isBuilt: boolean): WorldState =>
      onDisk !== undefined
        ? WorldState.onDisk(store, {
            version: stateHeight,
            sum: onDisk.sum,
            count: onDisk.count,
            cacheRows: opts.stateRowCacheRows!,
            ...(isBuilt ? { emptyTree: t, rows: () => worldStateEntries(store) } : { tree: t }),
          })
        : WorldState.fromEntries(
            worldStateEntries(store),
            isBuilt ? { version: stateHeight, emptyTree: t } : { version: stateHeight, tree: t },
          );
    let state = load(tree, built);
    const headerRoot = await headerStateRoot(log, stateHeight, opts.decodeLimits);
    if (!built && headerRoot !== undefined && !stateTreeMatches(state, headerRoot)) {
      // A stored tree that is not the header's (damaged): built again from the rows, which must match.
      state = load(openStoredTree(store, EMPTY_TREE_VERSION, treeOpts).tree, true);
    }
    if (headerRoot !== undefined && !stateTreeMatches(state, headerRoot)) {
      throw new LedgerError(
        'ledger_state_root_mismatch',
        `the state store's rows at height ${stateHeight} do not give the state root of its block`,
        { height: stateHeight },
      );
    }
    const ledger = new Ledger(state, log, store, opts);
    // Replay starts where the state store's own record ends.
    assert(
      ledger.appliedHeight === stateHeight,
      `ledger: opened at ${ledger.appliedHeight}, state at ${stateHeight}`,
    );
    // A tree built at open (a store written before the state tree existed, or a damaged one) is written
    // with the next block (or, with none, built again at the next start).
    if (state.tree.pendingCount() > 0) ledger.treeBootstrapVersion = stateHeight;
    // A store that is to keep the indexes but has none yet (written before they were kept): the state
    // was loaded into the heap, and the next block's write carries every index entry and count.
    if (opts.stateRowCacheRows !== undefined) {
      ledger.storeIndexes = true;
      if (onDisk === undefined) {
        state.recordStoreWrites();
        ledger.indexBootstrap = true;
      }
    }
    ledger.chainCounters =
      decodeCounters(store.get(CHAIN_COUNTERS_KEY)) ?? (await ledger.countStoredBlocks(stateHeight));
    let replayed = 0;
    for await (const rec of log.iterate(stateHeight + 1)) {
      assert(
        rec.height === stateHeight + 1 + replayed,
        `ledger: replay read block ${rec.height} after ${stateHeight + replayed}`,
      );
      const { block, spans } = ledger.decodeRecord(rec.height, rec.bytes, decodeBlockWithSpans);
      ledger.replay(
        block,
        spans.map((s) => spanTransactionHash(rec.bytes, s)),
        rec.hash,
      );
      replayed++;
    }
    await ledger.flushState();
    // Opened: nothing else writes yet, so the state store has caught up with every block exactly.
    assert(
      store.appliedHeight() === log.height && ledger.appliedHeight === log.height,
      `ledger: opened with state at ${store.appliedHeight()} (applied ${ledger.appliedHeight}), blocks at ${log.height}`,
    );
    // A load into the heap read every world-state page of the store once; nothing reads them again.
    if (!state.onDisk) await store.releaseMappedPages?.();
    return {
      ledger,
      report: {
        height: log.height,
        stateHeight,
        replayedBlocks: replayed,
        truncatedTailBytes: stores.blocksReport?.truncatedTailBytes ?? 0,
      },
    };
  }

  /** The kept old value of a state key whose value hash is `vh` (proof pins); undefined when none. */
  archivedValue(key: Uint8Array, vh: Uint8Array): Uint8Array | undefined {
    assert(vh.length === 32, `ledger: a ${vh.length}-byte value hash`);
    return this.opts.proofRetention?.archived(this.store, key, vh);
  }

  /** The proof pins of this ledger's state tree; undefined when it keeps none (memory ledgers). */
  get proofRetention(): ProofRetention | undefined {
    return this.opts.proofRetention;
  }

  /** The first height the block log holds (above 1 for a node restored from a snapshot). */
  blockLogBase(): number {
    const base = this.log.firstHeight ?? 1;
    assert(Number.isSafeInteger(base) && base >= 1, `ledger: block log base ${base}`);
    return base;
  }

  height(): number {
    const height = this.log.height;
    // Never behind the world state: a block is visible only once the log holds it.
    assert(
      height >= this.appliedHeight,
      `ledger: log at ${height} behind the state at ${this.appliedHeight}`,
    );
    return height;
  }

  /** Counters of the committed chain (a copy): they survive restarts (chain-counters.ts). */
  counters(): ChainCounters {
    // Counted from the blocks applied: no more non-empty blocks than blocks.
    assert(
      this.chainCounters.blocksNonEmpty <= this.appliedHeight,
      `ledger: ${this.chainCounters.blocksNonEmpty} non-empty blocks of ${this.appliedHeight}`,
    );
    return { ...this.chainCounters };
  }

  tipHash(): Uint8Array {
    const hash = this.log.tipHash ?? ZERO_HASH;
    assert(hash.length === 32, `ledger: a ${hash.length}-byte tip hash`);
    return hash;
  }

  /** Executes a proposal for the next height on a scratch view of the committed state. */
  execute(p: {
    view: number;
    creationTimeMs: number;
    transactions: ExecutedBlock['transactions'];
    hashes: Uint8Array[];
    hashHexes?: string[];
    encoded?: readonly (Uint8Array | undefined)[];
    /** Only to re-execute a stored block of an older chain (executed-block.ts); new blocks take 2. */
    stateRootVersion?: 1 | 2;
    /** Proof verdicts computed at admission (executed-block.ts `Proposal.proofs`). */
    proofs?: ProofVerdicts | undefined;
  }): ExecutedBlock {
    // Results, events and index entries are matched to transactions by position.
    const n = p.transactions.length;
    assert(
      p.hashes.length === n && (p.hashHexes?.length ?? n) === n && (p.encoded?.length ?? n) === n,
      `ledger: ${n} transactions with ${p.hashes.length} hashes, ${p.hashHexes?.length} hex hashes, ${p.encoded?.length} encodings`,
    );
    const height = this.height() + 1;
    return executeProposal(this.state, this.opts.chainId, {
      ...p,
      height,
      prevHash: this.tipHash(),
      genesis: height === 1,
    });
  }

  /** Durable first (append + fsync), then visible; the state store write follows in order. */
  async commit(executed: ExecutedBlock, certificate: CommitCertificate): Promise<Block> {
    if (this.stateWriteError !== undefined) throw this.stateWriteError;
    assertCommitExtendsTip(this.tip(), executed, certificate);
    const block = sealBlock(executed, certificate);
    const bytes = encodeBlock(block, executed.encodedTransactions, 1024 + executed.transactions.length * 256);
    await this.log.append([
      { height: executed.header.height, hash: executed.hash, prevHash: executed.header.prevHash, bytes },
    ]);
    assertTipIs(this.tip(), executed);
    this.applyCommitted(block, executed);
    // The world state moved exactly to this block, with the log.
    assert(
      this.appliedHeight === executed.header.height,
      `ledger: state at ${this.appliedHeight} after committing block ${executed.header.height}`,
    );
    // Backpressure: the state store may fall only so many blocks behind (their changes wait in memory).
    const behindMax = this.opts.stateWritesBehindMax ?? STATE_WRITES_BEHIND_MAX;
    while (this.stateWritesPending.length > behindMax) await this.stateWritesPending[0];
    return block;
  }

  private tip(): Tip {
    // The log has a tip hash exactly when it holds a block (before genesis the parent is all zeros).
    assert(
      (this.log.height === 0) === (this.log.tipHash === undefined),
      `ledger: log at height ${this.log.height} with${this.log.tipHash === undefined ? 'out' : ''} a tip hash`,
    );
    return { height: this.height(), hash: this.tipHash() };
  }

  private applyCommitted(block: Block, executed: ExecutedBlock): void {
    const height = block.header.height;
    // The world state takes blocks one at a time, in order, and never runs ahead of the durable log.
    assert(
      height === this.appliedHeight + 1 && height <= this.log.height,
      `ledger: applying block ${height} after ${this.appliedHeight} (log at ${this.log.height})`,
    );
    // A transaction is executed at most once: none is indexed already by a block whose write is pending
    // (checked before the state moves; O(1) per transaction).
    const hexes = executed.hashHexes;
    for (const h of hexes) assert(!this.pendingIndex.has(h), 'ledger: a transaction indexed twice');
    const changes: StateChange[] = executed.execution.changes();
    // The state tree's nodes go to the store in the same transaction as the rows they commit to.
    if (this.treeBootstrapVersion !== undefined) {
      for (const w of this.state.tree.pendingWrites(this.treeBootstrapVersion)) changes.push(w);
      this.treeBootstrapVersion = undefined;
    }
    for (const w of executed.execution.treeWrites()) changes.push(w);
    // Old values and clean-up of proof pins, read off the state before the block (proof-retention.ts).
    const retention = this.opts.proofRetention;
    if (retention !== undefined)
      for (const w of retention.blockWrites(
        executed.execution.overwritten(),
        this.state.tree,
        this.store,
        height,
      ))
        changes.push(w);
    executed.execution.commit();
    // The rows' index entries, the tables' counts and the accumulator, in the same transaction too.
    if (this.storeIndexes) {
      for (const w of this.state.takeStoreWrites(this.indexBootstrap)) changes.push(w);
      this.indexBootstrap = false;
    }
    // The visible state is the one the header names (the tree's root, or an old block's multiset root).
    assert(
      bytesEqual(this.state.stateRootLike(block.header.stateRoot), block.header.stateRoot),
      `ledger: the state root after applying block ${height} is not its header's`,
    );
    this.appliedHeight = height;
    for (let i = 0; i < hexes.length; i++) this.pendingIndex.set(hexes[i]!, { height, index: i });
    pushIndexChanges(block, executed.hashes, changes);
    countBlock(this.chainCounters, block);
    changes.push({ key: CHAIN_COUNTERS_KEY, value: encodeCounters(this.chainCounters) });
    this.remember(height, block);
    const hash = executed.hash;
    this.stateWrites = this.stateWrites.then(async () => {
      try {
        // This block's write is the oldest pending one: writes run one at a time, in height order.
        assert(this.stateWritesPending.length > 0, `ledger: state write of block ${height} not pending`);
        await this.store.commit(height, hash, changes);
        assert(
          this.store.appliedHeight() === height,
          `ledger: state store at ${this.store.appliedHeight()} after committing block ${height}`,
        );
        this.state.tree.durable(height);
        this.state.durable(height);
        retention?.durable(height);
        for (const h of hexes) this.pendingIndex.delete(h);
      } catch (e) {
        this.stateWriteError ??= e;
      } finally {
        this.stateWritesPending.shift();
      }
    });
    this.stateWritesPending.push(this.stateWrites);
  }

  /** Re-executes a stored block and checks that it reproduces the stored header exactly. */
  private replay(block: Block, hashes: Uint8Array[], recordedHash: Uint8Array): void {
    const { header } = block;
    assert(
      hashes.length === block.transactions.length,
      `ledger: replaying block ${header.height} with ${hashes.length} hashes for ${block.transactions.length} transactions`,
    );
    // The hash the log recorded for this height, and the block the state takes next.
    assert(
      recordedHash.length === 32 && header.height === this.appliedHeight + 1,
      `ledger: replaying block ${header.height} onto ${this.appliedHeight} against a ${recordedHash.length}-byte hash`,
    );
    const executed = executeProposal(this.state, this.opts.chainId, {
      height: header.height,
      prevHash: header.prevHash,
      view: header.view,
      creationTimeMs: header.creationTimeMs,
      transactions: block.transactions,
      hashes,
      genesis: header.height === 1,
      stateRootVersion: stateRootVersion(header.stateRoot),
    });
    if (!bytesEqual(executed.hash, recordedHash)) {
      throw new LedgerError(
        'ledger_replay_mismatch',
        `replaying block ${header.height} gave hash ${toHex(executed.hash)}, the log holds ${toHex(recordedHash)} (state root ${toHex(executed.header.stateRoot)} vs ${toHex(header.stateRoot)})`,
      );
    }
    this.applyCommitted(block, executed);
  }

  /**
   * The chain counters of blocks 1..`height` counted from the log: only for a state store written before
   * the counters were kept in it (it then has them from its next block on).
   */
  private async countStoredBlocks(height: number): Promise<ChainCounters> {
    const c = zeroCounters();
    if (height === 0) return c;
    let counted = 0;
    for await (const rec of this.log.iterate(1, height)) {
      // The log yields blocks 1..height in order, each once.
      assert(rec.height === counted + 1, `ledger: counting block ${rec.height} after ${counted}`);
      countBlock(c, this.decodeBlock(rec.height, rec.bytes));
      counted++;
    }
    assert(counted === height, `ledger: counted ${counted} of ${height} stored blocks`);
    return c;
  }

  private decodeBlock(height: number, bytes: Uint8Array): Block {
    const block = this.decodeRecord(height, bytes, (b, limits) => decode(BlockCodec, b, limits));
    // The record at a height holds that height's block (the log checked its CRC; we wrote it).
    assert(
      block.header.height === height,
      `ledger: the record of height ${height} holds block ${block.header.height}`,
    );
    return block;
  }

  /** Decodes a block record of the log (without the gateway's size limits: the log's blocks are ours). */
  private decodeRecord<T>(
    height: number,
    bytes: Uint8Array,
    decoder: (bytes: Uint8Array, limits: DecodeLimits) => DecodeResult<T>,
  ): T {
    assert(Number.isSafeInteger(height) && height >= 1, `ledger: decoding a record at height ${height}`);
    const d = decoder(bytes, {
      ...this.opts.decodeLimits,
      bytesMax: Number.MAX_SAFE_INTEGER,
      itemsMax: Number.MAX_SAFE_INTEGER,
    });
    if (!d.ok)
      throw new LedgerError(
        'ledger_block_undecodable',
        `block ${height} does not decode: ${d.error.code} ${d.error.message}`,
      );
    return d.value;
  }

  private remember(height: number, block: Block): void {
    // Eviction drops the first key as the oldest: heights must be remembered in increasing order.
    assert(
      height > this.newestCached && block.header.height === height,
      `ledger: block ${height} cached after ${this.newestCached}`,
    );
    this.newestCached = height;
    this.cache.set(height, block);
    const max = this.opts.blockCacheMax ?? 256;
    if (this.cache.size > max) this.cache.delete(this.cache.keys().next().value!);
    assert(this.cache.size <= max, `ledger: ${this.cache.size} blocks cached of ${max}`);
  }

  async block(height: number): Promise<Block | undefined> {
    if (!Number.isSafeInteger(height) || height < 1 || height > this.height()) return undefined;
    const cached = this.cache.get(height);
    // The cache is keyed by height: it holds that height's block.
    assert(
      cached === undefined || cached.header.height === height,
      `ledger: block ${height} cached as another`,
    );
    if (cached !== undefined) return cached;
    const rec = await this.log.read(height);
    assert(rec === undefined || rec.height === height, `ledger: read of block ${height} gave ${rec?.height}`);
    return rec === undefined ? undefined : this.decodeBlock(height, rec.bytes);
  }

  /** The committed block's bytes as stored (BlockCodec, with its certificate), for serving sync. */
  async blockBytes(height: number): Promise<Uint8Array | undefined> {
    if (!Number.isSafeInteger(height) || height < 1 || height > this.height()) return undefined;
    const rec = await this.log.read(height);
    assert(rec === undefined || rec.height === height, `ledger: read of block ${height} gave ${rec?.height}`);
    return rec?.bytes;
  }

  /** `block` for synchronous callers (query execution): cache, else a positioned read of the log. */
  blockSync(height: number): Block | undefined {
    if (!Number.isSafeInteger(height) || height < 1 || height > this.height()) return undefined;
    const cached = this.cache.get(height);
    assert(
      cached === undefined || cached.header.height === height,
      `ledger: block ${height} cached as another`,
    );
    if (cached !== undefined) return cached;
    const rec = this.log.readSync(height);
    assert(rec === undefined || rec.height === height, `ledger: read of block ${height} gave ${rec?.height}`);
    return rec === undefined ? undefined : this.decodeBlock(height, rec.bytes);
  }

  /** Where a committed transaction sits, or undefined (`hashHex`: the hash in hex, when known). */
  locate(hash: Uint8Array, hashHex = toHex(hash)): TxLocation | undefined {
    const pending = this.pendingIndex.get(hashHex);
    if (pending !== undefined) {
      // Indexed only once its block was durable in the log.
      assert(pending.height <= this.height(), `ledger: ${hashHex} indexed at ${pending.height} past the tip`);
      return pending;
    }
    const v = this.store.get(txByHashKey(hash));
    return v === undefined ? undefined : decodeLocation(v);
  }

  /** Newest-first locations of an account's transactions (offset/limit over the index). */
  async accountTransactions(
    account: string,
    offset: number,
    limit: number,
  ): Promise<{ total: number; items: TxLocation[] }> {
    // Paging bounds come validated from the routes: never negative or fractional.
    assert(
      Number.isSafeInteger(offset) && offset >= 0 && Number.isSafeInteger(limit) && limit >= 0,
      `ledger: history page at ${offset} of ${limit}`,
    );
    await this.stateWrites; // the index is read from the store: let committed blocks reach it first
    return accountHistory((prefix) => this.store.entries(prefix), account, offset, limit);
  }

  /** Oldest-first history of an account as of the last durable state write (see flushState). */
  accountTransactionsSync(account: string): TxLocation[] {
    const items = accountHistory(
      (prefix) => this.store.entries(prefix),
      account,
      0,
      Number.MAX_SAFE_INTEGER,
    ).items.reverse();
    // Oldest first, and never past the durable log.
    assert(
      items.length === 0 ||
        (items[0]!.height <= items.at(-1)!.height && items.at(-1)!.height <= this.height()),
      `ledger: ${account}'s history runs from ${items[0]?.height} to ${items.at(-1)?.height}`,
    );
    return items;
  }

  /**
   * The entries of one history index (`tag`: TX_BY_ACCOUNT_PREFIX, …) under `id`, oldest first, once every committed
   * block's writes reached the store (the indexes are read from it, never from the blocks).
   */
  async indexEntries(tag: number, id: string): Promise<Iterable<HistoryEntry>> {
    assertHistoryTag(tag);
    await this.stateWrites;
    return decodeHistoryEntries(this.store.entries(txIndexPrefix(tag, id)));
  }

  /** Whether the index `tag` lists the transaction at `loc` under `id` (after `indexEntries`'s wait). */
  indexHas(tag: number, id: string, loc: TxLocation): boolean {
    assertHistoryTag(tag);
    return this.store.get(txByAccountKeyAt(txIndexPrefix(tag, id), loc)) !== undefined;
  }

  /** Resolves once every committed block's state changes are durable in the state store. */
  async flushState(): Promise<void> {
    await this.stateWrites;
    if (this.stateWriteError !== undefined) throw this.stateWriteError;
    // The state store follows the block log, never leads it (a restart replays the difference).
    assert(
      this.store.appliedHeight() <= this.height(),
      `ledger: state store at ${this.store.appliedHeight()} ahead of the block log at ${this.height()}`,
    );
  }

  stateStoreHeight(): number {
    const height = this.store.appliedHeight();
    // The state store follows the world state, which follows the log.
    assert(
      height <= this.appliedHeight,
      `ledger: state store at ${height} ahead of the state applied at ${this.appliedHeight}`,
    );
    return height;
  }

  /**
   * Starts reading the world state's rows and their indexes (key spaces 0x01 to STATE_INDEX_PREFIX) in the
   * background, so account reads find their pages in the page cache (StateBackend.warmUp; storage.warm_up);
   * undefined over a store that has nothing to warm.
   */
  warmUpWorldState(onProgress?: (p: WarmUpProgress) => void): StateWarmUp | undefined {
    // The rows' key spaces lie below the indexes', the indexes' below the tree's (0xFA).
    assert(STATE_INDEX_PREFIX + 1 === 0xfa, 'ledger: the index key space is not just below the tree');
    return this.store.warmUp?.(0x01, STATE_INDEX_PREFIX + 1, onProgress);
  }

  async close(): Promise<void> {
    await this.stateWrites;
    // Every committed block's state write finished (or failed and was recorded) before the stores close.
    assert(
      this.stateWriteError !== undefined || this.store.appliedHeight() <= this.height(),
      'ledger: the state store ran ahead of the log at close',
    );
    await this.log.close();
    await this.store.close();
  }
}

/**
 * The state store's applied block must be the log's block at that height: a state store of another
 * chain, or a damaged one, is refused (data on disk: a typed error, never an assertion).
 */
async function checkStateOnChain(log: BlockStore, store: StateBackend, height: number): Promise<void> {
  // Asked only after the state store was found not to lead the log.
  assert(
    height >= 0 && height <= log.height,
    `ledger: checking the state at ${height} against ${log.height}`,
  );
  if (height === 0) return;
  const stateHash = store.appliedBlockHash();
  const rec = await log.read(height);
  const logHash = rec?.height === height ? rec.hash : undefined;
  if (stateHash !== undefined && logHash !== undefined && bytesEqual(stateHash, logHash)) return;
  const stateHex = stateHash === undefined ? 'none' : toHex(stateHash);
  const logHex = logHash === undefined ? 'none' : toHex(logHash);
  throw new LedgerError(
    'ledger_state_chain_mismatch',
    `state store applied block ${stateHex} at height ${height} but the block log holds ${logHex} there`,
    { height, state_block_hash: stateHex, log_block_hash: logHex },
  );
}

/** The history indexes read by `indexEntries` (the hash index has another key layout). */
function assertHistoryTag(tag: number): void {
  assert(
    tag === TX_BY_ACCOUNT_PREFIX || tag === TX_BY_DEFINITION_PREFIX || tag === TX_BY_ASSET_PREFIX,
    `ledger: history index tag ${tag}`,
  );
}

/** The state root in the header of block `height` of the log (undefined at height 0). */
async function headerStateRoot(
  log: BlockStore,
  height: number,
  limits: DecodeLimits,
): Promise<Uint8Array | undefined> {
  if (height === 0) return undefined;
  const rec = await log.read(height);
  if (rec === undefined) return undefined;
  assert(rec.height === height, `ledger: read block ${height}, got ${rec.height}`);
  const d = decode(BlockCodec, rec.bytes, limits);
  return d.ok ? d.value.header.stateRoot : undefined;
}

/** Whether the state tree's root is the header's (always, for a header of version 1: nothing to compare). */
function stateTreeMatches(state: WorldState, headerRoot: Uint8Array): boolean {
  assert(headerRoot.length === 32, `ledger: a ${headerRoot.length}-byte state root in a header`);
  return stateRootVersion(headerRoot) === 1 || bytesEqual(state.stateRoot(), headerRoot);
}

/** Every stored row, read table by table (lazily, in key order); the index range is not rows. */
function* worldStateEntries(store: StateBackend): Iterable<{ key: Uint8Array; value: Uint8Array }> {
  // Row tags lie below the index range, and the index range below the tree's nodes.
  assert(STATE_INDEX_PREFIX > 0x01 && STATE_INDEX_PREFIX < 0xfa, 'ledger: key ranges out of order');
  for (let tag = 0x01; tag < STATE_INDEX_PREFIX; tag++) yield* store.entries(Uint8Array.of(tag));
}

/**
 * The accumulator and table counts the store keeps beside the rows at `height`, or undefined when it
 * keeps none (written before they were kept) or they do not read back (then rebuilt from the rows).
 */
function storedIndexState(
  store: StateBackend,
  height: number,
): { sum: bigint; count: (tag: number) => number } | undefined {
  const meta = decodeIndexMeta(store.get(STATE_INDEX_META_KEY));
  if (meta === undefined) return height === 0 ? { sum: 0n, count: () => 0 } : undefined;
  const counts = new Map<number, number>();
  for (const name of tableNames()) {
    const tag = TABLES[name].tag;
    const bytes = store.get(tableCountKey(tag));
    const n = bytes === undefined ? 0 : decodeCount(bytes);
    if (n === undefined) return undefined;
    assert(!counts.has(tag), `ledger: two tables with tag ${tag}`);
    counts.set(tag, n);
  }
  return { sum: meta.sum, count: (tag) => counts.get(tag) ?? 0 };
}
