// releaseProver is safe before any proof: snarkjs keeps `null` in its curve slot until the first one.
// onProgress is told each stage of a proof (witness, then proof) with the elapsed milliseconds.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { type ProofStage, proveRoster, releaseProver, rosterCommitment, rosterNullifier } from './sdk-zk.js';

describe('releaseProver', () => {
  it('resolves before any proof was made, with the slot empty or null', async () => {
    await releaseProver();
    (globalThis as { curve_bn128?: unknown }).curve_bn128 = null;
    await releaseProver();
    assert.ok((globalThis as { curve_bn128?: unknown }).curve_bn128 == null);
  });
});

describe('proof progress', () => {
  after(releaseProver);

  it('tells onProgress the witness stage, then the proof stage, with non-decreasing elapsed ms', async () => {
    const secret = 7n;
    const seen: [ProofStage, number][] = [];
    const p = await proveRoster({
      callId: 'system:progress-call',
      secret,
      roster: [rosterCommitment(3n), rosterCommitment(secret)],
      sender: 'ed0120AA@system',
      action: 'join',
      onProgress: (stage, elapsedMs) => seen.push([stage, elapsedMs]),
    });
    assert.deepEqual(
      seen.map(([s]) => s),
      ['roster:witness', 'roster:proof'],
    );
    const [[, witnessMs], [, proofMs]] = seen as [[ProofStage, number], [ProofStage, number]];
    assert.ok(
      Number.isInteger(witnessMs) && witnessMs >= 0 && proofMs >= witnessMs,
      `${witnessMs} ${proofMs}`,
    );
    // The two-stage proof is the same proof fullProve made: its nullifier is the one computed directly.
    assert.equal(p.nullifier, rosterNullifier('system:progress-call', secret, 'join'));
    console.log(`roster proof: witness at ${witnessMs} ms, proof at ${proofMs} ms`);
  });
});
