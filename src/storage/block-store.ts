// The storage ports the ledger runs on (docs/design/architecture.md). `BlockStore` is what the ledger
// needs of a block log, `StateBackend` what it needs of a state store. The disk implementations are
// `BlockLog` (segment files) and `StateStore` (LMDB); `MemoryBlockStore` and `MemoryStateBackend`
// (memory-stores.ts) hold the same contract in memory, with fault hooks, for the simulator and tests.

import type { BlockRecord } from './record.js';
import type { StateWarmUp, WarmUpProgress } from './state-warm.js';

export type { BlockRecord } from './record.js';

/** What opening a block store found. */
export interface BlockStoreOpenReport {
  height: number;
  /** Bytes cut from the end of the store (a torn write from a crash); 0 when nothing was cut. */
  truncatedTailBytes: number;
}

export interface BlockStore {
  /**
   * The first height the store holds: 1 (genesis), or the height of the snapshot it was restored from
   * (storage/block-log-base.ts); undefined means 1.
   */
  readonly firstHeight?: number;
  /** The last durable height; 0 when empty. */
  readonly height: number;
  /** The hash of the last durable record (a copy), or undefined when empty. */
  readonly tipHash: Uint8Array | undefined;
  /**
   * Appends records after the tip and resolves once they are durable (fsynced) and readable. Throws
   * StorageError `storage_invalid_append` / `storage_record_too_large` (nothing written) or
   * `storage_failed` (the store refuses further appends until reopened).
   */
  append(records: readonly BlockRecord[]): Promise<void>;
  /** The record at `height`, or undefined when not (yet) stored. */
  read(height: number): Promise<BlockRecord | undefined>;
  /** `read` for callers that cannot await. */
  readSync(height: number): BlockRecord | undefined;
  /** Records `fromHeight..toHeight` (default: the height when called), in order. */
  iterate(fromHeight: number, toHeight?: number): AsyncIterable<BlockRecord>;
  /** Waits for appends in flight, then releases the store. Idempotent. */
  close(): Promise<void>;
}

export interface StateChange {
  key: Uint8Array | string;
  /** undefined deletes the key. */
  value: Uint8Array | undefined;
}

export interface StateBackend {
  /** Height of the last block whose changes are durable; 0 when empty. */
  appliedHeight(): number;
  appliedBlockHash(): Uint8Array | undefined;
  /**
   * Applies `changes` (a later change to the same key wins) and records (`height`, `blockHash`) as
   * applied, atomically; resolves once durable. `height` must be appliedHeight() + 1.
   */
  commit(height: number, blockHash: Uint8Array, changes: readonly StateChange[]): Promise<void>;
  get(key: Uint8Array | string): Uint8Array | undefined;
  /** Entries whose key starts with `prefix` (default: all), sorted by key bytes. */
  entries(prefix?: Uint8Array | string): Iterable<{ key: Uint8Array; value: Uint8Array }>;
  /** Entries with start ≤ key < end, ascending by key bytes, or descending with `reverse` (optional). */
  range?(
    start: Uint8Array,
    end: Uint8Array,
    reverse: boolean,
  ): Iterable<{ key: Uint8Array; value: Uint8Array }>;
  /** Waits for writes in flight, then closes. Idempotent. */
  close(): Promise<void>;
  /** Drops what a full read left resident (a memory-mapped store reopens its map); optional. */
  releaseMappedPages?(): Promise<void>;
  /**
   * Reads the user keys whose first byte is in [fromByte, toByte) in the background, so a later read finds
   * their pages cached (StateStore.warmUp); optional: a store in memory has nothing to warm.
   */
  warmUp?(fromByte: number, toByte: number, onProgress?: (p: WarmUpProgress) => void): StateWarmUp;
}
