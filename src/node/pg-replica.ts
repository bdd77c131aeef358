// The replica read backend (a module's `readSource` of kind `pg-replica`, docs/indexer.md): the read
// families answer from the blocks `torana index --pg`
// wrote (table `blocks`, column `payload`), not from the node's own stores. The blocks read from the
// database are re-executed, in height order, into a ledger of its own in memory (block store, world
// state, commit-time indexes), and the routes run their ordinary code over it: every answer is the one
// the node's own ledger gives at the same height, by construction. The replica follows the database's
// indexed height (`indexer_state.height`), polled every `pollMs`; where the indexer lags the
// node, the routes answer at the indexed height and say so (`x-torana-indexed-height`).
//
// Each block is checked against the row the indexer verified it as: re-execution must give the stored
// block hash (`blocks.hash`), and its certificate must extend the replica's tip (Ledger.commit).

import pg from 'pg';
import { decode } from '../codec/frame.js';
import { DEFAULT_DECODE_LIMITS, type DecodeLimits } from '../codec/limits.js';
import type { ChainReader, EventsPort } from '../gateway/ports.js';
import { pgConfig } from '../indexer/indexer.js';
import { type Block, BlockCodec, blockHash } from '../model/block.js';
import type { EventEnvelope } from '../model/events.js';
import { transactionHash } from '../model/transaction.js';
import { appliedEventId } from '../pipeline/event-id.js';
import { Ledger } from '../pipeline/ledger.js';
import { stateRootVersion } from '../state/merkle/hash.js';
import { MemoryBlockStore } from '../storage/memory-block-store.js';
import { MemoryStateBackend } from '../storage/memory-state-backend.js';
import { bytesEqual, toHex } from '../util/hex.js';

/** Blocks read from the database in one query. */
export const REPLICA_READ_BLOCKS = 256;

export interface PgReplicaOptions {
  /** The database: a `postgres://` URL or libpq `key=value` pairs (as `torana index --pg`). */
  conninfo: string;
  chainId: string;
  /** How often the indexed height is read again. */
  pollMs: number;
  /** The setting that named the database, as the replica's errors name it (the module's configuration key). */
  label: string;
  decodeLimits?: DecodeLimits;
  /** A failed poll (the database unreachable): reported once per distinct failure; the replica keeps its height and retries. */
  onError: (e: unknown) => void;
}

/** Why the backend cannot serve from this database (the node does not start). */
export class PgReplicaError extends Error {
  override readonly name = 'PgReplicaError';
}

export class PgReplica {
  private readonly listeners = new Set<(e: EventEnvelope) => void>();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> = Promise.resolve();
  private closed = false;
  private lastFailure: string | undefined;
  /** Height → hash of the blocks applied, for the read families' block-by-hash lookup. */
  private readonly heights = new Map<string, number>();

  private constructor(
    private readonly pool: pg.Pool,
    readonly ledger: Ledger,
    private readonly opts: PgReplicaOptions,
  ) {}

  /** Opens the database, checks its chain and replays every indexed block; then follows it. */
  static async open(opts: PgReplicaOptions): Promise<PgReplica> {
    const pool = new pg.Pool({ ...pgConfig(opts.conninfo), max: 1 });
    pool.on('error', () => undefined); // an idle client's error surfaces on the next query
    const { store, report } = MemoryBlockStore.open();
    const { ledger } = await Ledger.openWith(
      { blocks: store, state: MemoryStateBackend.open(), blocksReport: report },
      { chainId: opts.chainId, decodeLimits: opts.decodeLimits ?? DEFAULT_DECODE_LIMITS },
    );
    const replica = new PgReplica(pool, ledger, opts);
    try {
      await replica.catchUp();
    } catch (e) {
      await pool.end().catch(() => undefined);
      throw e;
    }
    replica.schedule();
    return replica;
  }

  /** The height every answer is given at: the indexed height when last read. */
  height(): number {
    return this.ledger.height();
  }

