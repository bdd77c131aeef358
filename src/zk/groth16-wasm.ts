// Groth16 verification over BN254 with a WebAssembly pairing (ffjavascript's `buildBn128`, the
// engine snarkjs runs on), for the verification pool's workers (src/crypto/verify-worker.ts). It
// answers exactly as groth16-verify.ts does on every input: the same validation runs first
// (`validProofInputs`, keys through `parseVerifyingKey`; its subgroup check of b, g2-subgroup.ts'
// equation, computed on the engine's G2 arithmetic by `g2InSubgroupWasm`), and only validated
// points reach the engine, which then checks the same equation
//   e(−A, B) · e(alpha, beta) · e(vk_x, gamma) · e(C, delta) = 1
// as a product of Miller loops and one final exponentiation. The engine is built once per thread,
// single-threaded (`buildBn128(true)`: no threads of its own inside a pool worker); building it is
// the only async step, verification itself is synchronous. Node-only: the SDK never imports it.
import { buildBn128, type WasmBn128 } from 'ffjavascript';
import { BN_SEED, PSI_X, PSI_Y } from './g2-subgroup.js';
import type { Groth16ProofBytes, PreparedVerifyingKey } from './groth16-verify.js';
import { validProofInputs } from './groth16-verify.js';
import { type Json, parseVerifyingKey, verifyingKeyId } from './verifying-key.js';

/** Keys held per thread, as verifying-key.ts holds its own (a chain has a handful). */
const KEYS_MAX = 16;

/**
 * The public inputs' points IC[1..] are the same for every proof of a key: each gets a fixed-base
 * table of [j·16^w]IC[i] (j 1..15, w 0..63, affine, the engine's form), so [s]IC[i] is at most 64
 * mixed additions in the engine instead of its 254-bit double-and-add (`G1.timesScalar`, about 5
 * times as many operations). 60 KiB of JavaScript memory per point, built once per key and thread.
 */
const WINDOWS = 64;
const ENTRIES = 15;
const AFFINE_G1 = 64;
const JACOBIAN_G1 = 96;

/** The engine's optimal-ate loop count 6x + 2 (x the BN seed), most significant bit first, after the top one. */
const ATE_BITS = (6n * 4965661367192848881n + 2n).toString(2).slice(1);
const F2 = 64;
const LINE = 3 * F2;
const GT = 384;

/**
 * The product of the Miller loops of prepared pairs (the engine's prepareG1 / prepareG2 outputs),
 * as one loop: the engine's own steps (`ftm_square`, `f2m_mul1`, `bn128__mulBy024`, in the order its
 * `bn128_millerLoop` takes them) with one squaring per step for all pairs instead of one per pair.
 * Equal, as an element of Fp12, to the product of `millerLoop` of each pair (the same field
 * operations, the squarings shared: (Π f_i)² = Π f_i²).
 */
export function multiMillerLoop(
  curve: WasmBn128,
  pairs: readonly (readonly [Uint8Array, Uint8Array])[],
): Uint8Array {
  const { tm } = curve;
  const ex = tm.instance.exports;
  const square = ex.ftm_square!;
  const mul1 = ex.f2m_mul1!;
  const mulBy024 = ex.bn128__mulBy024!;
  tm.startSyncOp();
  try {
    const f = tm.alloc(GT);
    const vw = tm.alloc(F2);
    const vv = tm.alloc(F2);
    ex.ftm_one!(f);
    const ps = pairs.map(([preP, preQ]) => {
      const p = tm.allocBuff(preP);
      // Past the point itself (jacobian, three Fp2) come the line coefficients, three Fp2 each.
      return { px: p, py: p + F2 / 2, coef: tm.allocBuff(preQ) + LINE };
    });
    const lines = () => {
      for (const p of ps) {
        mul1(p.coef + F2, p.py, vw);
        mul1(p.coef + 2 * F2, p.px, vv);
        mulBy024(p.coef, vw, vv, f);
        p.coef += LINE;
      }
    };
    for (const bit of ATE_BITS) {
      square(f, f);
      lines();
      if (bit === '1') lines();
    }
    // The two Frobenius steps after the loop.
    lines();
    lines();
    return tm.getBuff(f, GT);
  } finally {
    tm.endSyncOp();
  }
}

const G2_JACOBIAN = 3 * F2;
const FP = F2 / 2;

/** ψ's coefficients (g2-subgroup.ts' PSI_X, PSI_Y) in the engine's form: Fp2, Montgomery. */
export interface PsiConstants {
  readonly x: Uint8Array;
  readonly y: Uint8Array;
}

/** Little-endian bytes of v < 2^(8·n), the engine's integer form. */
function le(v: bigint, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++, v >>= 8n) out[i] = Number(v & 0xffn);
  return out;
}

