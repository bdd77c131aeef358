// Client-side proving for private conferences (docs/conference.md "Private rosters", "Shielded
// fee"), exported as `torana/sdk/zk`. The node only verifies; proofs are made here with snarkjs
// from the circuit artifacts shipped in the package (zk/artifacts/, found by src/zk/artifacts.ts at a
// fixed depth from the package root), or from bytes or URLs the caller passes (a browser bundle serves them itself).
// Secrets never leave the client: only nullifiers, commitments and proofs go on the ledger.
import { poseidon3 } from 'poseidon-lite/poseidon3';
import * as snarkjs from 'snarkjs';
import { randomBytes } from '../../crypto/random.js';
import { packagedArtifactUrl } from '../../zk/artifacts.js';
import {
  callField,
  joinFeeBind,
  ROSTER_JOIN,
  ROSTER_LEAVE,
  senderField,
  usageRecordField,
} from '../../zk/bind.js';
import { FIELD_ORDER } from '../../zk/field.js';
import type { Groth16ProofBytes } from '../../zk/groth16-verify.js';
import { PoseidonTree, poseidon1, poseidon2 } from '../../zk/poseidon-tree.js';
import { proofToBytes } from '../../zk/proof-bytes.js';

export { callField, createFeeBind, joinFeeBind, senderField, usageRecordField } from '../../zk/bind.js';
export { fieldFromHex, fieldToHex } from '../../zk/field.js';

/** Depths fixed by the circuits (circuits/roster.circom, usage.circom, note_spend.circom). */
export const ROSTER_DEPTH = 8;
export const POOL_DEPTH = 16;

export type CircuitName = 'roster' | 'usage' | 'note_spend';
/** A file path or URL (string), or the artifact's bytes. */
export type ArtifactSource = string | Uint8Array;
export interface CircuitArtifacts {
  readonly wasm: ArtifactSource;
  readonly zkey: ArtifactSource;
}
export type ArtifactOverrides = Partial<Record<CircuitName, CircuitArtifacts>>;

/** A stage of one proof, reported as it ends: the witness computed, then the Groth16 proof made. */
export type ProofStage = `${CircuitName}:witness` | `${CircuitName}:proof`;
/**
 * Told as each stage of a proof ends, with the milliseconds since that proof began (a private join
 * makes two proofs at once: their stages interleave, each named by its circuit).
 */
export type ProofProgress = (stage: ProofStage, elapsedMs: number) => void;

/** The artifacts shipped with the package: <package>/zk/artifacts/<circuit>.{wasm,zkey}. */
export function packagedArtifacts(circuit: CircuitName): CircuitArtifacts {
  const at = (ext: string) => {
    const url = packagedArtifactUrl(`${circuit}.${ext}`);
    return url.protocol === 'file:' ? decodeURIComponent(url.pathname) : url.href;
  };
  return { wasm: at('wasm'), zkey: at('zkey') };
}

function artifacts(circuit: CircuitName, overrides?: ArtifactOverrides): CircuitArtifacts {
  return overrides?.[circuit] ?? packagedArtifacts(circuit);
}

/** A uniformly random field element (31 random bytes: always < r). */
export function randomField(): bigint {
  let v = 0n;
  for (const b of randomBytes(31)) v = (v << 8n) | BigInt(b);
  return v;
}

/** A roster member's public commitment: Poseidon(secret). The host lists these at creation. */
export function rosterCommitment(secret: bigint): bigint {
  return poseidon1([secret]);
}

/** A note's owner hash Poseidon(secret, blinding): what ShieldAsset takes. */
export function noteOwnerHash(secret: bigint, blinding: bigint): bigint {
  return poseidon2([secret, blinding]);
}

/** A note's commitment Poseidon(value, ownerHash), the leaf the pool tree holds. */
export function noteCommitment(value: bigint, ownerHash: bigint): bigint {
  return poseidon2([value, ownerHash]);
}

