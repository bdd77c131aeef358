// Figure `conference_zk_verify_per_s`: Groth16 verifications per second of a
// private-roster join proof on one core, through the verifier execution calls (`src/zk/`, pure and
// synchronous: the key prepared once, as the executor caches it), against a plain Ed25519 verify of the
// same run on the same core (the node's libsodium path). The proof is made once with the SDK prover
// from the committed development artifacts; a forged copy must fail, so the loop cannot time a
// verifier that accepts everything.

import { readFileSync } from 'node:fs';
import type { Json } from '../../src/codec/codec.js';
import { ed25519Generate, ed25519Sign, ed25519Verify } from '../../src/crypto/ed25519.js';
import {
  proveRoster,
  ROSTER_DEPTH,
  randomField,
  releaseProver,
  rosterCommitment,
} from '../../src/modules/conference/sdk-zk.js';
import { callField, ROSTER_JOIN, senderField } from '../../src/zk/bind.js';
import { verifyGroth16 } from '../../src/zk/groth16-verify.js';
import { merkleRoot } from '../../src/zk/poseidon-tree.js';
import { parseVerifyingKey } from '../../src/zk/verifying-key.js';
import { type Figure, type FigureResult, ratioOf } from '../lib/types.js';

/** One block of private joins carries two proofs each; 50 verifies/s lets a block of 25 joins verify in a second. */
const GOAL_PER_S = 50;
const CALL = 'bench:room';
const SENDER = 'alice@bench';

function perSecond(durationMs: number, op: () => boolean): number {
  let n = 0;
  const t0 = performance.now();
  let now = t0;
  while (now - t0 < durationMs) {
    if (!op()) throw new Error('a valid item did not verify');
    n++;
    now = performance.now();
  }
  return (n * 1000) / (now - t0);
}

export const conferenceZkVerifyFigure: Figure = {
  id: 'conference_zk_verify_per_s',
  async run(ctx): Promise<FigureResult> {
    const ms = ctx.quick ? 1_000 : 4_000;
    const vkJson = JSON.parse(
      readFileSync(new URL('../../zk/artifacts/roster.vkey.json', import.meta.url), 'utf8'),
    ) as Json;
    const vk = parseVerifyingKey(vkJson);
    if (vk === undefined) throw new Error('the committed roster verifying key does not parse');
    const secrets = Array.from({ length: 4 }, () => randomField());
    const roster = secrets.map(rosterCommitment);
    const t0 = performance.now();
    const proof = await proveRoster({
      callId: CALL,
      secret: secrets[1]!,
      roster,
      action: 'join',
      sender: SENDER,
    });
    const proveMs = performance.now() - t0;
    await releaseProver();
    const root = merkleRoot(ROSTER_DEPTH, roster);
    const sender = senderField(SENDER);
    const signals = [proof.nullifier, proof.nullifier, root, callField(CALL), ROSTER_JOIN, sender];
    if (
      verifyGroth16(vk, proof.proof, [
        proof.nullifier,
        proof.nullifier,
        root,
        callField('bench:other'),
        ROSTER_JOIN,
        sender,
      ])
    )
      throw new Error('a proof for another call verified');
    const key = ed25519Generate();
    const message = new Uint8Array(32).fill(7);
    const signature = ed25519Sign(key.seed, message);
    // Interleave so both see the same machine: baseline, figure, baseline, figure.
    const ed: number[] = [];
    const zk: number[] = [];
    for (let round = 0; round < 2; round++) {
      ed.push(perSecond(ms / 4, () => ed25519Verify(key.publicKey, message, signature)));
      zk.push(perSecond(ms, () => verifyGroth16(vk, proof.proof, signals)));
    }
    const value = Math.max(...zk);
    const baseline = Math.max(...ed);
    ctx.log(`zk ${value.toFixed(1)}/s, ed25519 ${baseline.toFixed(0)}/s, one proof ${proveMs.toFixed(0)} ms`);
    return {
      id: 'conference_zk_verify_per_s',
      value: Math.round(value * 10) / 10,
      unit: 'verifies/s (1 core)',
      baseline: 'Ed25519 verify, same core, same run',
      baseline_value: Math.round(baseline),
      ratio: ratioOf(value, baseline),
      goal: `≥ ${GOAL_PER_S}/s`,
      met: value >= GOAL_PER_S,
      assessed: !ctx.quick,
      extra: { prove_roster_ms: Math.round(proveMs) },
    };
  },
};
