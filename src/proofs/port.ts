// What the ledger-proofs family needs from the node (gateway/family.ts): the committed blocks, the state
// tree's proofs at the heights it keeps, the committed value of a state key and the validator set that
// certifies a height. node/proofs-port.ts adapts the node to it in one line.

import type { Validator } from '../consensus/validator-set.js';
import type { ChainReader } from '../gateway/ports.js';
import type { StateProof } from '../state/merkle/proof.js';

export interface ProofsPort {
  chain: ChainReader;
  chainId: string;
  /** The height the committed state is of (the state tree's current version). */
  stateHeight(): number;
  /** The state tree's proof for `key` at `height`; StateTreeVersionError when that version is not kept. */
  prove(key: Uint8Array, height: number): StateProof;
  /** The committed (current) value bytes of a state key; undefined when no row has that key. */
  currentValue(key: Uint8Array): Uint8Array | undefined;
  /** The roster of the validator set with hash `setHash` that certifies `height`; undefined if unknown. */
  validatorsAt(height: number, setHash: Uint8Array): Validator[] | undefined;
  /** How many versions of the state tree the node keeps (`storage.state_tree_versions_kept`). */
  versionsKept: number;
  /** A kept old value of `key` whose value hash is `vh` (for pinned heights); undefined when none. */
  archivedValue(key: Uint8Array, vh: Uint8Array): Uint8Array | undefined;
  /** The first height the block log holds (above 1 for a node restored from a snapshot). */
  blockLogBase(): number;
  /** The node's proof pins; undefined when it keeps none (a node without a state store). */
  pins: ProofPins | undefined;
  /** The most pins an operator may set (`storage.state_proof_pins_max`). */
  pinsMax: number;
}

/** Pinned heights (pipeline/proof-retention.ts): kept provable beyond the window, durable across restarts. */
export interface ProofPins {
  list(): { height: number; complete: boolean }[];
  /** Pins now, resolves once recorded durably. */
  pin(height: number, complete: boolean): Promise<void>;
  /** False when `height` was not pinned. */
  unpin(height: number): Promise<boolean>;
}
