// BN254 G2 subgroup membership by the untwist-Frobenius-twist endomorphism ψ, on @noble/curves'
// G2 point operations and Fp2 arithmetic (no field code of our own). A point Q of the twist
// E'(Fp2): y² = x³ + 3/(9+i) is in the order-r subgroup exactly when
//   [x+1]Q + ψ([x]Q) + ψ²([x]Q) = ψ³([2x]Q),   x = 4965661367192848881 (the BN seed)
// (a criterion that holds for BN seeds with x ≢ 4 mod 13 and x ≢ 92 mod 97: this x is 0 mod 13
// and 49 mod 97). One 63-bit multiplication instead of noble's [6x²]Q = ψ(Q)
// (127 bits), so about half the cost; the verdict is the same on every point of the twist
// (src/zk/g2-subgroup.test.ts holds it to noble's `isTorsionFree` on subgroup points, points
// with a cofactor component, small-order torsion added to subgroup points and the point at
// infinity, and derives the constants below from their definitions).
// ψ(x, y) = (conj(x)·ξ^((p−1)/3), conj(y)·ξ^((p−1)/2)), ξ = 9 + i, is applied to projective
// coordinates directly ((X : Y : Z) ↦ (conj(X)·c_x : conj(Y)·c_y : conj(Z))): no inversion.
// The pool's WebAssembly verifier computes the same equation on its engine's G2 arithmetic
// (groth16-wasm.ts, `g2InSubgroupWasm`, with these constants); the test holds both to noble.
import type * as Bn254 from '@noble/curves/bn254';

type Curve = typeof Bn254.bn254;
type G2Point = InstanceType<Curve['G2']['Point']>;
type Fp2 = G2Point['X'];

/** The BN254 seed x (the curve's r = 36x⁴ + 36x³ + 18x² + 6x + 1). */
export const BN_SEED = 4965661367192848881n;

/** ξ^((p−1)/3), ξ = 9 + i: ψ's x coefficient. */
export const PSI_X = {
  c0: 21575463638280843010398324269430826099269044274347216827212613867836435027261n,
  c1: 10307601595873709700152284273816112264069230130616436755625194854815875713954n,
};
/** ξ^((p−1)/2): ψ's y coefficient. */
export const PSI_Y = {
  c0: 2821565182194536844548159561693502659359617185244120367078079554186484126554n,
  c1: 3505843767911556378687030309984248845540243509899259641013678093033130930403n,
};

/** ψ on projective coordinates: Frobenius (conjugation) of each coordinate, x and y scaled. */
function psi(curve: Curve, p: G2Point): G2Point {
  const { Fp2 } = curve.fields;
  const conj = (a: Fp2): Fp2 => Fp2.frobeniusMap(a, 1);
  return new curve.G2.Point(Fp2.mul(conj(p.X), PSI_X), Fp2.mul(conj(p.Y), PSI_Y), conj(p.Z));
}

/**
 * Whether a point of the twist (already known to be on it) is in the order-r subgroup G2; the
 * point at infinity is (as noble's `isTorsionFree` answers).
 */
export function g2InSubgroup(curve: Curve, q: G2Point): boolean {
  const xq = q.multiplyUnsafe(BN_SEED);
  const psiXq = psi(curve, xq);
  const lhs = xq.add(q).add(psiXq).add(psi(curve, psiXq));
  const rhs = psi(curve, psi(curve, psi(curve, xq.double())));
  return lhs.equals(rhs);
}

/** Whether affine (x, y) satisfies the twist's equation y² = x³ + b' (noble's Fp2 arithmetic). */
export function g2OnCurve(curve: Curve, x: Fp2, y: Fp2): boolean {
  const { Fp2 } = curve.fields;
  const rhs = Fp2.add(Fp2.mul(Fp2.sqr(x), x), curve.G2.CURVE.b);
  return Fp2.eql(Fp2.sqr(y), rhs);
}
