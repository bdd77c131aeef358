// `npm run sim -- --seed N [--n 4|7] [--observer] [--messages]` replays one ordinary seed and prints its
// trace; `npm run sim -- --seed N --bug B` (or `--hunt` for the same run without a bug) replays seed N of
// the planted-bug hunt exactly: every option (n, byzantine kinds, collectors_k, the adversary's mix) is
// derived from the seed by huntOptions, as the hunt derives it. `--seeds COUNT [--from S]` runs many
// (ordinary seeds, or hunt seeds with --bug / --hunt) and prints progress, the failing seeds and totals;
// with --until-found it stops at the first failing seed (the hunt).

import type { PlantedBug } from '../consensus/bft/types.js';
import { describeHunt, huntOptions } from './hunt.js';
import { type RunOptions, runSeed } from './run.js';

const PLANTED: readonly PlantedBug[] = [
  'prepare-ignores-lock',
  'forget-lock-on-restart',
  'stale-justify-unlock',
];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function bug(): PlantedBug | undefined {
  const b = arg('bug');
  if (b === undefined) return undefined;
  if (!PLANTED.includes(b as PlantedBug)) throw new Error(`--bug must be one of ${PLANTED.join(', ')}`);
  return b as PlantedBug;
}

const hunting = arg('bug') !== undefined || process.argv.includes('--hunt');

/** The options of `seed`: the hunt's draws for a hunt seed, else the ordinary run's. */
function options(seed: number): RunOptions {
  if (hunting) return huntOptions(seed, bug());
  const n = Number(arg('n') ?? 4) === 7 ? 7 : 4;
  return { n, observer: process.argv.includes('--observer') };
}

async function one(seed: number): Promise<void> {
  const o = options(seed);
  const r = await runSeed(seed, {
    ...o,
    traceMax: 5_000,
    traceMessages: process.argv.includes('--messages'),
  });
  for (const line of r.trace) console.log(line);
  if (hunting) console.log(`hunt seed ${seed}: ${describeHunt(o)}`);
  console.log(
    JSON.stringify({ seed, ok: r.ok, failure: r.failure, traceHash: r.traceHash, stats: r.stats }, null, 1),
  );
  process.exitCode = r.ok ? 0 : 1;
}

async function many(count: number, from: number): Promise<void> {
  const totals = { simulatedMs: 0, messages: 0, events: 0, faults: {} as Record<string, number> };
  const failing: number[] = [];
  const t0 = performance.now();
  for (let s = from; s < from + count; s++) {
    const o = options(s);
    const r = await runSeed(s, {
      ...o,
      ...(!hunting && s % 2 === 1 && arg('n') === undefined ? { n: 7 } : {}),
      traceMax: 0,
    });
    totals.simulatedMs += r.stats.simulatedMs;
    totals.messages += r.stats.messages;
    totals.events += r.stats.events;
    for (const [k, v] of Object.entries(r.stats.faults)) totals.faults[k] = (totals.faults[k] ?? 0) + v;
    // A hunt's liveness failures are expected (its adversary stays on the wire); only safety counts.
    if (!r.ok && !(hunting && r.failure!.startsWith('liveness'))) {
      failing.push(s);
      console.log(`seed ${s} FAILED: ${r.failure}`);
      if (process.argv.includes('--until-found')) {
        console.log(`FOUND ${JSON.stringify({ seed: s, bug: arg('bug'), failure: r.failure })}`);
        break;
      }
    }
    if ((s - from + 1) % 100 === 0)
      console.log(
        `${s - from + 1}/${count} seeds, ${failing.length} failing, ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
  }
  const summary = { seeds: count, from, failing, simulatedSeconds: totals.simulatedMs / 1000, ...totals };
  console.log(`SUMMARY ${JSON.stringify(summary)}`);
  process.exitCode = failing.length === 0 ? 0 : 1;
}

const seed = arg('seed');
if (seed !== undefined) await one(Number(seed));
else await many(Number(arg('seeds') ?? 100), Number(arg('from') ?? 0));
