// The pool's WebAssembly verifier (src/zk/groth16-wasm.ts) against the synchronous one
// (src/zk/groth16-verify.ts), differentially: both must give the same verdict on every input —
// valid proofs of each circuit, every public input changed, proofs mutated byte by byte, points
// on the curve but wrong, a G2 point on the curve outside the subgroup, a real proof's b plus a
// torsion point of each prime order dividing the twist's cofactor (refused by the subgroup check
// itself, not only by the pairing), coordinates ≥ p, inputs ≥ r, a wrong input count, the point at
// infinity and random garbage; and the engine's memory is the same after repeated calls. Real proofs
// from the committed development artifacts (about a second each to prove).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { bn254 } from '@noble/curves/bn254';
import { buildBn128, type WasmBn128 } from 'ffjavascript';
import type { Json } from '../../src/codec/codec.js';
import {
  createFeeBind,
  noteCommitment,
  noteOwnerHash,
  proveNoteSpend,
  proveRoster,
  releaseProver,
  rosterCommitment,
} from '../../src/modules/conference/sdk-zk.js';
import { callField, senderField } from '../../src/zk/bind.js';
import { FIELD_ORDER } from '../../src/zk/field.js';
import {
  BASE_FIELD_ORDER,
  type Groth16ProofBytes,
  validProofInputs,
  verifyGroth16,
} from '../../src/zk/groth16-verify.js';
import {
  fixedBaseSum,
  fixedBaseTable,
  g2InSubgroupWasm,
  multiMillerLoop,
  psiConstants,
  WasmGroth16,
} from '../../src/zk/groth16-wasm.js';
import { merkleRoot } from '../../src/zk/poseidon-tree.js';
import { parseVerifyingKey } from '../../src/zk/verifying-key.js';
import { H_PRIMES, bn254 as nobleCjs, torsionPoint } from '../helpers/g2-torsion.js';