  /** The chain reader of the replayed blocks (node/ports.ts reads the node's ledger the same way). */
  chain(): ChainReader {
    const l = this.ledger;
    return {
      height: () => l.height(),
      tipHash: () => l.tipHash(),
      tipTimeMs: () => l.blockSync(l.height())?.header.creationTimeMs ?? 0,
      block: (h) => l.block(h),
      locate: (h) => l.locate(h),
      accountTransactions: (a, offset, limit) => l.accountTransactions(a, offset, limit),
    };
  }

  /** Block Applied of each replayed block (what the read families' stream feeds wake on); nothing else. */
  events(): EventsPort {
    return {
      since: () => 'gone',
      subscribe: (fn) => {
        this.listeners.add(fn);
        return () => this.listeners.delete(fn);
      },
      lastId: () => appliedEventId(this.ledger.height()),
    };
  }

  blockHeightByHash(hash: Uint8Array): number | undefined {
    return this.heights.get(toHex(hash));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    await this.polling.catch(() => undefined);
    await this.pool.end().catch(() => undefined);
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.polling = this.catchUp()
        .then(() => {
          this.lastFailure = undefined;
        })
        .catch((e: unknown) => {
          // Logged once per distinct failure, not every poll while the database stays away.
          const why = String((e as Error)?.message ?? e);
          if (why !== this.lastFailure) this.opts.onError(e);
          this.lastFailure = why;
        })
        .finally(() => this.schedule());
    }, this.opts.pollMs);
    this.timer.unref();
  }

  /** Applies the blocks the database holds beyond the replica's height, up to its indexed height. */
  private async catchUp(): Promise<void> {
    const tip = await this.pool.query<{ chain_id: string; height: string }>(
      'SELECT chain_id, height FROM indexer_state',
    );
    const row = tip.rows[0];
    if (row === undefined) return; // nothing indexed yet
    if (row.chain_id !== this.opts.chainId)
      throw new PgReplicaError(
        `${this.opts.label} indexes chain ${row.chain_id}, this node serves ${this.opts.chainId}`,
      );
    const indexed = Number(row.height);
    while (!this.closed && this.ledger.height() < indexed) {
      const from = this.ledger.height() + 1;
      const rows = await this.pool.query<{ height: string; hash: Buffer; payload: Buffer | null }>(
        'SELECT height, hash, payload FROM blocks WHERE height >= $1 AND height <= $2 ORDER BY height LIMIT $3',
        [from, indexed, REPLICA_READ_BLOCKS],
      );
      if (rows.rows.length === 0) throw new PgReplicaError(`${this.opts.label} holds no block ${from}`);
      for (const r of rows.rows) await this.apply(Number(r.height), r.hash, r.payload);
    }
  }

  private async apply(height: number, hash: Uint8Array, payload: Uint8Array | null): Promise<void> {
    if (payload === null)
      throw new PgReplicaError(
        `${this.opts.label}: block ${height} was indexed without its payload (before the payload column): index the chain again into an empty database`,
      );
    const d = decode(BlockCodec, payload, this.opts.decodeLimits ?? DEFAULT_DECODE_LIMITS);
    if (!d.ok)
      throw new PgReplicaError(`${this.opts.label}: block ${height} does not decode (${d.error.code})`);
    const block: Block = d.value;
    const { header } = block;
    if (header.height !== height || height !== this.ledger.height() + 1)
      throw new PgReplicaError(`${this.opts.label}: row ${height} holds block ${header.height}`);
    const executed = this.ledger.execute({
      view: header.view,
      creationTimeMs: header.creationTimeMs,
      transactions: block.transactions,
      hashes: block.transactions.map((tx) => transactionHash(tx)),
      stateRootVersion: stateRootVersion(header.stateRoot),
    });
    if (!bytesEqual(executed.hash, hash) || !bytesEqual(blockHash(header), hash))
      throw new PgReplicaError(
        `${this.opts.label}: block ${height} re-executes to ${toHex(executed.hash)}, the indexer stored ${toHex(hash)}`,
      );
    await this.ledger.commit(executed, block.certificate);
    this.heights.set(toHex(hash), height);
    const applied: EventEnvelope = {
      id: appliedEventId(height),
      event: { kind: 'Block', height, hash, status: { kind: 'Applied' } },
    };
    for (const fn of this.listeners) fn(applied);
  }
}
