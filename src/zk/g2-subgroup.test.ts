// The ψ subgroup check of g2-subgroup.ts against @noble/curves' own `isTorsionFree` ([6x²]Q = ψ(Q)),
// differentially: the same verdict on seeded random subgroup points, seeded random points of the
// twist that are not in the subgroup (x hashed until y² = x³ + b' has a root, the cofactor kept),
// subgroup points plus a torsion point of each prime order dividing the cofactor, those torsion
// points alone, the point at infinity and the verifiers' hostile fixture family (x = k + i). The
// constants are derived from their definitions here, not only copied, and the check's completeness for
// this curve is shown with integers alone (the group's structure and ψ's eigenvalues). Every point is
// also put to the same check computed in the WebAssembly engine (groth16-wasm.ts' `g2InSubgroupWasm`,
// what the pool's verifier passes to the shared validation): the three verdicts must agree.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildBn128, type WasmBn128 } from 'ffjavascript';
import {
  bn254,
  H,
  H_PRIMES,
  mulAny,
  seeded,
  torsionPoint,
  twistPoint,
} from '../../test/helpers/g2-torsion.js';
import { BN_SEED, g2InSubgroup, g2OnCurve, PSI_X, PSI_Y } from './g2-subgroup.js';
import { g2FromCoordinates } from './groth16-verify.js';
import { g2InSubgroupWasm, type PsiConstants, psiConstants } from './groth16-wasm.js';

const { Fp, Fp2 } = bn254.fields;
type G2 = InstanceType<typeof bn254.G2.Point>;
const G2 = bn254.G2.Point;
const x = BN_SEED;
const r = bn254.fields.Fr.ORDER;
const p = Fp.ORDER;

/** Random cases of each kind (with the fixed ones below, about 150 points in all). */
const CASES = 48;

/** The engine and ψ's constants in its form, for the WebAssembly check (built once for the file). */
let engine: { curve: WasmBn128; psi: PsiConstants } | undefined;

/** The WebAssembly check's verdict on a noble point (jacobian in the engine's form; infinity its zero). */
function wasmVerdict(q: G2): boolean {
  assert.ok(engine !== undefined, 'the engine is built before the tests');
  const { G2: W } = engine.curve;
  if (q.is0()) return g2InSubgroupWasm(engine.curve, engine.psi, W.zero);
  const { x: qx, y: qy } = q.toAffine();
  const point = W.toJacobian(
    W.fromObject([
      [qx.c0, qx.c1],
      [qy.c0, qy.c1],
    ]),
  );
  return g2InSubgroupWasm(engine.curve, engine.psi, point);
}

function same(q: G2, what: string): boolean {
  const expected = q.isTorsionFree();
  assert.equal(g2InSubgroup(bn254, q), expected, what);
  assert.equal(wasmVerdict(q), expected, `${what}, in the engine`);
  return expected;
}

/** b^e mod m. */
function powMod(b: bigint, e: bigint, m: bigint): bigint {
  let out = 1n;
  for (b %= m; e > 0n; e >>= 1n, b = (b * b) % m) if (e & 1n) out = (out * b) % m;
  return out;
}

/** Miller–Rabin with the first twelve primes as bases: a composite passes them all with a negligible chance. */
function probablyPrime(n: bigint): boolean {
  const bases = [2n, 3n, 5n, 7n, 11n, 13n, 17n, 19n, 23n, 29n, 31n, 37n];
  if (bases.includes(n)) return true;
  if (n < 2n || bases.some((b) => n % b === 0n)) return false;
  let d = n - 1n;
  let s = 0;
  for (; d % 2n === 0n; s++) d /= 2n;
  return bases.every((a) => {
    let y = powMod(a, d, n);
    if (y === 1n || y === n - 1n) return true;
    for (let i = 1; i < s; i++) {
      y = (y * y) % n;
      if (y === n - 1n) return true;
    }
    return false;
  });
}