/** What a private join, leave or usage carries (the ledger's RosterProof). */
export interface RosterProofValue {
  readonly nullifier: bigint;
  readonly proof: Groth16ProofBytes;
  /** The account the proof is bound to: only its transaction verifies. */
  readonly sender: string;
  /** A roster proof's join nullifier output (a leave carries it; for a join it is `nullifier`). */
  readonly joinNullifier?: bigint;
}

/** What a private create or join carries to pay its fee (the ledger's NoteSpend). */
export interface NoteSpendValue {
  readonly root: bigint;
  readonly nullifier: bigint;
  readonly changeCommitment: bigint;
  readonly proof: Groth16ProofBytes;
}

async function prove(
  circuit: CircuitName,
  input: Record<string, unknown>,
  overrides?: ArtifactOverrides,
  onProgress?: ProofProgress,
) {
  const a = artifacts(circuit, overrides);
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  // What groth16.fullProve does, in its two stages, so each can be reported.
  const witness = { type: 'mem' as const };
  await snarkjs.wtns.calculate(input as Parameters<typeof snarkjs.wtns.calculate>[0], a.wasm, witness);
  onProgress?.(`${circuit}:witness`, ms());
  const { proof, publicSignals } = await snarkjs.groth16.prove(a.zkey, witness);
  onProgress?.(`${circuit}:proof`, ms());
  return { proof: proofToBytes(proof), publicSignals: publicSignals.map((s) => BigInt(s)) };
}

function rosterPath(secret: bigint, roster: readonly bigint[]) {
  const tree = new PoseidonTree(ROSTER_DEPTH, roster);
  const index = tree.indexOf(rosterCommitment(secret));
  if (index < 0) throw new RangeError('the secret is not on this roster');
  const path = tree.path(index);
  return { root: tree.root(), pathElements: path.pathElements, pathIndices: path.pathIndices };
}

export interface RosterProveInput {
  readonly callId: string;
  readonly secret: bigint;
  /** The call's invited commitments, in the order given at creation. */
  readonly roster: readonly bigint[];
  /**
   * The account that will sign the transaction (its authority): the proof verifies only in its
   * transactions. Use a fresh account per private join (docs/conference.md "Privacy limits").
   */
  readonly sender: string;
  readonly artifacts?: ArtifactOverrides;
  /** Told as the witness and then the proof are done, with the elapsed milliseconds. */
  readonly onProgress?: ProofProgress;
}

/** Proves membership for a join (action 1) or a leave (action 2). */
export async function proveRoster(
  input: RosterProveInput & { action: 'join' | 'leave' },
): Promise<RosterProofValue> {
  const { root, pathElements, pathIndices } = rosterPath(input.secret, input.roster);
  const { proof, publicSignals } = await prove(
    'roster',
    {
      root,
      callField: callField(input.callId),
      action: input.action === 'join' ? ROSTER_JOIN : ROSTER_LEAVE,
      sender: senderField(input.sender),
      secret: input.secret,
      pathElements,
      pathIndices,
    },
    input.artifacts,
    input.onProgress,
  );
  return { nullifier: publicSignals[0]!, proof, sender: input.sender, joinNullifier: publicSignals[1]! };
}

/** Proves membership bound to one usage record (segment, durationMs, billedGas decimal text). */
export async function proveUsage(
  input: RosterProveInput & { segment: number; durationMs: bigint; billedGas: string },
): Promise<RosterProofValue> {
  const { root, pathElements, pathIndices } = rosterPath(input.secret, input.roster);
  const record = usageRecordField(input.callId, input.segment, input.durationMs, input.billedGas);
  const { proof, publicSignals } = await prove(
    'usage',
    {
      root,
      callField: callField(input.callId),
      segment: input.segment,
      record,
      sender: senderField(input.sender),
      secret: input.secret,
      pathElements,
      pathIndices,
    },
    input.artifacts,
    input.onProgress,
  );
  return { nullifier: publicSignals[0]!, proof, sender: input.sender };
}

