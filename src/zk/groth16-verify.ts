// A pure, synchronous Groth16 verifier over BN254 (alt_bn128), for execution inside a block
// (every proof an instruction carries). It checks
//   e(A, B) = e(alpha, beta) · e(vk_x, gamma) · e(C, delta),  vk_x = IC[0] + Σ s_i · IC[i]
// as one multi-pairing e(−A, B) · e(alpha, beta) · e(vk_x, gamma) · e(C, delta) = 1 with a single
// final exponentiation, using @noble/curves' bn254 pairing (pure JS, no worker, no async init).
// Untrusted inputs are validated before any arithmetic: coordinates < p, points on the curve, B in
// the order-r subgroup of G2 (G1 has cofactor 1), no point at infinity, public inputs < r and
// exactly the key's count. Any failure answers false; nothing here throws on untrusted bytes.
import { createRequire } from 'node:module';
import type * as Bn254 from '@noble/curves/bn254';
import { FIELD_ORDER } from './field.js';
import { g2InSubgroup, g2OnCurve } from './g2-subgroup.js';

// The curve is loaded on first use, not at import (as src/crypto/bls.ts loads blst): building its
// field tower takes ~0.2 s of CPU, and every node imports the executor while only a chain with
// verifying keys ever checks a proof. Synchronous (the CommonJS build), so execution stays so.
const requireCurve = createRequire(import.meta.url);
let loaded: typeof Bn254.bn254 | undefined;
function curve(): typeof Bn254.bn254 {
  loaded ??= (requireCurve('@noble/curves/bn254') as typeof Bn254).bn254;
  return loaded;
}

type G1Point = InstanceType<typeof Bn254.bn254.G1.Point>;
type G2Point = InstanceType<typeof Bn254.bn254.G2.Point>;
type Fp12 = ReturnType<typeof Bn254.bn254.pairing>;

/** The BN254 base-field modulus p (the curve's `fields.Fp.ORDER`, which a test compares). */
export const BASE_FIELD_ORDER =
  21888242871839275222246405745257275088696311157297823662689037894645226208583n;
export const G1_BYTES = 64;
export const G2_BYTES = 128;

/** A proof as the ledger carries it (the wire's `Groth16Proof`: a 64 B, b 128 B, c 64 B). */
export interface Groth16ProofBytes {
  /** G1: x ‖ y, 32 bytes each, big-endian. */
  readonly a: Uint8Array;
  /** G2: x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0 (snarkjs' exportSolidityCallData order). */
  readonly b: Uint8Array;
  /** G1: x ‖ y. */
  readonly c: Uint8Array;
}

/** A parsed, validated verifying key (see verifying-key.ts for the payload it comes from). */
export interface PreparedVerifyingKey {
  readonly alpha: G1Point;
  readonly beta: G2Point;
  readonly gamma: G2Point;
  readonly delta: G2Point;
  /** IC[0..nPublic], with window tables precomputed (the same points serve every proof). */
  readonly ic: readonly G1Point[];
  readonly nPublic: number;
  /** The Miller loop of e(alpha, beta), before the final exponentiation: constant per key. */
  readonly alphaBetaMiller: Fp12;
}

/** Key parts → a prepared key (precomputations done once per key, cached by verifying-key.ts). */
export function prepareKey(parts: {
  alpha: G1Point;
  beta: G2Point;
  gamma: G2Point;
  delta: G2Point;
  ic: readonly G1Point[];
}): PreparedVerifyingKey {
  const ic = parts.ic.map((p) => p.precompute(4, false));
  const alphaBetaMiller = curve().pairingBatch([{ g1: parts.alpha, g2: parts.beta }], false);
  return { ...parts, ic, nPublic: ic.length - 1, alphaBetaMiller };
}

function readUint256(bytes: Uint8Array, offset: number): bigint {
  let v = 0n;
  for (let i = offset; i < offset + 32; i++) v = (v << 8n) | BigInt(bytes[i]!);
  return v;
}

/** An affine G1 point from coordinates, validated; undefined when invalid or at infinity. */
export function g1FromCoordinates(x: bigint, y: bigint): G1Point | undefined {
  if (x >= BASE_FIELD_ORDER || y >= BASE_FIELD_ORDER || x < 0n || y < 0n) return undefined;
  if (x === 0n && y === 0n) return undefined;
  try {
    const p = curve().G1.Point.fromAffine({ x, y });
    p.assertValidity();
    return p;
  } catch {
    return undefined;
  }
}

/**
 * The G2 subgroup check a verifier runs on a point already known to be on the twist: by default
 * g2-subgroup.ts' ψ check on noble's points. The pool's WebAssembly verifier passes the same check
 * computed in its engine (groth16-wasm.ts, `g2InSubgroupWasm`), held to this one's verdict on every
 * point by src/zk/g2-subgroup.test.ts; every other rule of a valid input stays here, once.
 */
export type G2SubgroupCheck = (point: G2Point) => boolean;

const nobleSubgroupCheck: G2SubgroupCheck = (point) => g2InSubgroup(curve(), point);

