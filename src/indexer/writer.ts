// Writing verified blocks to PostgreSQL: a batch of consecutive blocks in one transaction, their rows
// (COPY for the append-only tables, upserts for the mutable ones) and `indexer_state.height` together, so a
// crash at any point leaves either all of a batch or none of it (exactly once by height).

import type { Pool, PoolClient } from 'pg';
import type { Checkpoint } from './checkpoint.js';
import { copyRows } from './copy.js';
import { IndexerError } from './errors.js';
import { type BlockRows, COPY_COLUMNS } from './rows.js';

export interface IndexedTip {
  chainId: string;
  genesisHash: Buffer;
  height: number;
  blockHash: Buffer;
}

export async function readTip(pool: Pool): Promise<IndexedTip | undefined> {
  const r = await pool.query<{ chain_id: string; genesis_hash: Buffer; height: string; block_hash: Buffer }>(
    'SELECT chain_id, genesis_hash, height, block_hash FROM indexer_state',
  );
  const row = r.rows[0];
  if (row === undefined) return undefined;
  return {
    chainId: row.chain_id,
    genesisHash: row.genesis_hash,
    height: Number(row.height),
    blockHash: row.block_hash,
  };
}

/** The indexed hash of each block from `from` to `to`, in height order. */
export async function indexedHashes(pool: Pool, from: number, to: number): Promise<Map<number, Buffer>> {
  const r = await pool.query<{ height: string; hash: Buffer }>(
    'SELECT height, hash FROM blocks WHERE height BETWEEN $1 AND $2',
    [from, to],
  );
  return new Map(r.rows.map((row) => [Number(row.height), row.hash]));
}

export interface WriteCounts {
  blocks: number;
  rows: number;
}

/** The stored state checkpoint, if any (checkpoint.ts). */
export async function readCheckpoint(pool: Pool): Promise<Checkpoint | undefined> {
  const r = await pool.query<{ height: string; block_hash: Buffer; state: Buffer }>(
    'SELECT height, block_hash, state FROM indexer_checkpoint',
  );
  const row = r.rows[0];
  return row === undefined
    ? undefined
    : { height: Number(row.height), blockHash: row.block_hash, state: row.state };
}

/** The indexed block of `height`: its hash and state root. */
export async function indexedBlock(
  pool: Pool,
  height: number,
): Promise<{ hash: Buffer; stateRoot: Buffer } | undefined> {
  const r = await pool.query<{ hash: Buffer; state_root: Buffer }>(
    'SELECT hash, state_root FROM blocks WHERE height = $1',
    [height],
  );
  const row = r.rows[0];
  return row === undefined ? undefined : { hash: row.hash, stateRoot: row.state_root };
}

/**
 * Writes `batch` (consecutive heights after the indexed tip) and moves the tip to its last block; with
 * `checkpoint` (the encoded state after the batch's last block), replaces the state checkpoint too.
 */
