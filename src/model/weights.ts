// The execution cost model (docs/cost-model.md): every instruction kind has a weight, a pure function of
// the instruction itself (its encoded size, its item counts, the shielded pool's tree depth, the proofs
// it carries, the instructions it nests). One weight unit is about one microsecond of execution on the
// reference machine (bench/weights.ts measures each kind through the real executor). Weights never read
// the clock or the state: admission, the block builder, followers and the executor all compute the same
// number for the same instruction. The core's kinds are weighed here; a ledger module weighs its own in
// its `wire.ts` (`declareWeights`), and documents them on its page.

import { encode } from '../codec/frame.js';
import { type Instruction, InstructionCodec, type InstructionKind } from './instructions.js';
import { POOL_TREE_DEPTH } from './shielded.js';

export { DEFAULT_BLOCK_MAX_WEIGHT, DEFAULT_TRANSACTION_MAX_WEIGHT } from './weights-defaults.js';

/** What every transaction costs besides its instructions (authority lookup, journal, result, events). */
export const TRANSACTION_BASE_WEIGHT = 30;

/** One Groth16 proof verification (a roster-membership, usage or note-spend proof). */
export const GROTH16_VERIFY_WEIGHT = 25_000;
/** One level of a Poseidon Merkle tree append (two Poseidon hashes: the node and the zero sibling). */
export const POSEIDON_LEVEL_WEIGHT = 2_200;
/** One append to the shielded pool tree, whose depth is POOL_TREE_DEPTH. */
export const POOL_APPEND_WEIGHT = POSEIDON_LEVEL_WEIGHT * POOL_TREE_DEPTH;

/**
 * One rule per kind: `base` plus `perByte` × the instruction's encoded bytes (payloads the handler walks:
 * metadata, JSON values, manifests). Kinds with items, proofs or nesting add to this in `ownWeight`.
 */
export interface WeightRule {
  readonly base: number;
  readonly perByte?: number;
  /** The formula as docs/cost-model.md (or the module's page) prints it. */
  readonly formula: string;
}

/** A module's weight rule: a rule plus, for kinds that nest or verify, what it adds and how it reads. */
export interface ModuleWeightRule extends WeightRule {
  /** Weight added to base + perByte × bytes (e.g. Σ weight(nested)); pure, no clock, no state. */
  readonly extra?: (ins: Instruction) => number;
  /** The added term as the docs print it (e.g. `+ Σ weight(nested)`). */
  readonly nested?: string;
  /**
   * The instructions it carries that the executor runs, and charges, one by one as their own (a batch
   * that may run in the same transaction): counted in the weight as written, not in its own weight.
   */
  readonly batch?: (ins: Instruction) => readonly Instruction[];
}

/** A fixed weight. */
export const row = (base: number): WeightRule => ({ base, formula: `${base}` });
/** A base plus a weight per encoded byte. */
export const sized = (base: number, perByte: number): WeightRule => ({
  base,
  perByte,
  formula: `${base} + ${perByte} × bytes`,
});

/** The core's weight table (docs/cost-model.md "How it was measured" prints it with the measured figures). */
const CORE_WEIGHTS = {
  RegisterDomain: sized(40, 0.05),
  RegisterAccount: sized(40, 0.05),
  RegisterAssetDefinition: sized(40, 0.05),
  RegisterNft: sized(40, 0.05),
  RegisterRole: sized(40, 0.1),
  // Verifies the BLS proof of possession (a pairing).
  RegisterPeer: row(4_000),
  UnregisterDomain: row(200),
  UnregisterAccount: row(200),
  UnregisterAssetDefinition: row(200),
  UnregisterNft: row(40),
  UnregisterRole: row(200),
  UnregisterPeer: row(100),
  MintAsset: row(30),
  BurnAsset: row(30),
  TransferAsset: row(40),
  TransferNft: row(30),
  TransferDomain: row(30),
  SetKeyValue: sized(30, 0.1),
  RemoveKeyValue: row(30),
  // The account's permission set is copied: the cost grows with what it holds (measured with hundreds).
  GrantPermission: sized(300, 0.05),
  RevokePermission: sized(300, 0.05),
  GrantRole: row(30),
  RevokeRole: row(30),
  // A custom parameter's JSON is validated and copied (verifying keys are JSON of several KB).
  SetParameter: sized(30, 0.1),
  Log: sized(10, 0.01),
  ProposeRuntimeUpgrade: sized(50, 0.05),
  ActivateRuntimeUpgrade: row(50),
  CancelRuntimeUpgrade: row(50),
  // + per roster commitment; + a Groth16 verification and a pool append when a fee note is spent.
  // + a Groth16 verification per roster proof; + verification and pool append per fee note.
  // + one pool append (POOL_TREE_DEPTH Poseidon levels).
  ShieldAsset: row(200),
} satisfies { readonly [K in InstructionKind]?: WeightRule };