/** An affine G2 point from (x.c0, x.c1, y.c0, y.c1), on the curve and in the subgroup. */
export function g2FromCoordinates(
  xc0: bigint,
  xc1: bigint,
  yc0: bigint,
  yc1: bigint,
  inSubgroup: G2SubgroupCheck = nobleSubgroupCheck,
): G2Point | undefined {
  const all = [xc0, xc1, yc0, yc1];
  if (all.some((v) => v < 0n || v >= BASE_FIELD_ORDER)) return undefined;
  if (all.every((v) => v === 0n)) return undefined;
  const bn254 = curve();
  const x = bn254.fields.Fp2.create({ c0: xc0, c1: xc1 });
  const y = bn254.fields.Fp2.create({ c0: yc0, c1: yc1 });
  // The curve equation, then the subgroup by ψ (g2-subgroup.ts: noble's isTorsionFree's verdict at
  // about half its cost; noble's assertValidity would run its own check).
  if (!g2OnCurve(bn254, x, y)) return undefined;
  const p = bn254.G2.Point.fromAffine({ x, y });
  return inSubgroup(p) ? p : undefined;
}

export function g1FromBytes(bytes: Uint8Array): G1Point | undefined {
  if (bytes.length !== G1_BYTES) return undefined;
  return g1FromCoordinates(readUint256(bytes, 0), readUint256(bytes, 32));
}

export function g2FromBytes(bytes: Uint8Array, inSubgroup?: G2SubgroupCheck): G2Point | undefined {
  if (bytes.length !== G2_BYTES) return undefined;
  const xc1 = readUint256(bytes, 0);
  const xc0 = readUint256(bytes, 32);
  const yc1 = readUint256(bytes, 64);
  const yc0 = readUint256(bytes, 96);
  return g2FromCoordinates(xc0, xc1, yc0, yc1, inSubgroup);
}

/**
 * The validation every verifier of this ledger does before any pairing (this one and the pool's
 * WebAssembly one, groth16-wasm.ts): exactly the key's count of public signals, each a bigint < r;
 * a, b, c on the curve, b in the subgroup, none at infinity, coordinates < p. The validated points,
 * or undefined when anything is invalid. `inSubgroup` computes the subgroup check of b elsewhere
 * (see G2SubgroupCheck); it is asked only about points on the twist, and answers as the default does.
 */
export function validProofInputs(
  vk: PreparedVerifyingKey,
  proof: Groth16ProofBytes,
  publicSignals: readonly bigint[],
  inSubgroup?: G2SubgroupCheck,
): { a: G1Point; b: G2Point; c: G1Point } | undefined {
  if (publicSignals.length !== vk.nPublic) return undefined;
  if (publicSignals.some((s) => typeof s !== 'bigint' || s < 0n || s >= FIELD_ORDER)) return undefined;
  const a = g1FromBytes(proof.a);
  const b = g2FromBytes(proof.b, inSubgroup);
  const c = g1FromBytes(proof.c);
  if (a === undefined || b === undefined || c === undefined) return undefined;
  return { a, b, c };
}

/**
 * Verifies a Groth16 proof against a prepared key and the public signals (in snarkjs order:
 * outputs, then public inputs). Pure and synchronous; false for any invalid input.
 */
export function verifyGroth16(
  vk: PreparedVerifyingKey,
  proof: Groth16ProofBytes,
  publicSignals: readonly bigint[],
): boolean {
  const points = validProofInputs(vk, proof, publicSignals);
  if (points === undefined) return false;
  const { a, b, c } = points;
  let vkX = vk.ic[0]!;
  for (let i = 0; i < publicSignals.length; i++) {
    vkX = vkX.add(vk.ic[i + 1]!.multiplyUnsafe(publicSignals[i]!));
  }
  // The pairing of the point at infinity is 1: an all-zero vk_x is fine for the equation.
  const pairs: [G1Point, G2Point][] = [
    [a.negate(), b],
    [c, vk.delta],
  ];
  if (!vkX.is0()) pairs.push([vkX, vk.gamma]);
  // One multi-Miller loop (noble's millerLoopBatch: one squaring per step for all pairs). Not
  // pairingBatch: it would run noble's own subgroup check of b again (assertValidity), after
  // validProofInputs' cheaper one. G2 line coefficients are memoized per point (gamma, delta).
  const bn254 = curve();
  const { Fp12 } = bn254.fields;
  const prepare = bn254.utils.calcPairingPrecomputes;
  const batch = pairs.map(([g1, g2]) => {
    const { x, y } = g1.toAffine();
    return [prepare(g2), x, y] as Parameters<typeof bn254.millerLoopBatch>[0][number];
  });
  // e(alpha, beta)'s Miller loop is precomputed: multiply it in before the one final exponentiation.
  const miller = Fp12.mul(bn254.millerLoopBatch(batch), vk.alphaBetaMiller);
  return Fp12.eql(Fp12.finalExponentiate(miller), Fp12.ONE);
}
