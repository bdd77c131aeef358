// The shielded native asset (docs/conference.md "Shielded fee"). ShieldAsset moves native asset
// from the authority to the pool account (custom parameter `shielded_pool_account`) and appends the
// note commitment Poseidon(amount in base units, ownerHash) to the pool tree (table 0x10). A private
// create or join pays the entry fee (custom parameter `conference_entry_fee`, a decimal in the
// native asset) by a note spend: its root must be one of the last 64 pool roots, its nullifier
// unspent (table 0x0f), its proof valid for (fee, bind); the pool account then transfers the fee to
// the call's billing account and the change note joins the tree. Conservation: the pool account
// holds exactly the sum of the unspent notes' values.

import type { Json } from '../codec/codec.js';
import type { NoteSpend } from '../model/conference.js';
import type { AssetDefinition } from '../model/entities.js';
import { parseNumeric, rescale } from '../model/numeric.js';
import {
  nullifierId,
  POOL_ROOT_HISTORY,
  POOL_TREE_DEPTH,
  POOL_TREE_ID,
  poolLeafId,
  type ShieldedPoolRow,
} from '../model/shielded.js';
import { fieldFromHex, fieldToHex } from '../zk/field.js';
import { emptyFrontier, type Frontier, frontierAppend, poseidon2 } from '../zk/poseidon-tree.js';
import { charge, nativeAsset } from './exec-conference-billing.js';
import { isFail } from './exec-conference-common.js';
import { type ExecContext, type Fail, fail, type Handler } from './exec-context.js';
import { verifyProof } from './exec-zk-keys.js';

export const POOL_ACCOUNT_PARAMETER = 'shielded_pool_account';
export const ENTRY_FEE_PARAMETER = 'conference_entry_fee';
/** Note values, fees and changes are range-checked to 64 bits in circuits/note_spend.circom. */
const NOTE_VALUE_LIMIT = 1n << 64n;

export interface Pool {
  readonly account: string;
  readonly native: AssetDefinition;
  /** The entry fee in base units of the native asset (0 when the parameter is unset). */
  readonly fee: bigint;
}

function notConfigured(why: string): Fail {
  return fail('shielded_pool_not_configured', why);
}

/** The pool account, native asset and entry fee: shielded_pool_not_configured when unusable. */
export function loadPool(x: ExecContext): Pool | Fail {
  const custom = x.view.parameters().custom;
  const account: Json | undefined = custom.get(POOL_ACCOUNT_PARAMETER);
  if (typeof account !== 'string' || !x.t.account.has(account))
    return notConfigured(`the ${POOL_ACCOUNT_PARAMETER} parameter must name an account`);
  const native = nativeAsset(x);
  if (isFail(native)) return native;
  const feeText: Json | undefined = custom.get(ENTRY_FEE_PARAMETER);
  if (feeText === undefined) return { account, native, fee: 0n };
  const parsed = typeof feeText === 'string' ? parseNumeric(feeText) : undefined;
  const fee = parsed === undefined ? undefined : rescale(parsed, native.scale);
  if (fee === undefined || fee >= NOTE_VALUE_LIMIT)
    return notConfigured(
      `the ${ENTRY_FEE_PARAMETER} parameter must be a decimal at the native scale, < 2^64`,
    );
  return { account, native, fee };
}

interface TreeState {
  readonly frontier: Frontier;
  readonly roots: readonly string[];
}

function loadTree(x: ExecContext): TreeState {
  const row = x.t.shieldedPool.get(POOL_TREE_ID);
  if (row === undefined || row.kind !== 'Tree')
    return { frontier: emptyFrontier(POOL_TREE_DEPTH), roots: [] };
  const nodes = row.frontier.map((h) => fieldFromHex(h) ?? 0n);
  const root = fieldFromHex(row.roots[row.roots.length - 1] ?? '') ?? 0n;
  return { frontier: { depth: POOL_TREE_DEPTH, count: row.count, nodes, root }, roots: row.roots };
}

