// State-tree proof figures (docs/design/state.md §Costs): proof bytes and verifications per second at
// 1,000 and 100,000 keys measured, 1,000,000 and 10,000,000 extrapolated (one sibling per level, log2 n).
// Run: node --conditions=torana-source --import tsx bench/state-proofs.ts [maxKeys]
import { encodeStateProof, verifyStateProof } from '../src/state/merkle/proof.js';
import { memoryTree } from '../src/state/merkle/tree.js';

const utf8 = new TextEncoder();
const max = Number(process.argv[2] ?? 100_000);
for (const n of [1_000, 100_000].filter((x) => x <= max)) {
  const tree = memoryTree();
  const rows = Array.from({ length: n }, (_, i) => ({
    key: utf8.encode(`\u0002acct-${i}@d`),
    value: utf8.encode(`v${i}`),
  }));
  tree.apply(tree.prepare(rows, 1));
  const root = tree.stateRoot();
  const probes = rows.filter((_, i) => i % Math.max(1, Math.floor(n / 500)) === 0);
  const proofs = probes.map((r) => tree.prove(r.key));
  const bytes = proofs.map((p) => encodeStateProof(p).length);
  const avg = bytes.reduce((a, b) => a + b, 0) / bytes.length;
  const t0 = performance.now();
  let ok = 0;
  for (let rep = 0; rep < 4; rep++)
    for (let i = 0; i < probes.length; i++)
      if (verifyStateProof(root, probes[i]!.key, probes[i]!.value, proofs[i]!)) ok++;
  const perSec = (ok / (performance.now() - t0)) * 1000;
  console.log(
    `${n} keys: proof ${avg.toFixed(0)} bytes on average (max ${Math.max(...bytes)}), ${perSec.toFixed(0)} verifications/s`,
  );
}
for (const n of [1_000_000, 10_000_000])
  console.log(
    `${n} keys (extrapolated): about ${(4 + 64 + 3 + 32 * Math.log2(n)).toFixed(0)} bytes per proof`,
  );
