// Codec fuzz (long version, `npm run test:reliability`): the decoders the node runs on untrusted
// bytes — SignedTransaction (POST /transaction), SignedQuery (POST /query), Block (block log), the
// WebSocket EventSubscription and the SSE event filter, and the ISO 20022 reader — each fuzzed with
// fast-check for FUZZ_SECONDS (default 60) of random bytes and mutated valid encodings (bit flips,
// truncations, splices, length-field inflation; lib/mutate.ts). Pass: only typed errors, < 100 ms and a
// bounded allocation per input, canonical round trip for accepted inputs (lib/fuzz-target.ts).
// Kept inputs under regressions/codec/ are checked first; a new failing input is saved there.
// Replay with FUZZ_SEED=<printed seed>; FUZZ_SECONDS=0 checks the kept inputs only.

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../../src/modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blockTarget, signedQueryTarget, signedTransactionTarget } from './lib/codec-targets.js';
import { checkInput, emptyStats, formatStats, fuzzFor } from './lib/fuzz-engine.js';
import type { AnyTarget } from './lib/fuzz-target.js';
import { isoTarget } from './lib/iso-target.js';
import { loadRegressions, saveRegression } from './lib/regressions.js';
import { eventFilterTarget, eventSubscriptionTarget } from './lib/stream-targets.js';

const SECONDS = Number(process.env.FUZZ_SECONDS ?? 60);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000_007);
const SUITE = 'codec';

const TARGETS: AnyTarget[] = [
  signedTransactionTarget(),
  signedQueryTarget(),
  blockTarget(),
  eventSubscriptionTarget(),
  eventFilterTarget(),
  isoTarget(),
];

describe('codec and parser fuzzing (long)', { timeout: (SECONDS * TARGETS.length + 120) * 1000 }, () => {
  it('every kept regression input passes', () => {
    const kept = loadRegressions(SUITE);
    const problems: string[] = [];
    for (const { file, record } of kept) {
      const t = TARGETS.find((x) => x.name === record.target);
      if (t === undefined) {
        problems.push(`${file}: unknown target ${record.target}`);
        continue;
      }
      const problem = checkInput(t, t.load(record), emptyStats());
      if (problem !== undefined) problems.push(`${file} (${t.name}): ${problem}`);
    }
    console.log(`[figure] codec regressions: ${kept.length} kept inputs checked, ${problems.length} failing`);
    assert.deepEqual(problems, []);
  });

  for (const [i, t] of TARGETS.entries()) {
    it(`${t.name}: typed errors only, fast, bounded, canonical (${SECONDS} s)`, {
      skip: SECONDS <= 0,
    }, () => {
      const seed = (SEED + i) >>> 0;
      console.log(`[seed] ${t.name}: ${seed} (replay with FUZZ_SEED=${SEED})`);
      const r = fuzzFor(t, SECONDS * 1000, seed);
      console.log(formatStats(t.name, r));
      if (r.failure !== undefined) {
        const found = `fuzz-codec seed ${seed} path ${r.failure.counterexamplePath} ${new Date().toISOString()}`;
        const path = saveRegression(SUITE, t.name, t.save(r.failure.input), r.failure.reason, found);
        assert.fail(`${t.name}: ${r.failure.reason}\n  input kept in ${path}`);
      }
      assert.ok(r.stats.tried > 0, 'some inputs were tried');
      assert.ok(r.stats.accepted > 0, 'some inputs were accepted (the generator reaches valid encodings)');
      assert.ok(r.stats.codes.size > 0, 'some inputs were rejected');
    });
  }
});
