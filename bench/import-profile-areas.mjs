// Where a bulk genesis import's CPU goes (bench/README.md "Bulk genesis import: the work per row"):
// reads `.cpuprofile` files of `bench/genesis-import.ts` run with `--cpu-prof` and prints each area's
// share of the import's samples. A sample belongs to the area of the innermost frame of its stack that a
// rule names (a hash inside the tree build is hashing); samples outside the import (start-up, writing the
// state file) are left out, the collector's and idle samples are kept.
//
//   node --cpu-prof --cpu-prof-dir=/tmp/prof --conditions=torana-source --import tsx bench/genesis-import.ts 200000
//   node bench/import-profile-areas.mjs /tmp/prof/CPU.….cpuprofile
import { readFileSync } from 'node:fs';

const RULES = [
  ['GC', (_u, f) => f === '(garbage collector)'],
  ['idle (waiting for LMDB commits, file IO)', (_u, f) => f === '(idle)'],
  [
    'hashing (BLAKE2b: key, value, accumulator, tree nodes)',
    (u) => /sodium-native|crypto\/hash\.ts|backend-node|merkle\/hash\.ts/.test(u),
  ],
  ['accumulator (LeafSum, without its hash)', (u) => /state\/root\.ts/.test(u)],
  ['tree node keys and encodings (nodes.ts)', (u) => /merkle\/nodes\.ts/.test(u)],
  ['node spool', (u) => /node-spool/.test(u)],
  ['tree build (sorted-build, without hashes and encodings)', (u) => /sorted-build/.test(u)],
  ['leaf sort', (u) => /leaf-sort/.test(u)],
  ['key/value sort (run sort, spill, merge)', (u) => /kv-sort|run-merge/.test(u)],
  ['LMDB writes (restorePacked, lmdb-js, row pack)', (u) => /lmdb|state-store|row-pack/.test(u)],
  [
    'NDJSON reading and line parsing (ids, amounts)',
    (u, f) =>
      /genesis-import-lines|model\/ids|model\/keys|model\/numeric|model\/names|string_decoder/.test(u) ||
      f === 'fileLines',
  ],
  [
    'row building (keys, values, index entries, links)',
    (u, f) =>
      /state\/tables|state\/table\.ts|codec\/|state-index-keys|genesis-import\.ts/.test(u) &&
      !/^(buildTree|writeRows|push|flush|importGenesisFile|importGenesisState)$/.test(f),
  ],
  ['write loops (sorted streams to packs)', (u) => /genesis-import\.ts/.test(u)],
];
const totals = new Map();
let all = 0;
for (const file of process.argv.slice(2)) {
  const p = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const memo = new Map();
  const area = (id) => {
    if (memo.has(id)) return memo.get(id);
    let a;
    let inImport = false;
    for (let x = id; x !== undefined; x = parent.get(x)) {
      const cf = byId.get(x).callFrame;
      if (a === undefined)
        for (const [name, rule] of RULES)
          if (rule(cf.url, cf.functionName)) {
            a = name;
            break;
          }
      if (/genesis-import\.ts|lmdb|state-store|row-pack/.test(cf.url)) inImport = true;
    }
    const f = byId.get(id).callFrame.functionName;
    const r =
      f === '(garbage collector)' || f === '(idle)' || f === '(program)'
        ? (a ?? 'V8 (program)')
        : inImport
          ? (a ?? 'other (Node buffers, generators)')
          : undefined;
    memo.set(id, r);
    return r;
  };
  for (let i = 0; i < p.samples.length; i++) {
    const a = area(p.samples[i]);
    if (a === undefined) continue;
    const dt = p.timeDeltas[i + 1] ?? 0;
    totals.set(a, (totals.get(a) ?? 0) + dt);
    all += dt;
  }
}
for (const [a, t] of [...totals].sort((x, y) => y[1] - x[1]))
  console.log(`${((100 * t) / all).toFixed(1).padStart(5)} %  ${a}`);