/** Converts ψ's coefficients into the engine's Montgomery form, once per engine. */
export function psiConstants(curve: WasmBn128): PsiConstants {
  const { tm } = curve;
  const toMontgomery = tm.instance.exports.f2m_toMontgomery!;
  const convert = (c: { c0: bigint; c1: bigint }): Uint8Array => {
    tm.startSyncOp();
    try {
      const at = tm.allocBuff(Uint8Array.from([...le(c.c0, FP), ...le(c.c1, FP)]));
      toMontgomery(at, at);
      return tm.getBuff(at, F2);
    } finally {
      tm.endSyncOp();
    }
  };
  return { x: convert(PSI_X), y: convert(PSI_Y) };
}

const SEED_BYTES = le(BN_SEED, 8);

/**
 * g2-subgroup.ts' check, [x+1]Q + ψ([x]Q) + ψ²([x]Q) = ψ³([2x]Q), on the engine's G2 arithmetic
 * (jacobian points, Montgomery Fp2): the same equation, the same ψ on projective coordinates
 * ((X : Y : Z) ↦ (conj(X)·c_x : conj(Y)·c_y : conj(Z)), also right for jacobian ones), so the same
 * verdict on every point of the twist, infinity included (src/zk/g2-subgroup.test.ts holds it to
 * noble's on every point that file builds). `q` is jacobian, in the engine's form, on the twist.
 * About a tenth of the pure-JS check's time: one 63-bit multiplication in WebAssembly.
 */
export function g2InSubgroupWasm(curve: WasmBn128, psi: PsiConstants, q: Uint8Array): boolean {
  const { tm } = curve;
  const ex = tm.instance.exports;
  const conjugate = ex.f2m_conjugate!;
  const mul = ex.f2m_mul!;
  const add = ex.g2m_add!;
  tm.startSyncOp();
  try {
    const cx = tm.allocBuff(psi.x);
    const cy = tm.allocBuff(psi.y);
    const psiOf = (p: number, out: number) => {
      conjugate(p, out);
      mul(cx, out, out);
      conjugate(p + F2, out + F2);
      mul(cy, out + F2, out + F2);
      conjugate(p + 2 * F2, out + 2 * F2);
    };
    const pq = tm.allocBuff(q);
    const seed = tm.allocBuff(SEED_BYTES);
    const [xq, t1, t2, s1, s2] = Array.from({ length: 5 }, () => tm.alloc(G2_JACOBIAN)) as [
      number,
      number,
      number,
      number,
      number,
    ];
    ex.g2m_timesScalar!(pq, seed, SEED_BYTES.length, xq);
    // Left: [x]Q + Q + ψ([x]Q) + ψ²([x]Q), in s1 (no call writes where it reads a point).
    psiOf(xq, t1);
    psiOf(t1, t2);
    add(xq, pq, s1);
    add(s1, t1, s2);
    add(s2, t2, s1);
    // Right: ψ³([2x]Q), in s2.
    ex.g2m_double!(xq, s2);
    psiOf(s2, t1);
    psiOf(t1, t2);
    psiOf(t2, s2);
    return ex.g2m_eq!(s1, s2) === 1;
  } finally {
    tm.endSyncOp();
  }
}

/** The fixed-base table of one point (affine, in the engine's form): see WINDOWS. */
export function fixedBaseTable(curve: WasmBn128, point: Uint8Array): Uint8Array {
  const { G1 } = curve;
  const table = new Uint8Array(WINDOWS * ENTRIES * AFFINE_G1);
  let base = G1.toJacobian(point);
  for (let w = 0; w < WINDOWS; w++) {
    let multiple = base;
    for (let j = 0; j < ENTRIES; j++) {
      table.set(G1.toAffine(multiple), (w * ENTRIES + j) * AFFINE_G1);
      multiple = G1.add(multiple, base);
    }
    base = multiple;
  }
  return table;
}

/**
 * start + Σ [scalars[i]]·(the point of tables[i]), jacobian, in one sync op of the engine: for each
 * non-zero hex digit of each scalar (< 2^256), one mixed addition of its table entry.
 */
export function fixedBaseSum(
  curve: WasmBn128,
  start: Uint8Array,
  tables: readonly Uint8Array[],
  scalars: readonly bigint[],
): Uint8Array {
  const { tm } = curve;
  const addMixed = tm.instance.exports.g1m_addMixed!;
  tm.startSyncOp();
  try {
    // Two accumulators in turn: the engine's addition never writes where it reads.
    let acc = tm.allocBuff(curve.G1.toJacobian(start));
    let next = tm.alloc(JACOBIAN_G1);
    const entry = tm.alloc(AFFINE_G1);
    for (let i = 0; i < scalars.length; i++) {
      const table = tables[i]!;
      const hex = scalars[i]!.toString(16);
      if (hex.length > WINDOWS) throw new RangeError('scalar ≥ 2^256');
      for (let w = 0; w < hex.length; w++) {
        const digit = Number.parseInt(hex[hex.length - 1 - w]!, 16);
        if (digit === 0) continue;
        const at = (w * ENTRIES + digit - 1) * AFFINE_G1;
        tm.u8.set(table.subarray(at, at + AFFINE_G1), entry);
        addMixed(acc, entry, next);
        [acc, next] = [next, acc];
      }
    }
    return tm.getBuff(acc, JACOBIAN_G1);
  } finally {
    tm.endSyncOp();
  }
}