export async function writeBatch(
  pool: Pool,
  chainId: string,
  batch: readonly BlockRows[],
  checkpoint?: Buffer,
): Promise<WriteCounts> {
  if (batch.length === 0) return { blocks: 0, rows: 0 };
  const client = await pool.connect();
  let rows = 0;
  try {
    await client.query('BEGIN');
    const first = batch[0]!.height;
    // The tip row is locked for the transaction: a second indexer on the same database waits here and
    // then finds its heights taken (below) instead of writing them twice.
    const tip = await client.query<{ height: string }>('SELECT height FROM indexer_state FOR UPDATE');
    const indexed = tip.rows[0] === undefined ? 0 : Number(tip.rows[0].height);
    if (indexed !== first - 1)
      throw new IndexerError(
        'index_block_out_of_order',
        `block ${first}: the database is indexed to height ${indexed} (another indexer on it?)`,
        first,
      );
    for (const table of Object.keys(COPY_COLUMNS) as (keyof typeof COPY_COLUMNS)[]) {
      const all = batch.flatMap((b) => b.appended[table]);
      rows += await copyRows(client, table, COPY_COLUMNS[table], all);
    }
    rows += await upserts(client, batch);
    const last = batch[batch.length - 1]!;
    if (indexed === 0) {
      await client.query(
        'INSERT INTO indexer_state (chain_id, genesis_hash, height, block_hash) VALUES ($1, $2, $3, $4)',
        [chainId, Buffer.from(batch[0]!.hash), last.height, Buffer.from(last.hash)],
      );
    } else {
      await client.query('UPDATE indexer_state SET height = $1, block_hash = $2', [
        last.height,
        Buffer.from(last.hash),
      ]);
    }
    if (checkpoint !== undefined)
      await client.query(
        `INSERT INTO indexer_checkpoint (height, block_hash, state) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET height = EXCLUDED.height, block_hash = EXCLUDED.block_hash,
           state = EXCLUDED.state`,
        [last.height, Buffer.from(last.hash), checkpoint],
      );
    await client.query('COMMIT');
    return { blocks: batch.length, rows };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

/** Stores the state checkpoint after block `height` alone, if that block is still the indexed tip. */
export async function writeCheckpoint(
  pool: Pool,
  height: number,
  hash: Uint8Array,
  state: Buffer,
): Promise<boolean> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const tip = await client.query<{ height: string }>('SELECT height FROM indexer_state FOR UPDATE');
    if (tip.rows[0] === undefined || Number(tip.rows[0].height) !== height) {
      await client.query('ROLLBACK');
      return false;
    }
    await client.query(
      `INSERT INTO indexer_checkpoint (height, block_hash, state) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET height = EXCLUDED.height, block_hash = EXCLUDED.block_hash,
         state = EXCLUDED.state`,
      [height, Buffer.from(hash), state],
    );
    await client.query('COMMIT');
    return true;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

/** The mutable tables, in block order (a later block's value wins). Returns the rows written. */
async function upserts(client: PoolClient, batch: readonly BlockRows[]): Promise<number> {
  let n = 0;
  for (const b of batch) {
    for (const a of b.accounts) {
      if (a.created)
        await client.query(
          `INSERT INTO accounts (id, domain, created_height, deleted_height) VALUES ($1, $2, $3, $4)
           ON CONFLICT (id) DO UPDATE SET created_height = EXCLUDED.created_height,
             deleted_height = EXCLUDED.deleted_height`,
          [a.id, a.domain, b.height, a.deleted ? b.height : null],
        );
      else if (a.deleted)
        await client.query('UPDATE accounts SET deleted_height = $2 WHERE id = $1', [a.id, b.height]);
      n++;
    }
    const kept = b.balances.filter((x) => x.amount !== undefined);
    const gone = b.balances.filter((x) => x.amount === undefined).map((x) => x.id);
    if (kept.length > 0)
      await client.query(
        `INSERT INTO balances (asset_id, account, definition, amount, updated_height)
         SELECT id, account, definition, amount::numeric, $5
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t(id, account, definition, amount)
         ON CONFLICT (asset_id) DO UPDATE SET amount = EXCLUDED.amount, updated_height = EXCLUDED.updated_height`,
        [
          kept.map((x) => x.id),
          kept.map((x) => x.account),
          kept.map((x) => x.definition),
          kept.map((x) => x.amount!),
          b.height,
        ],
      );
    if (gone.length > 0) await client.query('DELETE FROM balances WHERE asset_id = ANY($1::text[])', [gone]);
    if (b.holders.length > 0)
      await client.query(
        `INSERT INTO asset_holders (definition, holders, total, updated_height)
         SELECT definition, holders, total::numeric, $4
           FROM unnest($1::text[], $2::int[], $3::text[]) AS t(definition, holders, total)
         ON CONFLICT (definition) DO UPDATE SET holders = EXCLUDED.holders, total = EXCLUDED.total,
           updated_height = EXCLUDED.updated_height`,
        [
          b.holders.map((x) => x.definition),
          b.holders.map((x) => x.holders),
          b.holders.map((x) => x.total),
          b.height,
        ],
      );
    n += b.balances.length + b.holders.length;
  }
  return n;
}
