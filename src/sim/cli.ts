// `npm run sim -- --seed N [--n 4|7] [--observer] [--bug prepare-ignores-lock]` replays one seed and prints
// its trace; `npm run sim -- --seeds COUNT [--from S] [--n 4|7]` runs many and prints progress, the
// failing seeds and the totals.

import type { PlantedBug } from '../consensus/bft/types.js';
import { type RunOptions, runSeed } from './run.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function options(): RunOptions {
  const n = Number(arg('n') ?? 4) === 7 ? 7 : 4;
  const bug = arg('bug') as PlantedBug | undefined;
  return {
    n,
    observer: process.argv.includes('--observer'),
    ...(bug === undefined ? {} : { plantedBug: bug, aggressive: true }),
  };
}

async function one(seed: number): Promise<void> {
  const r = await runSeed(seed, {
    ...options(),
    traceMax: 5_000,
    traceMessages: process.argv.includes('--messages'),
  });
  for (const line of r.trace) console.log(line);
  console.log(
    JSON.stringify({ seed, ok: r.ok, failure: r.failure, traceHash: r.traceHash, stats: r.stats }, null, 1),
  );
  process.exitCode = r.ok ? 0 : 1;
}

async function many(count: number, from: number): Promise<void> {
  const o = options();
  const totals = { simulatedMs: 0, messages: 0, events: 0, faults: {} as Record<string, number> };
  const failing: number[] = [];
  const t0 = performance.now();
  for (let s = from; s < from + count; s++) {
    const r = await runSeed(s, {
      ...o,
      ...(s % 2 === 1 && arg('n') === undefined ? { n: 7 } : {}),
      traceMax: 0,
    });
    totals.simulatedMs += r.stats.simulatedMs;
    totals.messages += r.stats.messages;
    totals.events += r.stats.events;
    for (const [k, v] of Object.entries(r.stats.faults)) totals.faults[k] = (totals.faults[k] ?? 0) + v;
    if (!r.ok) {
      failing.push(s);
      console.log(`seed ${s} FAILED: ${r.failure}`);
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
