// The shielded native asset. ShieldAsset moves native asset from the authority to the pool account
// (custom parameter `shielded_pool_account`) and appends the note commitment Poseidon(amount in base
// units, ownerHash) to the pool tree (table 0x10). A ledger module's private instruction pays the entry
// fee (the custom parameter the module declares, zk-parameters.ts: a decimal in the native asset) by a
// note spend (`payFee`): its root must be one of the last 64 pool roots, its nullifier unspent (table
// 0x0f), its proof valid for (fee, bind); the pool account then transfers the fee to the treasury (the
// declared treasury parameter) and the change note joins the tree. Conservation: the pool account
// holds exactly the sum of the unspent notes' values.

import type { Json } from '../codec/codec.js';
import type { AssetDefinition } from '../model/entities.js';
import { parseNumeric, rescale } from '../model/numeric.js';
import { SHIELDED_NOTE_MIN_UNITS_KEY } from '../model/parameters.js';
import type { NoteSpend } from '../model/shielded.js';
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
import { type ExecContext, type Fail, fail, type Handler } from './exec-context.js';
import { charge, nativeAsset } from './exec-native-asset.js';
import { POOL_ACCOUNT_PARAMETER } from './exec-pool-lock.js';
import { requireZkKeys, verifyProof } from './exec-zk-keys.js';
import { NOTE_VK, zkParameters } from './zk-parameters.js';

export { POOL_ACCOUNT_PARAMETER };

function isFail(v: unknown): v is Fail {
  return typeof v === 'object' && v !== null && 'code' in v;
}

/** Note values, fees and changes are range-checked to 64 bits in circuits/note_spend.circom. */
const NOTE_VALUE_LIMIT = 1n << 64n;

export interface Pool {
  readonly account: string;
  readonly native: AssetDefinition;
  /** The entry fee in base units of the native asset (0 when the parameter is unset or undeclared). */
  readonly fee: bigint;
  /** The treasury that receives entry fees, when the parameter names an account. */
  readonly feeAccount: string | undefined;
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
  const declared = zkParameters();
  const treasury: Json | undefined = declared && custom.get(declared.feeAccount);
  const feeAccount = typeof treasury === 'string' && x.t.account.has(treasury) ? treasury : undefined;
  const feeText: Json | undefined = declared && custom.get(declared.entryFee);
  if (declared === undefined || feeText === undefined) return { account, native, fee: 0n, feeAccount };
  const parsed = typeof feeText === 'string' ? parseNumeric(feeText) : undefined;
  const fee = parsed === undefined ? undefined : rescale(parsed, native.scale);
  if (fee === undefined || fee >= NOTE_VALUE_LIMIT)
    return notConfigured(`the ${declared.entryFee} parameter must be a decimal at the native scale, < 2^64`);
  return { account, native, fee, feeAccount };
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
 * Pays the entry fee from a note spend bound to `bind`, to the treasury. A fee above zero needs the
 * treasury (shielded_pool_not_configured); without a spend it is insufficient_shielded_value (a
 * client whose notes are worth less than the fee cannot prove a spend); a spend while the fee is zero
 * is shielded_spend_without_fee (it would only add a leaf); then unknown_root,
 * nullifier_reused, zk_proof_invalid, and the transfer's codes.
 */
export function payFee(x: ExecContext, spend: NoteSpend | undefined, bind: bigint): Fail | undefined {
  const pool = loadPool(x);
  if (isFail(pool)) return pool;
  if (pool.fee > 0n && pool.feeAccount === undefined)
    return notConfigured(`the ${zkParameters()?.feeAccount} parameter must name an account to receive fees`);
  if (spend === undefined) {
    return pool.fee === 0n
      ? undefined
      : fail('insufficient_shielded_value', `the entry fee is ${pool.fee} base units: spend a note`);
  }
  // A spend with nothing to pay would still append a change note: a chain of them fills the tree
  // (2^16 leaves) with no value at stake. Its change value is hidden, so it cannot be dropped instead.
  if (pool.fee === 0n) return fail('shielded_spend_without_fee', 'the entry fee is zero: send no note spend');
  if (!loadTree(x).roots.includes(spend.root))
    return fail('unknown_root', `${spend.root} is not among the last ${POOL_ROOT_HISTORY} pool roots`);
  const id = nullifierId('note', spend.nullifier);
  if (x.t.nullifier.has(id)) return fail('nullifier_reused', `note nullifier ${spend.nullifier} is spent`);
  const signals = [spend.nullifier, spend.changeCommitment, spend.root].map((h) => fieldFromHex(h) ?? 0n);
  const bad = verifyProof(x, NOTE_VK.id, spend.proof, [...signals, pool.fee, bind]);
  if (bad) return bad;
  if (pool.fee > 0n && pool.feeAccount !== undefined) {
    const paid = charge(x, pool.native, pool.account, pool.feeAccount, pool.fee);
    if (paid) return paid;
  }
  return spendNullifier(x, id) ?? appendNote(x, signals[1]!);
}

/**
 * The smallest note ShieldAsset makes, in base units: the ShieldedNoteMinUnits parameter, or one
 * whole native unit when it is unset. Dust notes would only fill the tree (2^16 leaves, fixed by the
 * circuits): filling it takes 65,536 × this value, locked in the pool for good.
 */
export function noteMinUnits(x: ExecContext, native: AssetDefinition): bigint {
  const set: Json | undefined = x.view.parameters().custom.get(SHIELDED_NOTE_MIN_UNITS_KEY);
  return typeof set === 'number' && Number.isSafeInteger(set) && set >= 1
    ? BigInt(set)
    : 10n ** BigInt(native.scale);
}

/**
 * ShieldAsset: verifying keys set (zk_keys_not_configured: a note nobody could spend would lock its
 * value), pool configured, not the pool itself, amount exact at the native scale and below 2^64,
 * at least the minimum note (shielded_note_below_minimum), then the transfer.
 */
export const shieldAsset: Handler<'ShieldAsset'> = (x, ins) => {
  const keys = requireZkKeys(x);
  if (keys) return keys;
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
  const min = noteMinUnits(x, pool.native);
  if (units < min)
    return fail(
      'shielded_note_below_minimum',
      `a note holds at least ${min} base units (parameter ShieldedNoteMinUnits); ${units} asked`,
    );
  const ownerHash = fieldFromHex(ins.ownerHash) ?? 0n;
  const paid = charge(x, pool.native, x.authority, pool.account, units);
  if (paid) return paid;
  return appendNote(x, poseidon2([units, ownerHash]));
};