/** Every kind's weight rule: the core's, and the installed modules' (`declareWeights`). */
export const WEIGHTS: { readonly [K in InstructionKind]: WeightRule } = { ...CORE_WEIGHTS } as {
  [K in InstructionKind]: WeightRule;
};

const EXTRA: Partial<Record<InstructionKind, (ins: Instruction) => number>> = {};
const BATCH: Partial<Record<InstructionKind, (ins: Instruction) => readonly Instruction[]>> = {};

/** Declares a module's weight rules (each kind once; kinds the core weighs are refused). */
export function declareWeights(rules: Readonly<Partial<Record<InstructionKind, ModuleWeightRule>>>): void {
  for (const [kind, rule] of Object.entries(rules) as [InstructionKind, ModuleWeightRule][]) {
    if (Object.hasOwn(WEIGHTS, kind)) throw new Error(`the weight of ${kind} is declared twice`);
    (WEIGHTS as Record<string, WeightRule>)[kind] = rule;
    if (rule.extra !== undefined) EXTRA[kind] = rule.extra;
    if (rule.batch !== undefined) BATCH[kind] = rule.batch;
    if (rule.nested !== undefined) (NESTED_TERMS as Record<string, string>)[kind] = rule.nested;
  }
}

/** The nested formula terms of the kinds that have them (docs/cost-model.md). */
export const NESTED_TERMS: Partial<Record<InstructionKind, string>> = {
  ShieldAsset: '+ poolAppend (= 2,200 × tree depth 16)',
};

function sizeTerm(rule: WeightRule, ins: Instruction): number {
  if (rule.perByte === undefined) return 0;
  let bytes: number;
  try {
    bytes = encode(InstructionCodec, ins).length;
  } catch {
    // Only an instruction built in process can fail to encode (one decoded from a transaction always
    // re-encodes); its handler refuses it with a typed rejection, so it is charged its base alone.
    return 0;
  }
  return Math.ceil(rule.perByte * bytes);
}

/**
 * The weight the executor charges when it runs `ins` itself: its rule, its proofs and tree appends, and
 * what a module's rule adds (`extra`, e.g. nested instructions it reserves). A rule's `batch` is not
 * included: the executor charges each of its instructions as it runs.
 */
export function ownWeight(ins: Instruction): number {
  const rule = WEIGHTS[ins.kind];
  if (rule === undefined) throw new Error(`no weight for ${ins.kind}: its module's wire is not installed`);
  let w = rule.base + sizeTerm(rule, ins) + (EXTRA[ins.kind]?.(ins) ?? 0);
  switch (ins.kind) {
    case 'ShieldAsset':
      w += POOL_APPEND_WEIGHT;
      break;
    default:
      break;
  }
  return w;
}

/** The weight of an instruction as written: its own weight plus the batch it carries (a rule's `batch`). */
export function instructionWeight(ins: Instruction): number {
  let w = ownWeight(ins);
  const batch = BATCH[ins.kind];
  if (batch !== undefined) for (const inner of batch(ins)) w += instructionWeight(inner);
  return w;
}

/**
 * The static weight of a transaction's instructions: what admission, the block builder and followers
 * check. The executor's count can only exceed it by an instruction that runs a batch stored earlier
 * (an approval that completes a proposal's quorum).
 */
export function transactionWeight(instructions: readonly Instruction[]): number {
  let w = TRANSACTION_BASE_WEIGHT;
  for (const ins of instructions) w += instructionWeight(ins);
  return w;
}

/**
 * The share of a block's weight the block builder gives one authority, and followers check: a fifth of
 * the block, never less than one transaction at the cap (so every admitted transaction fits).
 */
export function accountShare(blockMaxWeight: number, transactionMaxWeight: number): number {
  return Math.max(transactionMaxWeight, Math.floor(blockMaxWeight / 5));
}

/**
 * The weight a block's transactions may take: the block's weight less a fifth kept for the modules' due
 * work (it runs after the transactions, and stops at the block's weight).
 */
export function transactionsShare(blockMaxWeight: number): number {
  return blockMaxWeight - Math.floor(blockMaxWeight / 5);
}
