// The proof pool's plumbing with a real worker thread (the thread is what is tested): answers in the
// caller's order across jobs, false for garbage and malformed keys (never a throw), the inline mode,
// and a closed pool's typed error. Valid proofs through the pool: test/zk/proof-admission.test.ts;
// the verifier's verdicts: test/zk/groth16-wasm.test.ts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { CryptoError } from '../crypto/errors.js';
import { type ProofClaimItem, ProofVerifyPool } from './proof-pool.js';
import type { Json } from './verifying-key.js';

const VK = JSON.parse(
  readFileSync(new URL('../../zk/artifacts/roster.vkey.json', import.meta.url), 'utf8'),
) as Json;
const garbage = (n: number): ProofClaimItem => ({
  key: VK,
  proof: { a: new Uint8Array(64).fill(n), b: new Uint8Array(128).fill(n), c: new Uint8Array(64).fill(n) },
  signals: [1n, 2n, 3n, 4n, 5n, 6n],
});

describe('proof verification pool', () => {
  const pool = new ProofVerifyPool({ threads: 1, jobMax: 2 });
  after(() => pool.close());

  it('answers every claim false for garbage, in order, across several jobs, without throwing', async () => {
    const claims = [garbage(1), garbage(2), { ...garbage(3), key: 'not a key' }, garbage(0)];
    assert.deepEqual(await pool.verify(claims), [false, false, false, false]);
    assert.deepEqual(await pool.verify([]), []);
    assert.equal(pool.stats().claimsVerified, 4);
    assert.equal(pool.stats().jobsInFlight, 0);
  });

  it('verifies inline with no threads, and refuses work once closed', async () => {
    const inline = new ProofVerifyPool({ threads: 0 });
    assert.deepEqual(await inline.verify([garbage(7)]), [false]);
    await inline.close();
    await assert.rejects(
      inline.verify([garbage(7)]),
      (e) => e instanceof CryptoError && e.code === 'verify_pool_closed',
    );
    assert.throws(() => new ProofVerifyPool({ threads: -1 }), RangeError);
  });
});
