// The indexer's state checkpoint: the follower's verified world state after a block, as the persisted
// state pairs (state/persist.ts, sorted by key), each `u32 key length, key, u32 value length, value`
// (little-endian). It lives in the indexer's own database (table indexer_checkpoint), written in the
// transaction of the batch it ends; a restart loads it, checks that its state root is the root the
// indexed block's header carries (itself under a verified certificate when it was indexed), and
// re-executes only the blocks after it.

import { WorldState } from '../state/world-state.js';
import { bytesEqual, toHex } from '../util/hex.js';
import { IndexerError } from './errors.js';

export interface Checkpoint {
  height: number;
  blockHash: Uint8Array;
  state: Uint8Array;
}

/** The state's pairs as one buffer (see the format above). */
export function encodeState(state: WorldState): Buffer {
  const parts: Buffer[] = [];
  for (const { key, value } of state.entries()) {
    const head = Buffer.alloc(4);
    head.writeUInt32LE(key.length);
    const mid = Buffer.alloc(4);
    mid.writeUInt32LE(value.length);
    parts.push(head, Buffer.from(key), mid, Buffer.from(value));
  }
  return Buffer.concat(parts);
}

function* pairs(buf: Uint8Array, height: number): Generator<{ key: Uint8Array; value: Uint8Array }> {
  const view = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  let at = 0;
  const take = (): Uint8Array => {
    if (at + 4 > view.length) throw corrupt(height, `truncated at byte ${at}`);
    const n = view.readUInt32LE(at);
    at += 4;
    if (at + n > view.length) throw corrupt(height, `a ${n}-byte field past the end at byte ${at}`);
    const out = view.subarray(at, at + n);
    at += n;
    return out;
  };
  while (at < view.length) yield { key: take(), value: take() };
}

function corrupt(height: number, why: string): IndexerError {
  return new IndexerError(
    'index_checkpoint_invalid',
    `the state checkpoint at height ${height}: ${why}`,
    height,
  );
}

/**
 * The state of checkpoint `c`, checked against the indexed block of its height: the same hash, and the
 * state root that block's header names. Throws IndexerError('index_checkpoint_invalid') otherwise.
 */
export function loadCheckpoint(
  c: Checkpoint,
  indexed: { hash: Uint8Array; stateRoot: Uint8Array } | undefined,
): WorldState {
  if (indexed === undefined) throw corrupt(c.height, 'no indexed block of its height');
  if (!bytesEqual(indexed.hash, c.blockHash))
    throw corrupt(
      c.height,
      `it is of block ${toHex(c.blockHash)}, the indexed block is ${toHex(indexed.hash)}`,
    );
  let state: WorldState;
  try {
    state = WorldState.fromEntries(pairs(c.state, c.height), { version: c.height });
  } catch (e) {
    if (e instanceof IndexerError) throw e;
    throw corrupt(c.height, (e as Error).message);
  }
  const root = state.stateRootLike(indexed.stateRoot);
  if (!bytesEqual(root, indexed.stateRoot))
    throw corrupt(
      c.height,
      `its state root ${toHex(root)} is not the root ${toHex(indexed.stateRoot)} of the indexed block`,
    );
  return state;
}
