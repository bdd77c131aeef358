// Figure `conference_zk_verify_per_s`: Groth16 verifications per second of a private-roster join
// proof on 2 cores through the path admission takes (src/zk/proof-pool.ts: the WebAssembly verifier,
// groth16-wasm.ts, in the pool's two worker threads, claims kept in flight), against a plain Ed25519
// verify of the same run on one core (the node's libsodium path). The pure-JS single-core rate of the
// verifier execution falls back to (`src/zk/groth16-verify.ts`, key prepared once as the executor
// caches it) is kept in `extra`, and so are CPU-time rates: on a loaded machine the pool's wall-clock
// rate measures the share of the cores it got, its CPU time what a verification costs. The proof is
// made once with the SDK prover from the committed development artifacts; a forged copy must fail on
// both paths, so no loop can time a verifier that accepts everything.

import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
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
import { type ProofClaimItem, ProofVerifyPool } from '../../src/zk/proof-pool.js';
import { parseVerifyingKey } from '../../src/zk/verifying-key.js';
import { type Figure, type FigureResult, ratioOf } from '../lib/types.js';

/** One block of private joins carries two proofs each; 200 verifies/s lets a block of 100 joins verify in a second. */
const GOAL_PER_S = 200;
/** The pool's threads: the 2 cores of the reference machine. */
const POOL_THREADS = 2;
/** Claims per pool call and calls kept in flight: enough that no worker waits for the next job. */
const POOL_CALL_CLAIMS = 2;
const POOL_CALLS_IN_FLIGHT = 4;
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

/** CPU time of the whole process (every thread), in ms. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Claims through the pool for `durationMs`, POOL_CALLS_IN_FLIGHT calls outstanding: wall and CPU rates. */
async function poolRate(
  pool: ProofVerifyPool,
  claim: ProofClaimItem,
  durationMs: number,
): Promise<{ perS: number; cpuMsPerVerify: number }> {
  const claims = Array.from({ length: POOL_CALL_CLAIMS }, () => claim);
  let n = 0;
  const t0 = performance.now();
  const c0 = cpuMs();
  const lane = async () => {
    while (performance.now() - t0 < durationMs) {
      const verdicts = await pool.verify(claims);
      if (!verdicts.every((v) => v)) throw new Error('a valid proof did not verify in the pool');
      n += verdicts.length;
    }
  };
  await Promise.all(Array.from({ length: POOL_CALLS_IN_FLIGHT }, lane));
  const wallMs = performance.now() - t0;
  return { perS: (n * 1000) / wallMs, cpuMsPerVerify: (cpuMs() - c0) / n };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

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
    const pool = new ProofVerifyPool({ threads: POOL_THREADS });
    try {
      const claim: ProofClaimItem = { key: vkJson, proof: proof.proof, signals };
      const forged: ProofClaimItem = {
        ...claim,
        signals: [...signals.slice(0, 3), callField('bench:other'), ...signals.slice(4)],
      };
      // Also starts both workers and builds their engines, outside the timed rounds.
      const warm = await pool.verify([forged, claim, forged, claim]);
      if (warm.join() !== 'false,true,false,true') throw new Error(`the pool answered ${warm.join()}`);
      const key = ed25519Generate();
      const message = new Uint8Array(32).fill(7);
      const signature = ed25519Sign(key.seed, message);
      // Interleaved so all three see the same machine: baseline, pure JS, pool; three rounds.
      const ed: number[] = [];
      const js: number[] = [];
      const jsCpu: number[] = [];
      const pooled: number[] = [];
      const poolCpu: number[] = [];
      for (let round = 0; round < 3; round++) {
        ed.push(perSecond(ms / 4, () => ed25519Verify(key.publicKey, message, signature)));
        const c0 = cpuMs();
        let jsCount = 0;
        js.push(
          perSecond(ms / 2, () => {
            jsCount++;
            return verifyGroth16(vk, proof.proof, signals);
          }),
        );
        jsCpu.push((cpuMs() - c0) / jsCount);
        const p = await poolRate(pool, claim, ms);
        pooled.push(p.perS);
        poolCpu.push(p.cpuMsPerVerify);
      }
      const value = median(pooled);
      const baseline = median(ed);
      // What 2 cores would verify if the pool had them to itself: 2 × 1000 / (CPU ms per verification).
      const cpuPerS = (2 * 1000) / median(poolCpu);
      ctx.log(
        `zk pool ${value.toFixed(1)}/s (rounds ${pooled.map((v) => v.toFixed(1)).join(', ')}; ` +
          `${median(poolCpu).toFixed(2)} CPU ms each = ${cpuPerS.toFixed(0)}/s on 2 free cores), ` +
          `pure JS ${median(js).toFixed(1)}/s on 1 core, ed25519 ${baseline.toFixed(0)}/s, one proof ${proveMs.toFixed(0)} ms`,
      );
      const r1 = (x: number) => Math.round(x * 10) / 10;
      const r2 = (x: number) => Math.round(x * 100) / 100;
      return {
        id: 'conference_zk_verify_per_s',
        value: r1(value),
        unit: `verifies/s (${POOL_THREADS} cores, proof pool)`,
        baseline: 'Ed25519 verify, one core, same run',
        baseline_value: Math.round(baseline),
        ratio: ratioOf(value, baseline),
        goal: `≥ ${GOAL_PER_S}/s`,
        met: value >= GOAL_PER_S,
        assessed: !ctx.quick,
        extra: {
          prove_roster_ms: Math.round(proveMs),
          pool_rounds_per_s: pooled.map(r1).join(', '),
          pool_cpu_ms_per_verify: r2(median(poolCpu)),
          pool_per_s_on_free_cores_by_cpu: Math.round(cpuPerS),
          js_single_core_per_s: r1(median(js)),
          js_rounds_per_s: js.map(r1).join(', '),
          js_cpu_ms_per_verify: r2(median(jsCpu)),
          ed25519_rounds_per_s: ed.map(Math.round).join(', '),
          load_average_1m: r1(loadavg()[0]!),
        },
      };
    } finally {
      await pool.close();
    }
  },
};
