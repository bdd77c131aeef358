// Rows of the zero-knowledge tables (the pool: state/exec-shielded.ts): spent nullifiers (state table
// 0x0f; of note spends and of a ledger module's private instructions) and the shielded pool's note tree
// (0x10). Field elements are kept in their text form (64 lower-case hex digits), as the `Field` codec
// gives them.

import type { Infer } from '../codec/codec.js';
import { enumOf, seq, struct } from '../codec/compound.js';
import { string, varuint } from '../codec/primitives.js';
import { fieldFromHex, fieldToHex } from '../zk/field.js';
import { Field, Groth16ProofCodec } from './proofs.js';

/** A spend of a shielded note: the note tree root, its nullifier, the change note and the proof. */
export const NoteSpendCodec = struct('NoteSpend', {
  root: Field,
  nullifier: Field,
  changeCommitment: Field,
  proof: Groth16ProofCodec,
});
export type NoteSpend = Infer<typeof NoteSpendCodec>;

/** Depth of the shielded pool's note tree (circuits/note_spend.circom): 65,536 notes. */
export const POOL_TREE_DEPTH = 16;
/** How many recent pool roots a spend may name (the current one included). */
export const POOL_ROOT_HISTORY = 64;

/** What a nullifier was spent by; the kind is part of the row id. */
export type NullifierKind = 'roster' | 'usage' | 'note';

/**
 * The row id of a spent nullifier: `<kind>:<64 lower-case hex digits>`, the canonical text of the
 * field element (the text form accepts either case: one nullifier, one row). Text that is no field
 * element keeps its lower-cased form; no proof verifies for it.
 */
export function nullifierId(kind: NullifierKind, nullifier: string): string {
  const value = fieldFromHex(nullifier);
  const text = value !== undefined ? fieldToHex(value) : nullifier.toLowerCase();
  return `${kind}:${text}`;
}

/** A spent nullifier and the block that spent it. */
export const NullifierRecordCodec = struct('NullifierRecord', { id: string(80), height: varuint });
export type NullifierRecord = Infer<typeof NullifierRecordCodec>;

/**
 * The pool tree, one table: a `Leaf` row per note commitment (id `leaf:<index, 8 digits>`, so
 * leaves sort by index) and one `Tree` row (id `tree`): the leaf count, the frontier of the
 * append-only tree and the last POOL_ROOT_HISTORY roots, newest last.
 */
export const ShieldedPoolRowCodec = enumOf('ShieldedPoolRow', {
  Leaf: { index: varuint, commitment: Field },
  Tree: { count: varuint, frontier: seq(Field, POOL_TREE_DEPTH), roots: seq(Field, POOL_ROOT_HISTORY) },
});
export type ShieldedPoolRow = Infer<typeof ShieldedPoolRowCodec>;

export const POOL_TREE_ID = 'tree';

export function poolLeafId(index: number): string {
  return `leaf:${String(index).padStart(8, '0')}`;
}

export function poolRowId(row: ShieldedPoolRow): string {
  return row.kind === 'Leaf' ? poolLeafId(row.index) : POOL_TREE_ID;
}