interface AffinePoint<F> {
  toAffine(): { x: F; y: F };
}
interface Fp2 {
  c0: bigint;
  c1: bigint;
}

/** A key in both forms: the validated one (for `validProofInputs`) and the engine's precomputations. */
interface WasmKey {
  readonly key: PreparedVerifyingKey;
  readonly ic: readonly Uint8Array[];
  /** Fixed-base tables of IC[1..] (see WINDOWS). */
  readonly icTables: readonly Uint8Array[];
  readonly gamma: Uint8Array;
  readonly delta: Uint8Array;
  /** The Miller loop of e(alpha, beta): constant per key. */
  readonly alphaBetaMiller: Uint8Array;
}

export class WasmGroth16 {
  readonly #keys = new Map<string, WasmKey | undefined>();
  readonly #psi: PsiConstants;

  private constructor(private readonly curve: WasmBn128) {
    this.#psi = psiConstants(curve);
  }

  /** Builds this thread's engine (about 50 ms of CPU, once). */
  static async load(): Promise<WasmGroth16> {
    return new WasmGroth16(await buildBn128(true));
  }

  /**
   * Verifies `proof` for `publicSignals` (snarkjs order) under the key in `payload` (snarkjs'
   * verification-key JSON, as the ledger's parameters carry it). False for any invalid input, as
   * verifyGroth16 answers; never throws on untrusted bytes.
   */
  verify(payload: Json, proof: Groth16ProofBytes, publicSignals: readonly bigint[]): boolean {
    const k = this.#key(payload);
    if (k === undefined) return false;
    // The shared validation, its subgroup check of b done in the engine (the same verdict), which
    // leaves b in the engine's form for the pairing.
    let b: Uint8Array | undefined;
    const points = validProofInputs(k.key, proof, publicSignals, (point) => {
      b = this.curve.G2.toJacobian(this.#g2(point));
      return g2InSubgroupWasm(this.curve, this.#psi, b);
    });
    if (points === undefined || b === undefined) return false;
    const { G1, Gt } = this.curve;
    // Signals are < r (validated), so within the tables' 256 bits.
    const vkX = fixedBaseSum(this.curve, k.ic[0]!, k.icTables, publicSignals);
    const a = G1.neg(this.#g1(points.a));
    const c = this.#g1(points.c);
    const pairs: [Uint8Array, Uint8Array][] = [
      [this.#prepareG1(a), this.curve.prepareG2(b)],
      [this.#prepareG1(c), k.delta],
    ];
    // The pairing of the point at infinity is 1, as in verifyGroth16.
    if (!G1.isZero(vkX)) pairs.push([this.#prepareG1(vkX), k.gamma]);
    const miller = Gt.mul(multiMillerLoop(this.curve, pairs), k.alphaBetaMiller);
    return Gt.eq(this.curve.finalExponentiation(miller), Gt.one);
  }

  /** Ends the engine (single-threaded: frees nothing but its memory). */
  async close(): Promise<void> {
    await this.curve.terminate();
  }

  /** The engine's prepare and Miller loop take jacobian points (as its own pairingEq passes them). */
  #miller(p: Uint8Array, preparedQ: Uint8Array): Uint8Array {
    return this.curve.millerLoop(this.#prepareG1(p), preparedQ);
  }

  #prepareG1(p: Uint8Array): Uint8Array {
    return this.curve.prepareG1(this.curve.G1.toJacobian(p));
  }

  #prepareG2(q: Uint8Array): Uint8Array {
    return this.curve.prepareG2(this.curve.G2.toJacobian(q));
  }

  #g1(p: AffinePoint<bigint>): Uint8Array {
    const { x, y } = p.toAffine();
    return this.curve.G1.fromObject([x, y]);
  }

  #g2(p: AffinePoint<Fp2>): Uint8Array {
    const { x, y } = p.toAffine();
    return this.curve.G2.fromObject([
      [x.c0, x.c1],
      [y.c0, y.c1],
    ]);
  }

  #key(payload: Json): WasmKey | undefined {
    const id = verifyingKeyId(payload);
    if (this.#keys.has(id)) return this.#keys.get(id);
    const key = parseVerifyingKey(payload);
    const wasm = key === undefined ? undefined : this.#prepare(key);
    if (this.#keys.size >= KEYS_MAX) this.#keys.delete(this.#keys.keys().next().value!);
    this.#keys.set(id, wasm);
    return wasm;
  }

  #prepare(key: PreparedVerifyingKey): WasmKey {
    const ic = key.ic.map((p) => this.#g1(p));
    return {
      key,
      ic,
      icTables: ic.slice(1).map((p) => fixedBaseTable(this.curve, p)),
      gamma: this.#prepareG2(this.#g2(key.gamma)),
      delta: this.#prepareG2(this.#g2(key.delta)),
      alphaBetaMiller: this.#miller(this.#g1(key.alpha), this.#prepareG2(this.#g2(key.beta))),
    };
  }
}
