// Test-only: points of BN254's G2 twist E'(Fp2) outside the order-r subgroup, for the subgroup check's
// tests (src/zk/g2-subgroup.test.ts) and the verifiers' (test/zk/groth16-wasm.test.ts): seeded twist
// points with the cofactor kept, and a torsion point of each prime order dividing the cofactor.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as Bn254 from '@noble/curves/bn254';

// The CommonJS build, the one the verifier loads (one field tower built, points comparable).
export const { bn254 } = createRequire(import.meta.url)('@noble/curves/bn254') as typeof Bn254;
const { Fp, Fp2 } = bn254.fields;
export type G2 = InstanceType<typeof bn254.G2.Point>;
const G2 = bn254.G2.Point;
const r = bn254.fields.Fr.ORDER;

/** G2's cofactor: #E'(Fp2) = r · (2p − r). */
export const H = 2n * Fp.ORDER - r;
/** The cofactor's prime factors (their product is H, checked in g2-subgroup.test.ts). */
export const H_PRIMES = [
  10069n,
  5864401n,
  1875725156269n,
  197620364512881247228717050342013327560683201906968909n,
];

/** Deterministic 512-bit integers from a label (sha256 twice), for seeded random points. */
export function seeded(label: string): bigint {
  const h = (s: string) => createHash('sha256').update(s).digest('hex');
  return BigInt(`0x${h(`${label}/0`)}${h(`${label}/1`)}`);
}

/** [k]Q for any k ≥ 0 (noble's multiplyUnsafe takes scalars < r only). */
export function mulAny(q: G2, k: bigint): G2 {
  let acc = G2.ZERO;
  for (let d = q; k > 0n; k >>= 1n, d = d.double()) if (k & 1n) acc = acc.add(d);
  return acc;
}

/** The first point of the twist at or after x = hash(label), cofactor not cleared. */
export function twistPoint(label: string): G2 {
  for (let i = 0; ; i++) {
    const v = seeded(`${label}/${i}`);
    const px = Fp2.create({ c0: Fp.create(v), c1: Fp.create(v >> 256n) });
    const y2 = Fp2.add(Fp2.mul(Fp2.sqr(px), px), bn254.G2.CURVE.b);
    let py: typeof px;
    try {
      py = Fp2.sqrt(y2);
    } catch {
      continue;
    }
    return G2.fromAffine({ x: px, y: py });
  }
}

const torsion = new Map<number, G2>();

/**
 * A point of order H_PRIMES[j]: [r·H/ℓ]Q of a hashed twist point Q (the next one when that is 0).
 * Kept once built (tens of milliseconds each).
 */
export function torsionPoint(j: number): G2 {
  let t = torsion.get(j);
  if (t === undefined) {
    const l = H_PRIMES[j]!;
    t = G2.ZERO;
    for (let i = 0; t.is0(); i++) t = mulAny(twistPoint(`torsion/${j}/${i}`), (r * H) / l);
    torsion.set(j, t);
  }
  return t;
}
