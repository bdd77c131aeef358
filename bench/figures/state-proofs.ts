// Figures `proof_bytes` and `proof_verify_per_s` (docs/ledger-proofs.md): state-tree proofs of a tree of
// 100,000 keys (10,000 with --quick) in memory: the mean encoded size of 500 proofs of keys spread over
// the tree, and verifications per second of those proofs (decode + `verifyStateProof`, as the SDK's
// `verifyStateAnswer` runs them) on one core, best of 3 rounds. One measurement serves both figures.
// Neither has a goal (growth with log2 of the rows is documented): the table says '—'.

import { decodeStateProof, encodeStateProof, verifyStateProof } from '../../src/state/merkle/proof.js';
import { memoryTree } from '../../src/state/merkle/tree.js';
import { type Figure, type FigureContext, type FigureResult, NO_GOAL } from '../lib/types.js';

const PROBES = 500;

interface Measured {
  keys: number;
  meanBytes: number;
  maxBytes: number;
  perSec: number;
}

let measured: Promise<Measured> | undefined;

async function measure(ctx: FigureContext): Promise<Measured> {
  const n = ctx.quick ? 10_000 : 100_000;
  const utf8 = new TextEncoder();
  const tree = memoryTree();
  const rows = Array.from({ length: n }, (_, i) => ({
    key: utf8.encode(`\u0004coin#scale#acct-${i}@scale`),
    value: utf8.encode(`balance ${i}`),
  }));
  tree.apply(tree.prepare(rows, 1));
  const root = tree.stateRoot();
  const probes = rows.filter((_, i) => i % Math.floor(n / PROBES) === 0).slice(0, PROBES);
  const encoded = probes.map((r) => encodeStateProof(tree.prove(r.key)));
  const sizes = encoded.map((b) => b.length);
  let best = 0;
  for (let round = 0; round < 3; round++) {
    const t0 = performance.now();
    let ok = 0;
    for (let i = 0; i < probes.length; i++) {
      const p = decodeStateProof(encoded[i]!);
      if (p !== undefined && verifyStateProof(root, probes[i]!.key, probes[i]!.value, p)) ok++;
    }
    if (ok !== probes.length) throw new Error(`${probes.length - ok} proofs did not verify`);
    best = Math.max(best, (ok / (performance.now() - t0)) * 1000);
  }
  const m = {
    keys: n,
    meanBytes: sizes.reduce((a, b) => a + b, 0) / sizes.length,
    maxBytes: Math.max(...sizes),
    perSec: best,
  };
  ctx.log(
    `state proofs at ${n} keys: ${m.meanBytes.toFixed(0)} bytes mean, ${m.perSec.toFixed(0)} verifications/s`,
  );
  return m;
}

function result(id: 'proof_bytes' | 'proof_verify_per_s', m: Measured): FigureResult {
  return {
    id,
    value: Math.round(id === 'proof_bytes' ? m.meanBytes : m.perSec),
    unit:
      id === 'proof_bytes'
        ? `bytes per state proof (mean, ${m.keys} keys)`
        : `verifications/s (one core, ${m.keys} keys)`,
    baseline: null,
    baseline_value: null,
    ratio: null,
    goal: NO_GOAL,
    met: true,
    extra: { keys: m.keys, max_bytes: m.maxBytes },
  };
}

/** The one measurement of a run, shared by both figures. */
function shared(ctx: FigureContext): Promise<Measured> {
  measured ??= measure(ctx);
  return measured;
}

export const proofBytesFigure: Figure = {
  id: 'proof_bytes',
  run: async (ctx) => result('proof_bytes', await shared(ctx)),
};

export const proofVerifyFigure: Figure = {
  id: 'proof_verify_per_s',
  run: async (ctx) => result('proof_verify_per_s', await shared(ctx)),
};
