// Groth16 verification over BN254 with a WebAssembly pairing (ffjavascript's `buildBn128`, the
// engine snarkjs runs on), for the verification pool's workers (src/crypto/verify-worker.ts). It
// answers exactly as groth16-verify.ts does on every input: the same validation runs first
// (`validProofInputs`, keys through `parseVerifyingKey`), and only validated points reach the
// engine, which then checks the same equation
//   e(−A, B) · e(alpha, beta) · e(vk_x, gamma) · e(C, delta) = 1
// as a product of Miller loops and one final exponentiation. The engine is built once per thread,
// single-threaded (`buildBn128(true)`: no threads of its own inside a pool worker); building it is
// the only async step, verification itself is synchronous. Node-only: the SDK never imports it.
import { buildBn128, type WasmBn128 } from 'ffjavascript';
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

  private constructor(private readonly curve: WasmBn128) {}

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
    const points = validProofInputs(k.key, proof, publicSignals);
    if (points === undefined) return false;
    const { G1, Gt } = this.curve;
    // Signals are < r (validated), so within the tables' 256 bits.
    const vkX = fixedBaseSum(this.curve, k.ic[0]!, k.icTables, publicSignals);
    const a = G1.neg(this.#g1(points.a));
    const b = this.#g2(points.b);
    const c = this.#g1(points.c);
    const pairs: [Uint8Array, Uint8Array][] = [
      [this.#prepareG1(a), this.#prepareG2(b)],
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
