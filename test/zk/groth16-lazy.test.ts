// The BN254 curve of the Groth16 verifier is loaded on first use: a process that imports the executor
// and every ledger module, as each node and most test files do, does not build the curve's field tower
// (~0.2–0.35 s of CPU per process) until a proof or a verifying key is checked. (The Poseidon hash,
// ~0.05 s, stays a static import: src/zk/poseidon-tree.ts is in the SDK prover's browser bundle.)
// test-runner: own process: it registers a loader hook and needs a process that has not loaded the curve.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { resolvedSoFar } from '../helpers/resolve-log.js';

const CURVE = /\/node_modules\/@noble\/curves\/(esm\/)?bn254\.js$/;

/** The curve's CommonJS build in CommonJS's cache (the lazy loader requires it). */
function requiredCurve(): string[] {
  return Object.keys(createRequire(import.meta.url).cache).filter((p) => CURVE.test(p));
}

describe('the BN254 curve loads on first use', () => {
  it('importing the executor and every ledger module does not load it', async () => {
    await import('../../src/modules/load.js');
    await import('../../src/state/handlers.js');
    const urls = await resolvedSoFar();
    assert.ok(
      urls.some((u) => u.includes('/src/state/handlers.')),
      'the hook saw the executor load',
    );
    assert.deepEqual(
      urls.filter((u) => CURVE.test(u)),
      [],
    );
    assert.deepEqual(requiredCurve(), []);
  });

  it('the first point read loads it; the modulus stated in the verifier is the curve’s', async () => {
    const { BASE_FIELD_ORDER, g1FromCoordinates } = await import('../../src/zk/groth16-verify.js');
    assert.deepEqual(requiredCurve(), []);
    assert.equal(g1FromCoordinates(1n, 2n)?.toAffine().x, 1n, '(1, 2) is the G1 generator');
    assert.equal(requiredCurve().length, 1, 'loaded by the first point read');
    const { bn254 } = createRequire(import.meta.url)(
      '@noble/curves/bn254',
    ) as typeof import('@noble/curves/bn254');
    assert.equal(BASE_FIELD_ORDER, bn254.fields.Fp.ORDER);
  });
});