/** A shielded note the client owns. */
export interface Note {
  readonly value: bigint;
  readonly secret: bigint;
  readonly blinding: bigint;
}

export interface NoteSpendInput {
  readonly note: Note;
  /** Every leaf of the pool tree, in order (from the node), or at least up to the note's. */
  readonly poolLeaves: readonly bigint[];
  readonly fee: bigint;
  /** createFeeBind(...) or joinFeeBind(...). */
  readonly bind: bigint;
  /** The change note's secrets; its value is note.value − fee. */
  readonly change: { readonly secret: bigint; readonly blinding: bigint };
  readonly artifacts?: ArtifactOverrides;
  /** Told as the witness and then the proof are done, with the elapsed milliseconds. */
  readonly onProgress?: ProofProgress;
}

/** Proves a note spend paying `fee`. Throws RangeError when the note is absent or too small. */
export async function proveNoteSpend(input: NoteSpendInput): Promise<NoteSpendValue> {
  const { note, fee } = input;
  if (note.value < fee) throw new RangeError('insufficient shielded value: the note is smaller than the fee');
  const tree = new PoseidonTree(POOL_DEPTH, input.poolLeaves);
  const index = tree.indexOf(noteCommitment(note.value, noteOwnerHash(note.secret, note.blinding)));
  if (index < 0) throw new RangeError('the note is not in the pool');
  const path = tree.path(index);
  const { proof, publicSignals } = await prove(
    'note_spend',
    {
      root: tree.root(),
      fee,
      bind: input.bind,
      value: note.value,
      secret: note.secret,
      blinding: note.blinding,
      pathElements: path.pathElements,
      pathIndices: path.pathIndices,
      changeSecret: input.change.secret,
      changeBlinding: input.change.blinding,
    },
    input.artifacts,
    input.onProgress,
  );
  return { root: tree.root(), nullifier: publicSignals[0]!, changeCommitment: publicSignals[1]!, proof };
}

/**
 * The nullifier a roster proof will publish, Poseidon(secret, callField, action), computed without
 * proving (circuits/roster.circom), so a join's fee bind is known before either proof exists.
 */
export function rosterNullifier(callId: string, secret: bigint, action: 'join' | 'leave'): bigint {
  return poseidon3([secret, callField(callId), action === 'join' ? ROSTER_JOIN : ROSTER_LEAVE]);
}

/**
 * Both proofs of a private join: the roster proof and the note spend paying `fee`, proved
 * concurrently (the spend's bind needs only the nullifier, computed first). Throws RangeError on a
 * shortfall or a secret or note that is not there.
 */
export async function provePrivateJoin(
  input: RosterProveInput & Omit<NoteSpendInput, 'bind'>,
): Promise<{ private: RosterProofValue; fee: NoteSpendValue }> {
  const bind = joinFeeBind(input.callId, rosterNullifier(input.callId, input.secret, 'join'), input.sender);
  const [roster, fee] = await Promise.all([
    proveRoster({ ...input, action: 'join' }),
    proveNoteSpend({ ...input, bind }),
  ]);
  return { private: roster, fee };
}

/** The join fee bind for a roster proof already made, for its sender (convenience for proveNoteSpend). */
export function joinBindFor(callId: string, roster: RosterProofValue): bigint {
  return joinFeeBind(callId, roster.nullifier, roster.sender);
}

/**
 * snarkjs keeps a multi-threaded curve (worker threads) cached after the first proof, which keeps
 * a Node process alive; call this when done proving (tests, CLI).
 */
export async function releaseProver(): Promise<void> {
  // snarkjs leaves `null` there before the first proof (and after its own terminate).
  const cached = (globalThis as { curve_bn128?: { terminate(): Promise<void> } | null }).curve_bn128;
  if (cached !== undefined && cached !== null) {
    await cached.terminate();
    delete (globalThis as { curve_bn128?: unknown }).curve_bn128;
  }
}

export { FIELD_ORDER };
