// The simulator's long run: SIM_SEEDS seeds (default 100,000; even seeds n = 4, odd n = 7) split over two
// child processes (one per core), each running src/sim/cli.ts. Prints simulated seconds, messages and
// faults; every failing seed is printed with its failure (replay: npm run sim -- --seed N --n 4|7).
// Then the planted-bug hunt (hunt.ts): each planted bug must be found within 2,000 hunt seeds, first at
// the seed planted-bugs.test.ts names, and SIM_HUNT_CONTROL hunt seeds without a bug (default 1,000) must
// raise no safety or rule failure (replay: npm run sim -- --seed N --bug B, or --hunt for the control).
// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../../src/modules/registry.js';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import type { PlantedBug } from '../../src/consensus/bft/types.js';
import { HUNT_FIRST_FOUND } from '../../src/sim/hunt.js';

const SEEDS = Number(process.env.SIM_SEEDS ?? 100_000);
const FROM = Number(process.env.SIM_FROM ?? 1_000_000);
const HUNT_BUDGET = 2_000;
const HUNT_CONTROL = Number(process.env.SIM_HUNT_CONTROL ?? 1_000);
const root = new URL('../..', import.meta.url).pathname;

interface Summary {
  seeds: number;
  failing: number[];
  simulatedSeconds: number;
  messages: number;
  events: number;
  faults: Record<string, number>;
}

function worker(from: number, count: number, extra: string[] = []): Promise<Summary & { out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--conditions=torana-source',
        '--import',
        'tsx',
        'src/sim/cli.ts',
        '--seeds',
        `${count}`,
        '--from',
        `${from}`,
        ...extra,
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      const s = d.toString();
      out += s;
      for (const line of s.split('\n'))
        if (line.includes('FAILED') || line.endsWith('s')) console.log(`[sim ${from}] ${line}`);
    });
    child.on('error', reject);
    child.on('close', () => {
      const line = out.split('\n').find((l) => l.startsWith('SUMMARY '));
      if (line === undefined) reject(new Error(`worker ${from} printed no summary`));
      else resolve({ ...(JSON.parse(line.slice('SUMMARY '.length)) as Summary), out });
    });
  });
}

test(`simulator: ${SEEDS} seeds`, async () => {
  const t0 = performance.now();
  const half = Math.floor(SEEDS / 2);
  const parts = await Promise.all([worker(FROM, half), worker(FROM + half, SEEDS - half)]);
  const faults: Record<string, number> = {};
  for (const p of parts) for (const [k, v] of Object.entries(p.faults)) faults[k] = (faults[k] ?? 0) + v;
  const failing = parts.flatMap((p) => p.failing);
  const simulated = parts.reduce((n, p) => n + p.simulatedSeconds, 0);
  const messages = parts.reduce((n, p) => n + p.messages, 0);
  console.log(
    `[figure] seeds=${SEEDS} wall_s=${((performance.now() - t0) / 1000).toFixed(0)} simulated_s=${simulated.toFixed(0)} messages=${messages} faults=${JSON.stringify(faults)}`,
  );
  console.log(`[seed] from=${FROM} failing=${JSON.stringify(failing)}`);
  assert.equal(
    parts.reduce((n, p) => n + p.seeds, 0),
    SEEDS,
  );
  assert.deepEqual(failing, []);
});

test(`planted-bug hunt: each bug found within ${HUNT_BUDGET} seeds; ${HUNT_CONTROL} control seeds stay safe`, async () => {
  const t0 = performance.now();
  const bugs = Object.keys(HUNT_FIRST_FOUND) as PlantedBug[];
  const hunts = (async () => {
    const found: Record<string, number | undefined> = {};
    for (const bug of bugs) {
      const r = await worker(0, HUNT_BUDGET, ['--bug', bug, '--until-found']);
      found[bug] = r.failing[0];
      console.log(
        `[figure] hunt bug=${bug} first_found_seed=${found[bug] ?? 'none'} (budget ${HUNT_BUDGET})`,
      );
    }
    return found;
  })();
  const control = worker(0, HUNT_CONTROL, ['--hunt']);
  const [found, clean] = await Promise.all([hunts, control]);
  console.log(
    `[figure] hunt control seeds=${HUNT_CONTROL} false_alarms=${clean.failing.length} wall_s=${((performance.now() - t0) / 1000).toFixed(0)} faults=${JSON.stringify(clean.faults)}`,
  );
  for (const bug of bugs) assert.equal(found[bug], HUNT_FIRST_FOUND[bug], `${bug}: first found seed`);
  assert.deepEqual(clean.failing, [], 'replay with: npm run sim -- --seed N --hunt');
});
