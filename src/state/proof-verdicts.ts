// Groth16 verdicts computed off the execution path (docs/design/paths.md "Proofs"). Execution asks its
// `ProofVerdicts` port (ExecContext.proofs) for the verdict of each proof it checks, keyed by the claim
// (verifying key, public inputs, proof bytes); a verdict the port does not know is computed the slow
// way, in place, by src/zk/groth16-verify.ts (exec-zk-keys.ts). A verdict is a pure function of its
// claim, so a port can only change how fast execution runs, never an outcome: a cache entry answers
// only the claim whose every byte it was computed for (the key is a hash of all of them).
//
// Two ports: `ProofVerdictCache`, the bounded cache admission fills from the verification pool's
// workers (pipeline.ts) and execution reads; `ProofClaimRecorder` (`claimsOf`), which admission runs a
// transaction against, on scratch views it throws away, to learn which claims its execution will check.

import { blake2b256 } from '../crypto/hash.js';
import type { Groth16Proof } from '../model/proofs.js';
import { assert } from '../util/assert.js';
import { toHex } from '../util/hex.js';
import { type Json, verifyingKeyId } from '../zk/verifying-key.js';

/** One proof as execution checks it: under the key payload (snarkjs JSON), for these public signals. */
export interface ProofClaim {
  readonly key: Json;
  readonly proof: Groth16Proof;
  readonly signals: readonly bigint[];
}

/** What execution asks before verifying a proof itself. */
export interface ProofVerdicts {
  /** The verdict for `claim` if known; undefined and execution verifies it the slow way. */
  verdict(claim: ProofClaim): boolean | undefined;
  /** Told the verdict execution computed itself (a cache keeps it for the next execution). */
  computed(claim: ProofClaim, verdict: boolean): void;
}

/**
 * The cache key of a claim: BLAKE2b-256 over the key's content id, every public signal and the proof's
 * bytes, each part delimited (hex digits never contain the separators), so two claims that differ in
 * any part never share a key.
 */
export function claimKey(claim: ProofClaim): string {
  const signals = claim.signals.map((s) => (s < 0n ? `-${(-s).toString(16)}` : s.toString(16))).join(',');
  const { a, b, c } = claim.proof;
  const text = `${verifyingKeyId(claim.key)}|${signals}|${toHex(a)}.${toHex(b)}.${toHex(c)}`;
  return toHex(blake2b256(new TextEncoder().encode(text)));
}

/** Default bound: a full queue's worth of private transactions with two proofs each, about 8 MB. */
export const PROOF_VERDICT_CACHE_MAX = 50_000;

export interface ProofVerdictStats {
  size: number;
  /** Verdicts execution found here. */
  hits: number;
  /** Verdicts execution had to compute itself (the slow path): the cache did not hold them. */
  slowVerifications: number;
}

/** Verdicts by claim key, bounded: past `max` the oldest are forgotten (and merely computed again). */
export class ProofVerdictCache implements ProofVerdicts {
  readonly #verdicts = new Map<string, boolean>();
  #hits = 0;
  #slow = 0;

  constructor(readonly max: number = PROOF_VERDICT_CACHE_MAX) {
    if (!Number.isSafeInteger(max) || max < 1) throw new RangeError('the proof verdict cache needs max >= 1');
  }

  has(claim: ProofClaim): boolean {
    return this.#verdicts.has(claimKey(claim));
  }

  /** Records a verdict computed elsewhere (the pool's workers) for `claim`. */
  add(claim: ProofClaim, verdict: boolean): void {
    const key = claimKey(claim);
    this.#verdicts.delete(key);
    this.#verdicts.set(key, verdict);
    if (this.#verdicts.size > this.max) this.#verdicts.delete(this.#verdicts.keys().next().value!);
    assert(this.#verdicts.size <= this.max, `proof verdict cache holds ${this.#verdicts.size} > ${this.max}`);
  }

  verdict(claim: ProofClaim): boolean | undefined {
    const v = this.#verdicts.get(claimKey(claim));
    if (v === undefined) this.#slow++;
    else this.#hits++;
    return v;
  }

  computed(claim: ProofClaim, verdict: boolean): void {
    this.add(claim, verdict);
  }

  stats(): ProofVerdictStats {
    return { size: this.#verdicts.size, hits: this.#hits, slowVerifications: this.#slow };
  }
}

/**
 * One speculative run's port: the claims already learnt are answered valid, the first new one is
 * recorded and answered invalid, so the run stops right there (a handler returns at a failing proof)
 * and never pays for what follows it (a note spend's Poseidon tree append). Only for a run whose view is
 * thrown away (admission, `claimsOf`): it never decides an outcome.
 */
export class ProofClaimRecorder implements ProofVerdicts {
  readonly #known: Set<string>;
  next: ProofClaim | undefined;

  constructor(known: readonly ProofClaim[] = []) {
    this.#known = new Set(known.map(claimKey));
  }

  verdict(claim: ProofClaim): boolean {
    if (this.#known.has(claimKey(claim))) return true;
    this.next ??= claim;
    return false;
  }

  computed(): void {}
}

/**
 * The claims a transaction's execution checks, in order, learnt by running it (`run`, on a view that is
 * thrown away) once per claim: each run answers the claims learnt so far as valid and stops at the next.
 * At most `limit` runs (the proofs the transaction carries, `proofCount`); it ends early at a run that
 * reaches no new claim (the transaction fails before, or checks fewer).
 */
export function claimsOf(limit: number, run: (port: ProofVerdicts) => void): ProofClaim[] {
  const claims: ProofClaim[] = [];
  while (claims.length < limit) {
    const recorder = new ProofClaimRecorder(claims);
    run(recorder);
    if (recorder.next === undefined) break;
    claims.push(recorder.next);
  }
  return claims;
}

/** Nesting a proof-shaped value is searched to in an instruction (instructions nest a few levels). */
const SEARCH_DEPTH_MAX = 12;

/**
 * How many Groth16 proofs the instructions carry (values shaped as the wire's `Groth16Proof`: a 64 B,
 * b 128 B, c 64 B), searched structurally so the core names no instruction of a module. Admission runs
 * the speculative execution only for a transaction with one or more, at most this many times.
 */
export function proofCount(value: unknown, depth = 0): number {
  if (value === null || typeof value !== 'object' || depth > SEARCH_DEPTH_MAX) return 0;
  if (value instanceof Uint8Array) return 0;
  const o = value as Record<string, unknown>;
  if (isBytes(o['a'], 64) && isBytes(o['b'], 128) && isBytes(o['c'], 64)) return 1;
  const values = Array.isArray(value) ? value : value instanceof Map ? [...value.values()] : Object.values(o);
  let n = 0;
  for (const v of values) n += proofCount(v, depth + 1);
  return n;
}

function isBytes(v: unknown, length: number): boolean {
  return v instanceof Uint8Array && v.length === length;
}
