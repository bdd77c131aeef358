// Where a pooled Groth16 verification's CPU goes, by thread: the WebAssembly verifier
// (src/zk/groth16-wasm.ts) in a loop on the main thread, against the proof pool (src/zk/proof-pool.ts)
// with one and with two worker threads, 4 calls of 2 claims in flight (as the figure
// `conference_zk_verify_per_s` runs it). Rounds interleave the three; each reports CPU ms per
// verification of the whole process and, on Linux, split by thread from /proc/self/task/<tid>/stat
// (no profiler): the main thread, the pool's workers, and every other thread (V8's platform threads:
// garbage collection and compilation helpers; libuv). One roster proof is made first with the SDK prover.
//
//   node --conditions=torana-source --import tsx bench/zk-pool-threads.ts [--rounds 3] [--seconds 4]

import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { Json } from '../src/codec/codec.js';
import {
  proveRoster,
  ROSTER_DEPTH,
  randomField,
  releaseProver,
  rosterCommitment,
} from '../src/modules/conference/sdk-zk.js';
import { callField, ROSTER_JOIN, senderField } from '../src/zk/bind.js';
import { WasmGroth16 } from '../src/zk/groth16-wasm.js';
import { merkleRoot } from '../src/zk/poseidon-tree.js';
import { type ProofClaimItem, ProofVerifyPool } from '../src/zk/proof-pool.js';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '3' }, seconds: { type: 'string', default: '4' } },
});
const ROUNDS = Number(values.rounds);
const MS = Number(values.seconds) * 1000;
const CALL_CLAIMS = 2;
const CALLS_IN_FLIGHT = 4;
/** Linux's clock ticks per second for /proc's utime and stime (USER_HZ). */
const TICK_MS = 10;

/** CPU ticks of each thread of this process (empty where /proc is absent). */
function threadTicks(): Map<number, number> {
  const out = new Map<number, number>();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), Number(fields[11]) + Number(fields[12]));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

interface Sample {
  total: number;
  main: number;
  workers: number;
  other: number;
  perS: number;
}

/** Runs `body` (which returns the verifications it did) and splits its CPU by thread. */
async function measure(workerTids: ReadonlySet<number>, body: () => Promise<number>): Promise<Sample> {
  const t0 = threadTicks();
  const c0 = cpuMs();
  const w0 = performance.now();
  const n = await body();
  const wall = performance.now() - w0;
  const total = (cpuMs() - c0) / n;
  const t1 = threadTicks();
  let main = 0;
  let workers = 0;
  let other = 0;
  for (const [tid, ticks] of t1) {
    const ms = ((ticks - (t0.get(tid) ?? 0)) * TICK_MS) / n;
    if (tid === process.pid) main += ms;
    else if (workerTids.has(tid)) workers += ms;
    else other += ms;
  }
  return { total, main, workers, other, perS: (n * 1000) / wall };
}

/** The threads a pool started: those present after its first answers and not before. */
async function startPool(threads: number, claim: ProofClaimItem): Promise<[ProofVerifyPool, Set<number>]> {
  const before = new Set(threadTicks().keys());
  const pool = new ProofVerifyPool({ threads });
  const warm = await pool.verify(Array.from({ length: 4 * threads }, () => claim));
  if (!warm.every((v) => v)) throw new Error('a valid proof did not verify in the pool');
  const started = new Set([...threadTicks().keys()].filter((tid) => !before.has(tid)));
  return [pool, started];
}

async function poolLoop(pool: ProofVerifyPool, claim: ProofClaimItem): Promise<number> {
  const claims = Array.from({ length: CALL_CLAIMS }, () => claim);
  const t0 = performance.now();
  let n = 0;
  const lane = async () => {
    while (performance.now() - t0 < MS) {
      const verdicts = await pool.verify(claims);
      if (!verdicts.every((v) => v)) throw new Error('a valid proof did not verify in the pool');
      n += verdicts.length;
    }
  };
  await Promise.all(Array.from({ length: CALLS_IN_FLIGHT }, lane));
  return n;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1]!;

const key = JSON.parse(
  readFileSync(new URL('../zk/artifacts/roster.vkey.json', import.meta.url), 'utf8'),
) as Json;
const secrets = Array.from({ length: 4 }, () => randomField());
const roster = secrets.map(rosterCommitment);
const made = await proveRoster({
  callId: 'bench:room',
  secret: secrets[1]!,
  roster,
  action: 'join',
  sender: 'a@b',
});
await releaseProver();
const signals = [
  made.nullifier,
  made.nullifier,
  merkleRoot(ROSTER_DEPTH, roster),
  callField('bench:room'),
  ROSTER_JOIN,
  senderField('a@b'),
];
const claim: ProofClaimItem = { key, proof: made.proof, signals };
const forged: ProofClaimItem = { ...claim, signals: [...signals.slice(0, 5), senderField('c@d')] };

const wasm = await WasmGroth16.load();
if (wasm.verify(forged.key, forged.proof, forged.signals)) throw new Error('a forged claim verified');
const [pool1, tids1] = await startPool(1, claim);
const [pool2, tids2] = await startPool(2, claim);
const modes: [string, () => Promise<Sample>][] = [
  [
    'main thread',
    () =>
      measure(new Set(), async () => {
        const t0 = performance.now();
        let n = 0;
        while (performance.now() - t0 < MS) {
          if (!wasm.verify(claim.key, claim.proof, claim.signals))
            throw new Error('a valid proof did not verify');
          n++;
        }
        return n;
      }),
  ],
  ['pool, 1 worker', () => measure(tids1, () => poolLoop(pool1, claim))],
  ['pool, 2 workers', () => measure(tids2, () => poolLoop(pool2, claim))],
];
const samples = new Map<string, Sample[]>(modes.map(([name]) => [name, []]));
for (let round = 0; round < ROUNDS; round++)
  for (const [name, run] of modes) samples.get(name)!.push(await run());
await Promise.all([pool1.close(), pool2.close(), wasm.close()]);

const f = (x: number) => x.toFixed(2);
console.log(
  `CPU ms per verification, median of ${ROUNDS} rounds of ${MS / 1000} s (each round's in brackets)`,
);
for (const [name, xs] of samples) {
  const col = (pick: (s: Sample) => number) =>
    `${f(median(xs.map(pick)))} [${xs.map((s) => f(pick(s))).join(' ')}]`;
  console.log(
    `${name.padEnd(16)} process ${col((s) => s.total)}  main ${col((s) => s.main)}  workers ${col((s) => s.workers)}  ` +
      `other threads ${col((s) => s.other)}  ${median(xs.map((s) => s.perS)).toFixed(1)}/s wall`,
  );
}
console.log(`load average (1 min) ${loadavg()[0]!.toFixed(1)}`);
