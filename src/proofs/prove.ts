// One state key's proof at a height, as the state-proof route and the batch query answer it: the
// proof from the state tree, the value the proof's leaf names (the committed value, or an old value
// kept for a pinned height), and the table and row the key names.

import type { Codec } from '../codec/codec.js';
import { decode } from '../codec/frame.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { gatewayError } from '../gateway/errors.js';
import type { Block } from '../model/block.js';
import { keyHash as hashOfKey, valueHash } from '../state/merkle/hash.js';
import { encodeStateProof } from '../state/merkle/proof.js';
import { StateTreeVersionError } from '../state/merkle/tree.js';
import { TABLES } from '../state/tables.js';
import { bytesEqual } from '../util/hex.js';
import type { ProofsPort } from './port.js';
import { tableOfKey } from './state-key.js';
import type { ProofBatchItem } from './views.js';

/** The committed block at `height`, or 404 not_found. */
export async function blockAt(port: ProofsPort, height: number): Promise<Block> {
  const block = height > port.chain.height() ? undefined : await port.chain.block(height);
  if (block === undefined) throw gatewayError('not_found', { height, tip: port.chain.height() });
  return block;
}

/** The oldest height of the rolling window of state tree versions. */
export function oldestKept(port: ProofsPort, stateHeight: number): number {
  return Math.max(1, stateHeight - port.versionsKept);
}

/**
 * The proof of `key` at `height` (≤ `stateHeight`, checked by the caller); 410
 * state_proof_height_pruned when that version is not kept, 409 state_proof_value_changed when the
 * value it holds is neither the committed one nor a kept old one. Synchronous: one state.
 */
export function proveKey(
  port: ProofsPort,
  key: Uint8Array,
  height: number,
  stateHeight: number,
): ProofBatchItem {
  let proof: ReturnType<ProofsPort['prove']>;
  try {
    proof = port.prove(key, height);
  } catch (e) {
    if (!(e instanceof StateTreeVersionError)) throw e;
    throw gatewayError('state_proof_height_pruned', {
      height,
      oldest_kept: oldestKept(port, stateHeight),
      state_height: stateHeight,
    });
  }
  const leaf = proof.leaf;
  const present = leaf !== undefined && bytesEqual(leaf.keyHash, hashOfKey(key));
  let value: Uint8Array | undefined;
  if (present) {
    value = port.currentValue(key);
    if (value === undefined || !bytesEqual(valueHash(value), leaf.valueHash))
      value = port.archivedValue(key, leaf.valueHash);
    if (value === undefined || !bytesEqual(valueHash(value), leaf.valueHash))
      throw gatewayError('state_proof_value_changed', { height, state_height: stateHeight });
  }
  const where = tableOfKey(key);
  const decoded = value === undefined || where === undefined ? undefined : decodedJson(where.table, value);
  return {
    key,
    present,
    proof: encodeStateProof(proof),
    ...(where === undefined ? {} : { table: where.table, id: where.id }),
    ...(value === undefined ? {} : { value }),
    ...(decoded === undefined ? {} : { decoded }),
  };
}

function decodedJson(table: keyof typeof TABLES, value: Uint8Array) {
  const codec = TABLES[table].codec as Codec<unknown>;
  const r = decode(codec, value, DEFAULT_DECODE_LIMITS);
  return r.ok ? codec.toJson(r.value) : undefined;
}