const vkJson = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../zk/artifacts/${name}.vkey.json`, import.meta.url), 'utf8')) as Json;
const ROSTER_VK = vkJson('roster');
const NOTE_VK = vkJson('note_spend');

interface Case {
  vk: Json;
  proof: Groth16ProofBytes;
  signals: bigint[];
}

/** Random one-bit mutations of each point of each proof (the seeded generator below picks them). */
const MUTATIONS_PER_POINT = 8;

/** A seeded generator (xorshift32): the mutations are the same on every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
}

function be32(v: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 31; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

function g1Bytes(p: InstanceType<typeof bn254.G1.Point>): Uint8Array {
  const { x, y } = p.toAffine();
  return concat(be32(x), be32(y));
}

function g2Bytes(p: InstanceType<typeof bn254.G2.Point>): Uint8Array {
  const { x, y } = p.toAffine();
  return concat(be32(x.c1), be32(x.c0), be32(y.c1), be32(y.c0));
}

/** A point on the G2 twist that is not in the order-r subgroup (no cofactor cleared). */
function g2OffSubgroup(): Uint8Array {
  const { Fp2 } = bn254.fields;
  const b = bn254.G2.CURVE.b;
  for (let i = 1n; ; i++) {
    const x = Fp2.create({ c0: i, c1: 1n });
    const y2 = Fp2.add(Fp2.mul(Fp2.sqr(x), x), b);
    let y: ReturnType<typeof Fp2.create>;
    try {
      y = Fp2.sqrt(y2);
    } catch {
      continue;
    }
    const p = bn254.G2.Point.fromAffine({ x, y });
    if (!p.isTorsionFree()) return g2Bytes(p);
  }
}

describe('Groth16 verifier, WebAssembly (the pool’s) against the synchronous one', () => {
  let wasm: WasmGroth16;
  const cases: Case[] = [];

  before(async () => {
    wasm = await WasmGroth16.load();
    const secrets = [11n, 22n, 33n];
    const roster = secrets.map(rosterCommitment);
    const j = await proveRoster({
      callId: 'studio:standup',
      secret: secrets[1]!,
      roster,
      action: 'join',
      sender: 'alice@studio',
    });
    const root = merkleRoot(8, roster);
    cases.push({
      vk: ROSTER_VK,
      proof: j.proof,
      signals: [j.nullifier, j.nullifier, root, callField('studio:standup'), 1n, senderField('alice@studio')],
    });
    const note = { value: 1000n, secret: 5n, blinding: 6n };
    const leaves = [7n, noteCommitment(note.value, noteOwnerHash(note.secret, note.blinding))];
    const bind = createFeeBind('studio:standup', 'alice@studio');
    const s = await proveNoteSpend({
      note,
      poolLeaves: leaves,
      fee: 250n,
      bind,
      change: { secret: 8n, blinding: 9n },
    });
    cases.push({
      vk: NOTE_VK,
      proof: s.proof,
      signals: [s.nullifier, s.changeCommitment, s.root, 250n, bind],
    });
  });
  after(async () => {
    await wasm?.close();
    await releaseProver();
  });

  /**
   * Each key parsed once: parsing checks its points on the curve and in the subgroup, hundreds of
   * milliseconds of CPU, where the synchronous verifier refuses a mutated proof in under a millisecond.
   */
  const parsed = new Map<Json, ReturnType<typeof parseVerifyingKey>>();
  const parse = (vk: Json) => {
    if (!parsed.has(vk)) parsed.set(vk, parseVerifyingKey(vk));
    return parsed.get(vk);
  };

  /** Both verdicts, asserted equal; returns the common one. */
  function same(c: Case, what: string): boolean {
    const key = parse(c.vk);
    const slow = key !== undefined && verifyGroth16(key, c.proof, c.signals);
    const fast = wasm.verify(c.vk, c.proof, c.signals);
    assert.equal(fast, slow, `${what}: wasm ${fast}, synchronous ${slow}`);
    return slow;
  }

  it('accepts the valid proofs of each circuit', () => {
    for (const c of cases) assert.equal(same(c, 'valid'), true);
  });

  it('rejects every changed public input, a wrong count and inputs ≥ r', () => {
    for (const c of cases) {
      for (let i = 0; i < c.signals.length; i++) {
        const changed = c.signals.slice();
        changed[i] = (changed[i]! + 1n) % FIELD_ORDER;
        assert.equal(same({ ...c, signals: changed }, `input ${i} + 1`), false);
        const shifted = c.signals.slice();
        shifted[i] = shifted[i]! + FIELD_ORDER;
        assert.equal(same({ ...c, signals: shifted }, `input ${i} + r`), false);
      }
      assert.equal(same({ ...c, signals: c.signals.slice(1) }, 'one input short'), false);
      assert.equal(same({ ...c, signals: [...c.signals, 0n] }, 'one input more'), false);
      assert.equal(same({ ...c, signals: c.signals.map(() => 0n) }, 'all-zero inputs'), false);
      assert.equal(same({ ...c, vk: c === cases[0] ? NOTE_VK : ROSTER_VK }, 'another key'), false);
    }
  });

  it('agrees on proofs mutated byte by byte (off the curve, or on it and wrong)', () => {
    const next = rng(0x5eed);
    let checked = 0;
    for (const c of cases) {
      for (const field of ['a', 'b', 'c'] as const) {
        const bytes = c.proof[field];
        for (let n = 0; n < MUTATIONS_PER_POINT; n++) {
          const out = bytes.slice();
          out[next() % out.length]! ^= 1 << (next() % 8);
          assert.equal(same({ ...c, proof: { ...c.proof, [field]: out } }, `${field} mutated`), false);
          checked++;
        }
      }
    }
    assert.equal(checked, 2 * 3 * MUTATIONS_PER_POINT);
  });

  it('agrees on valid curve points that are not the proof, swapped points and the subgroup check', () => {
    const c = cases[0]!;
    const p = c.proof;
    const g1 = g1Bytes(bn254.G1.Point.BASE.multiply(12345n));
    const g2 = g2Bytes(bn254.G2.Point.BASE.multiply(6789n));
    const variants: [string, Groth16ProofBytes][] = [
      ['a and c swapped', { ...p, a: p.c, c: p.a }],
      ['another a on the curve', { ...p, a: g1 }],
      ['another c on the curve', { ...p, c: g1 }],
      ['another b in the subgroup', { ...p, b: g2 }],
      ['b on the twist, outside the subgroup', { ...p, b: g2OffSubgroup() }],
      ['a negated', { ...p, a: g1Bytes(bn254.G1.Point.fromAffine(affine(p.a)).negate()) }],
    ];
    for (const [what, proof] of variants) assert.equal(same({ ...c, proof }, what), false);
  });

  it('refuses a real proof whose b has a torsion part of each prime order dividing the cofactor', () => {
    // The verifier's own engine (private to it; a test reads it to pin the check it hands the validation).
    const engine = (wasm as unknown as { curve: WasmBn128 }).curve;
    const psi = psiConstants(engine);
    const engineCheck = (q: InstanceType<typeof nobleCjs.G2.Point>) => {
      const { x, y } = q.toAffine();
      const point = engine.G2.fromObject([
        [x.c0, x.c1],
        [y.c0, y.c1],
      ]);
      return g2InSubgroupWasm(engine, psi, engine.G2.toJacobian(point));
    };
    // b is checked alike whatever the circuit: one proof is enough.
    const c = cases[0]!;
    const key = parse(c.vk)!;
    assert.ok(validProofInputs(key, c.proof, c.signals, engineCheck), 'the real proof passes the check');
    const b = g2FromProof(c.proof.b);
    for (const [j, l] of H_PRIMES.entries()) {
      const what = `b + a point of order ${l}`;
      const proof = { ...c.proof, b: g2Bytes(b.add(torsionPoint(j))) };
      assert.equal(same({ ...c, proof }, what), false);
      // Refused by the subgroup check itself (engine's and noble's), before any pairing.
      assert.equal(validProofInputs(key, proof, c.signals, engineCheck), undefined, `${what}, engine`);
      assert.equal(validProofInputs(key, proof, c.signals), undefined, `${what}, synchronous`);
    }
  });

  it('leaves the engine’s memory as it found it over repeated valid and invalid calls', () => {
    const { tm } = (wasm as unknown as { curve: WasmBn128 }).curve;
    const c = cases[0]!;
    const offSubgroup = {
      ...c,
      proof: { ...c.proof, b: g2Bytes(g2FromProof(c.proof.b).add(torsionPoint(0))) },
    };
    const wrongInput = { ...c, signals: [c.signals[0]! + 1n, ...c.signals.slice(1)] };
    // Once each first: the key's precomputations are made on the first call.
    assert.equal(wasm.verify(c.vk, c.proof, c.signals), true);
    const free = tm.u32[0];
    for (let i = 0; i < 25; i++) {
      const bad = i % 2 === 0 ? offSubgroup : wrongInput;
      assert.equal(wasm.verify(bad.vk, bad.proof, bad.signals), false);
      assert.equal(wasm.verify(c.vk, c.proof, c.signals), true);
    }
    assert.equal(tm.u32[0], free, 'the free pointer is where it was');
  });

  it('agrees on coordinates ≥ p, the point at infinity and garbage', () => {
    const c = cases[0]!;
    const p = c.proof;
    const { x, y } = affine(p.a);
    const xPlusP = concat(be32(x + BASE_FIELD_ORDER), be32(y));
    assert.equal(same({ ...c, proof: { ...p, a: xPlusP } }, 'a.x + p'), false);
    const bPlusP = p.b.slice();
    bPlusP.set(be32(BigInt(`0x${Buffer.from(p.b.subarray(0, 32)).toString('hex')}`) + BASE_FIELD_ORDER), 0);
    assert.equal(same({ ...c, proof: { ...p, b: bPlusP } }, 'b.x.c1 + p'), false);
    assert.equal(same({ ...c, proof: { ...p, a: new Uint8Array(64) } }, 'a at infinity'), false);
    assert.equal(same({ ...c, proof: { ...p, b: new Uint8Array(128) } }, 'b at infinity'), false);
    assert.equal(same({ ...c, proof: { ...p, c: new Uint8Array(63) } }, 'c one byte short'), false);
    const next = rng(42);
    const garbage = (n: number) => Uint8Array.from({ length: n }, () => next() & 0xff);
    for (let i = 0; i < 16; i++) {
      const proof = { a: garbage(64), b: garbage(128), c: garbage(64) };
      assert.equal(same({ ...c, proof }, `garbage ${i}`), false);
    }
    for (const vk of ['junk', null, { protocol: 'groth16' }] as Json[])
      assert.equal(same({ ...c, vk }, 'a malformed key'), false);
  });
});

/** A proof's b (x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0) as a point of the CommonJS build the helpers use. */
function g2FromProof(bytes: Uint8Array): InstanceType<typeof nobleCjs.G2.Point> {
  const hex = Buffer.from(bytes).toString('hex');
  const [xc1, xc0, yc1, yc0] = [0, 1, 2, 3].map((i) => BigInt(`0x${hex.slice(64 * i, 64 * i + 64)}`));
  const { Fp2 } = nobleCjs.fields;
  return nobleCjs.G2.Point.fromAffine({
    x: Fp2.create({ c0: xc0!, c1: xc1! }),
    y: Fp2.create({ c0: yc0!, c1: yc1! }),
  });
}

function affine(bytes: Uint8Array): { x: bigint; y: bigint } {
  const hex = Buffer.from(bytes).toString('hex');
  return { x: BigInt(`0x${hex.slice(0, 64)}`), y: BigInt(`0x${hex.slice(64, 128)}`) };
}

describe('the WebAssembly verifier’s own steps on the engine: IC tables, one Miller loop', () => {
  let curve: WasmBn128;
  before(async () => {
    curve = await buildBn128(true);
  });
  after(async () => {
    await curve?.terminate();
  });

  it('give start + Σ [s_i]P_i as the engine’s own multiplications do, at every edge', () => {
    const { G1 } = curve;
    const r = FIELD_ORDER;
    const points = [3n, 7919n, 3n].map((k) => G1.toAffine(G1.timesScalar(G1.g, k)));
    const tables = points.map((p) => fixedBaseTable(curve, p));
    const start = G1.toAffine(G1.timesScalar(G1.g, 42n));
    const expected = (scalars: bigint[]) => {
      let v = G1.toJacobian(start);
      for (const [i, s] of scalars.entries()) v = G1.add(v, G1.timesScalar(points[i]!, s));
      return v;
    };
    const next = rng(0xf1b);
    const random = () => {
      let v = 0n;
      for (let i = 0; i < 8; i++) v = (v << 32n) | BigInt(next());
      return v % r;
    };
    const edges = [0n, 1n, 2n, 15n, 16n, 17n, 255n, 256n, r - 1n, r - 2n, 1n << 252n, (1n << 256n) - 1n];
    const sets: bigint[][] = [
      ...edges.map((s) => [s, 0n, 0n]),
      ...edges.map((s) => [random(), s, random()]),
      // The same point twice (tables 0 and 2): the engine's addition doubles.
      [5n, 0n, 5n],
      // [s]P + [r − s]P = 0, then start alone.
      [12345n, 0n, r - 12345n],
      [0n, 0n, 0n],
      ...Array.from({ length: 8 }, () => [random(), random(), random()]),
    ];
    for (const scalars of sets)
      assert.ok(G1.eq(fixedBaseSum(curve, start, tables, scalars), expected(scalars)), scalars.join());
    assert.throws(() => fixedBaseSum(curve, start, tables, [1n << 256n, 0n, 0n]), RangeError);
  });

  it('one Miller loop for several pairs is the product of the engine’s Miller loops', () => {
    const { G1, G2, Gt } = curve;
    const next = rng(0x3a11);
    const scalar = () => BigInt(next()) * BigInt(next()) + 1n;
    const pair = (): [Uint8Array, Uint8Array] => [
      curve.prepareG1(G1.timesScalar(G1.g, scalar())),
      curve.prepareG2(G2.timesScalar(G2.g, scalar())),
    ];
    const pairs = [pair(), pair(), pair()];
    assert.ok(Gt.eq(multiMillerLoop(curve, []), Gt.one));
    for (let n = 1; n <= pairs.length; n++) {
      let expected = Gt.one;
      for (const [p, q] of pairs.slice(0, n)) expected = Gt.mul(expected, curve.millerLoop(p, q));
      assert.ok(Gt.eq(multiMillerLoop(curve, pairs.slice(0, n)), expected), `${n} pairs`);
    }
  });
});