/** The square roots of `a` modulo the odd prime `q` (Tonelli–Shanks); none when `a` is not a square. */
function sqrtMod(a: bigint, q: bigint): bigint[] {
  a = ((a % q) + q) % q;
  if (a === 0n) return [0n];
  if (powMod(a, (q - 1n) / 2n, q) !== 1n) return [];
  let m = 0n;
  let c = q - 1n;
  for (; c % 2n === 0n; m++) c /= 2n;
  let z = 2n;
  while (powMod(z, (q - 1n) / 2n, q) !== q - 1n) z++;
  let [cc, t, root] = [powMod(z, c, q), powMod(a, c, q), powMod(a, (c + 1n) / 2n, q)];
  while (t !== 1n) {
    let i = 0n;
    for (let t2 = t; t2 !== 1n; i++) t2 = (t2 * t2) % q;
    const b = powMod(cc, 1n << (m - i - 1n), q);
    [m, cc, t, root] = [i, (b * b) % q, (t * b * b) % q, (root * b) % q];
  }
  return [root, q - root];
}

describe('G2 subgroup check by ψ', () => {
  before(async () => {
    const curve = await buildBn128(true);
    engine = { curve, psi: psiConstants(curve) };
  });
  after(async () => {
    await engine?.curve.terminate();
  });

  it('its constants are their definitions', () => {
    // The BN parametrisation by x: r and p of this curve, the twist's cofactor.
    assert.equal(36n * x ** 4n + 36n * x ** 3n + 18n * x ** 2n + 6n * x + 1n, r);
    assert.equal(36n * x ** 4n + 36n * x ** 3n + 24n * x ** 2n + 6n * x + 1n, p);
    assert.equal(36n * x ** 4n + 36n * x ** 3n + 30n * x ** 2n + 6n * x + 1n, H);
    assert.equal(bn254.G2.CURVE.h, H);
    assert.equal(
      H_PRIMES.reduce((a, b) => a * b),
      H,
    );
    // The membership test holds for seeds with x ≢ 4 (mod 13) and x ≢ 92 (mod 97).
    assert.notEqual(x % 13n, 4n);
    assert.notEqual(x % 97n, 92n);
    // ψ's coefficients: ξ^((p−1)/3) and ξ^((p−1)/2), ξ = 9 + i the twist's non-residue, b' = 3/ξ.
    const xi = Fp2.create({ c0: 9n, c1: 1n });
    assert.ok(Fp2.eql(Fp2.NONRESIDUE, xi));
    assert.ok(Fp2.eql(bn254.G2.CURVE.b, Fp2.div(Fp2.create({ c0: 3n, c1: 0n }), xi)));
    assert.ok(Fp2.eql(Fp2.create(PSI_X), Fp2.pow(xi, (p - 1n) / 3n)));
    assert.ok(Fp2.eql(Fp2.create(PSI_Y), Fp2.pow(xi, (p - 1n) / 2n)));
  });

  it('is complete for this curve, by integers alone', () => {
    // E'(Fp2) has r · H points with r and H's four factors distinct primes, so it is cyclic and ψ acts on its
    // part of each prime order ℓ as a multiplication by a root λ of ψ's characteristic polynomial
    // λ² − tλ + p (t = 6x² + 1, the trace of Frobenius). The check's map Q ↦ [x+1]Q + ψ([x]Q) + ψ²([x]Q) −
    // ψ³([2x]Q) acts there as f(λ) = (x+1) + xλ + xλ² − 2xλ³: zero on the subgroup (λ = p mod r) and, for
    // either root modulo each cofactor prime, non-zero, so a point with any cofactor part is refused.
    const t = 6n * x * x + 1n;
    const f = (l: bigint, m: bigint) => (((x + 1n + x * l + x * l * l - 2n * x * l * l * l) % m) + m) % m;
    assert.ok(probablyPrime(r));
    assert.equal(new Set(H_PRIMES).size, H_PRIMES.length);
    for (const l of H_PRIMES) {
      assert.ok(probablyPrime(l), `${l} is prime`);
      assert.notEqual(l, r);
      const roots = sqrtMod(t * t - 4n * p, l).map((s) => ((((t + s) * powMod(2n, l - 2n, l)) % l) + l) % l);
      assert.equal(roots.length, 2, `ψ has eigenvalues modulo ${l}`);
      for (const lambda of roots) {
        assert.equal((lambda * lambda - t * lambda + p) % l, 0n);
        assert.notEqual(f(lambda, l), 0n, `the check refuses the points of order ${l}`);
      }
    }
    assert.equal(f(p % r, r), 0n, 'the check passes the subgroup');
    assert.ok(!probablyPrime(r * H_PRIMES[0]!) && probablyPrime(7919n) && !probablyPrime(7917n));
  });

  it('answers as noble on random subgroup points and random twist points outside it', () => {
    let inside = 0;
    let outside = 0;
    for (let i = 0; i < CASES; i++) {
      const k = seeded(`subgroup/${i}`) % r || 1n;
      if (same(G2.BASE.multiplyUnsafe(k), `[k]G2, case ${i}`)) inside++;
      const q = twistPoint(`twist/${i}`);
      assert.ok(g2OnCurve(bn254, q.x, q.y));
      if (!same(q, `hashed twist point, case ${i}`)) outside++;
    }
    // A hashed point is in the subgroup with probability 1/H: every one of them is outside.
    assert.deepEqual([inside, outside], [CASES, CASES]);
  });

  it('rejects a subgroup point plus a torsion point of each prime order dividing the cofactor', () => {
    for (const [j, l] of H_PRIMES.entries()) {
      // [r·H/ℓ]Q has order ℓ (or is 0: the next hashed point is taken then).
      const t = torsionPoint(j);
      assert.ok(mulAny(t, l).is0(), `order ${l}`);
      assert.equal(same(t, `torsion of order ${l}`), false);
      for (let i = 0; i < 4; i++) {
        const s = G2.BASE.multiplyUnsafe(seeded(`plus/${j}/${i}`) % r || 1n);
        assert.equal(same(s.add(t), `subgroup point + order-${l} torsion`), false);
        assert.equal(same(s.add(mulAny(t, 2n)), `subgroup point + 2·order-${l} torsion`), false);
      }
    }
  });

  it('takes the point at infinity as noble does, and the generator and its negation', () => {
    assert.equal(same(G2.ZERO, 'infinity'), true);
    assert.equal(same(G2.BASE, 'generator'), true);
    assert.equal(same(G2.BASE.negate(), '−generator'), true);
  });

  it('answers as noble on the verifiers’ hostile fixture family, x = k + i', () => {
    let n = 0;
    for (let k = 1n; n < 16; k++) {
      const px = Fp2.create({ c0: k, c1: 1n });
      let py: typeof px;
      try {
        py = Fp2.sqrt(Fp2.add(Fp2.mul(Fp2.sqr(px), px), bn254.G2.CURVE.b));
      } catch {
        continue;
      }
      n++;
      const q = G2.fromAffine({ x: px, y: py });
      assert.equal(same(q, `x = ${k} + i`), false);
      // Through the verifiers' reader: on the curve, outside the subgroup, rejected.
      assert.equal(g2FromCoordinates(px.c0, px.c1, py.c0, py.c1), undefined);
      assert.equal(g2FromCoordinates(px.c0, px.c1, py.c0, py.c1, wasmVerdict), undefined);
      const y = Fp2.neg(py);
      assert.equal(g2FromCoordinates(px.c0, px.c1, y.c0, y.c1), undefined);
      assert.equal(g2FromCoordinates(px.c0, px.c1, y.c0, y.c1, wasmVerdict), undefined);
    }
    const g = G2.BASE.toAffine();
    assert.ok(g2FromCoordinates(g.x.c0, g.x.c1, g.y.c0, g.y.c1)?.equals(G2.BASE));
    assert.ok(g2FromCoordinates(g.x.c0, g.x.c1, g.y.c0, g.y.c1, wasmVerdict)?.equals(G2.BASE));
    // Off the curve: y changed by one.
    assert.equal(g2FromCoordinates(g.x.c0, g.x.c1, g.y.c0 + 1n, g.y.c1), undefined);
    assert.equal(g2OnCurve(bn254, g.x, Fp2.add(g.y, Fp2.ONE)), false);
  });
});