/** Appends a note commitment to the pool tree: shielded_pool_full when it holds 2^16 notes. */
function appendNote(x: ExecContext, commitment: bigint): Fail | undefined {
  const tree = loadTree(x);
  const next = frontierAppend(tree.frontier, commitment);
  if (next === undefined) return fail('shielded_pool_full', `the pool holds ${2 ** POOL_TREE_DEPTH} notes`);
  const index = tree.frontier.count;
  const leaf: ShieldedPoolRow = { kind: 'Leaf', index, commitment: fieldToHex(commitment) };
  const roots = [...tree.roots, fieldToHex(next.root)].slice(-POOL_ROOT_HISTORY);
  const row: ShieldedPoolRow = {
    kind: 'Tree',
    count: next.count,
    frontier: next.nodes.map(fieldToHex),
    roots,
  };
  x.t.shieldedPool.set(poolLeafId(index), leaf);
  x.t.shieldedPool.set(POOL_TREE_ID, row);
  return undefined;
}

/** Records a spent nullifier: nullifier_reused when it was spent before. */
export function spendNullifier(x: ExecContext, id: string): Fail | undefined {
  if (x.t.nullifier.has(id)) return fail('nullifier_reused', `nullifier ${id} is already spent`);
  x.t.nullifier.set(id, { id, height: x.block.height });
  return undefined;
}

/**
 * Pays the entry fee from a note spend bound to `bind`, to `payee`. A fee above zero without a
 * spend is insufficient_shielded_value (a client whose notes are worth less than the fee cannot
 * prove a spend); then unknown_root, nullifier_reused, zk_proof_invalid, and the transfer's codes.
 */
export function payFee(
  x: ExecContext,
  spend: NoteSpend | undefined,
  bind: bigint,
  payee: string,
): Fail | undefined {
  const pool = loadPool(x);
  if (isFail(pool)) return pool;
  if (spend === undefined) {
    return pool.fee === 0n
      ? undefined
      : fail('insufficient_shielded_value', `the entry fee is ${pool.fee} base units: spend a note`);
  }
  if (!loadTree(x).roots.includes(spend.root))
    return fail('unknown_root', `${spend.root} is not among the last ${POOL_ROOT_HISTORY} pool roots`);
  const id = nullifierId('note', spend.nullifier);
  if (x.t.nullifier.has(id)) return fail('nullifier_reused', `note nullifier ${spend.nullifier} is spent`);
  const signals = [spend.nullifier, spend.changeCommitment, spend.root].map((h) => fieldFromHex(h) ?? 0n);
  const bad = verifyProof(x, 'shielded_note_vk', spend.proof, [...signals, pool.fee, bind]);
  if (bad) return bad;
  if (pool.fee > 0n) {
    const paid = charge(x, pool.native, pool.account, payee, pool.fee);
    if (paid) return paid;
  }
  return spendNullifier(x, id) ?? appendNote(x, signals[1]!);
}

/** ShieldAsset: pool configured, not the pool itself, amount exact at the native scale and below 2^64, then the transfer. */
export const shieldAsset: Handler<'ShieldAsset'> = (x, ins) => {
  const pool = loadPool(x);
  if (isFail(pool)) return pool;
  if (x.authority === pool.account)
    return fail('invalid_amount', 'the pool account cannot shield: its notes would not be backed');
  const units = rescale(ins.amount, pool.native.scale);
  if (units === undefined || units === 0n || units >= NOTE_VALUE_LIMIT)
    return fail(
      'invalid_amount',
      `the amount must be above zero, exact at scale ${pool.native.scale}, < 2^64`,
    );
  const ownerHash = fieldFromHex(ins.ownerHash) ?? 0n;
  const paid = charge(x, pool.native, x.authority, pool.account, units);
  if (paid) return paid;
  return appendNote(x, poseidon2([units, ownerHash]));
};
