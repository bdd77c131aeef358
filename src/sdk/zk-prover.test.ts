// releaseProver is safe before any proof: snarkjs keeps `null` in its curve slot until the first one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { releaseProver } from './zk-prover.js';

describe('releaseProver', () => {
  it('resolves before any proof was made, with the slot empty or null', async () => {
    await releaseProver();
    (globalThis as { curve_bn128?: unknown }).curve_bn128 = null;
    await releaseProver();
    assert.ok((globalThis as { curve_bn128?: unknown }).curve_bn128 == null);
  });
});
