// The checkers must catch real safety bugs: with a planted bug in every honest core and the hunt's draws
// (hunt.ts: byzantine kinds, collectors_k, the adversary's mix, all derived from the seed), the hunt
// finds each bug at a known seed: the rule checker (rules.ts) reports the first honest vote that breaks
// the lock rule, or the core's own safety assertions (safety-checks.ts) throw ConsensusInvariantError
// first, which fails the seed as well (with the current core, every planted bug is caught that way). Each test runs a few seeds ending at the first seed the hunt finds (measured over
// seeds 0–2,000; test/reliability/sim.test.ts runs the whole hunt) and asserts the bug is found AT that
// seed and not before. The same seeds without the bug must stay safe (the control), or the hunt proves
// nothing; a CLI replay of a hunt seed must be the hunt's run (same trace hash).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import type { PlantedBug } from '../consensus/bft/types.js';
import { HUNT_FIRST_FOUND as FIRST_FOUND, huntOptions, isFinding } from './hunt.js';
import { runSeed } from './run.js';

/** A hunt run of seed `s` with `bug` planted, made once in this file (the CLI replay compares with it). */
const huntRuns = new Map<string, ReturnType<typeof runSeed>>();
function huntRun(s: number, bug: PlantedBug): ReturnType<typeof runSeed> {
  const key = `${bug} ${s}`;
  let r = huntRuns.get(key);
  if (r === undefined) {
    r = runSeed(s, { ...huntOptions(s, bug), traceMax: 0 });
    huntRuns.set(key, r);
  }
  return r;
}

for (const [bug, seed] of Object.entries(FIRST_FOUND) as [PlantedBug, number][]) {
  test(`the hunt finds the planted bug ${bug} at seed ${seed}`, async () => {
    for (let s = Math.max(0, seed - 2); s <= seed; s++) {
      const r = await huntRun(s, bug);
      if (s < seed) assert.ok(!isFinding(r.failure), `${bug} found at seed ${s} already: ${r.failure}`);
      else
        assert.match(
          r.failure ?? 'not found',
          /^rule: |two blocks committed|ConsensusInvariantError|AssertionError/,
          `${bug} not found at seed ${seed}`,
        );
    }
  });
}

test('without a planted bug the hunt seeds stay safe (seeds 0–11)', async () => {
  let checked = 0;
  for (let s = 0; s < 12; s++) {
    const r = await runSeed(s, { ...huntOptions(s), traceMax: 0 });
    assert.ok(!isFinding(r.failure), `seed ${s}: ${r.failure}`);
    checked += r.stats.votesChecked;
  }
  assert.ok(checked > 0, 'the rule checker saw votes');
});

test('npm run sim -- --seed S --bug B replays the hunt run of seed S (same trace hash)', async () => {
  const seed = FIRST_FOUND['stale-justify-unlock'];
  const hunt = await huntRun(seed, 'stale-justify-unlock');
  const root = new URL('../..', import.meta.url).pathname;
  const cli = spawnSync(
    process.execPath,
    [
      '--conditions=torana-source',
      '--import',
      'tsx',
      'src/sim/cli.ts',
      '--seed',
      `${seed}`,
      '--bug',
      'stale-justify-unlock',
    ],
    { cwd: root, encoding: 'utf8' },
  );
  const m = /"traceHash": "([^"]+)"/.exec(cli.stdout);
  assert.ok(m !== null, `no trace hash in the CLI output: ${cli.stderr.slice(0, 500)}`);
  assert.equal(m[1], hunt.traceHash);
  assert.match(
    cli.stdout,
    /hunt seed 325: n=7 collectors_k=1 byzantine=\[stale-justify-leader,stale-justify-leader\]/,
  );
  assert.equal(cli.status, 1);
});

// A divergence of one row: the first honest validator's state tree holds one row the others' do not
// (world.ts plantRowDivergence), so its state root, the header's (version 2, the tree's root), differs.
// The others refuse its proposals and it refuses theirs (the proposal check compares the executed state
// root), block sync refuses the certified blocks it cannot reproduce, so it never commits past height 1
// and the run fails; the same seed without the row is safe and live.
test('a one-row divergence of one validator state tree is caught (seed 0)', async () => {
  const diverged = await runSeed(0, { n: 4, plantedRowDivergence: true, traceMax: 0 });
  assert.match(diverged.failure ?? 'not caught', /^liveness: .*not committed everywhere/);
  const heights = Object.values(diverged.stats.heights);
  assert.ok(Math.max(...heights) >= 3, `the others went on: ${JSON.stringify(diverged.stats.heights)}`);
  const control = await runSeed(0, { n: 4, traceMax: 0 });
  assert.equal(control.failure, undefined);
});
