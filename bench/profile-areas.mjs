// Where a peer's main thread spends a load: reads `.cpuprofile` files (the BFT figures write one per peer
// with BENCH_PEER_PROF_DIR, bench/README.md "Profiles") and prints each area's share of the load window,
// mean over the files. A sample belongs to the first area in RULES that any frame of its stack names (so
// a signature check inside a proposal check is the proposal check's); the window runs from the first to
// the last sample inside `Pipeline.submit` (the load's first and last submission, start-up excluded).
//
//   node bench/profile-areas.mjs /tmp/prof/peer-0 /tmp/prof/peer-1 …   (every *.cpuprofile in each folder)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const RULES = [
  ['BLS votes and QCs', (u) => /bls-vote-crypto|consensus\/certificate\.ts|crypto\/bls\.ts/.test(u)],
  ['safety record (write, fsync)', (u) => /safety-file/.test(u)],
  [
    'proposal check + execution (the leader build included)',
    (u, f) =>
      /proposal-check|executed-block|src\/state\//.test(u) ||
      (/driver\.ts/.test(u) && /^(build|execute)$/.test(f)),
  ],
  [
    'commit (block log, state store, indexes, fsync)',
    (u, f) =>
      /block-log|index-writes|state-tree-store|src\/storage\/|lmdb/.test(u) ||
      (/ledger\.ts/.test(u) && /commit|applyCommitted/.test(f)) ||
      (/pipeline\.ts/.test(u) && /^commit/.test(f)),
  ],
  [
    "gossip intake (admission of the peers' transactions)",
    (u, f) => /driver\.ts/.test(u) && /driverMessage|bareForm/.test(f),
  ],
  ['gossip out', (u, f) => /driver\.ts/.test(u) && /flushGossip|admitted/.test(f)],
  [
    'client submissions (POST /transaction, admission)',
    (u) => /gateway\/routes\/transaction|pipeline\/admission/.test(u),
  ],
  [
    'event fan-out (event bus, /events)',
    (u) => /event-bus|event-hub|block-stream|fanout|event-batch|\/ws\//.test(u),
  ],
  ['peer transport (p2p, Noise stream, frames)', (u) => /src\/p2p|secret-stream|sodium|streamx/.test(u)],
  ['consensus core and driver, other', (u) => /src\/consensus\//.test(u)],
  [
    'HTTP server, other (Fastify, replies)',
    (u) => /fastify|_http_|find-my-way|avvio|pino|src\/gateway\//.test(u),
  ],
];

const LEAVES = new Map([
  ['(idle)', 'idle'],
  ['(garbage collector)', 'GC'],
  ['(program)', 'V8 (program)'],
]);

function shares(file) {
  const p = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const areaMemo = new Map();
  const area = (id) => {
    if (areaMemo.has(id)) return areaMemo.get(id);
    const fn = byId.get(id).callFrame.functionName;
    let a = LEAVES.get(fn);
    if (a === undefined) {
      let best = RULES.length;
      for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
        const c = byId.get(cur).callFrame;
        for (let i = 0; i < best; i++)
          if (RULES[i][1](c.url, c.functionName)) {
            best = i;
            break;
          }
      }
      a = best < RULES.length ? RULES[best][0] : 'other (V8, continuations, verify pool messages)';
    }
    areaMemo.set(id, a);
    return a;
  };
  const submitMemo = new Map();
  const inSubmit = (id) => {
    if (submitMemo.has(id)) return submitMemo.get(id);
    const c = byId.get(id).callFrame;
    const r =
      (/pipeline\/pipeline\.ts/.test(c.url) && c.functionName === 'submit') ||
      (parent.has(id) && inSubmit(parent.get(id)));
    submitMemo.set(id, r);
    return r;
  };
  const times = [];
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i];
    times.push(t);
  }
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < p.samples.length; i++)
    if (inSubmit(p.samples[i])) [first, last] = [Math.min(first, times[i]), Math.max(last, times[i])];
  const acc = new Map();
  let total = 0;
  for (let i = 0; i < p.samples.length; i++) {
    if (times[i] < first || times[i] > last) continue;
    const d = p.timeDeltas[i + 1] ?? 0;
    const a = area(p.samples[i]);
    acc.set(a, (acc.get(a) ?? 0) + d);
    total += d;
  }
  return { acc, total, windowMs: (last - first) / 1000 };
}

const all = new Map();
let files = 0;
for (const dir of process.argv.slice(2)) {
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.cpuprofile'))) {
    const r = shares(join(dir, f));
    if (r.total === 0) continue; // a thread without submissions (a worker's profile)
    files++;
    console.log(`${join(dir, f)}: load window ${(r.windowMs / 1000).toFixed(1)} s`);
    for (const [k, v] of r.acc) all.set(k, (all.get(k) ?? 0) + v / r.total);
  }
}
const rows = [...all].map(([k, v]) => [k, v / files]).sort((a, b) => b[1] - a[1]);
const idle = rows.find((r) => r[0] === 'idle')?.[1] ?? 0;
console.log('\n| area (main thread) | share of window | share of busy |\n| --- | --- | --- |');
for (const [k, v] of rows)
  console.log(
    `| ${k} | ${(v * 100).toFixed(1)} % | ${k === 'idle' ? '—' : `${((v / (1 - idle)) * 100).toFixed(1)} %`} |`,
  );
