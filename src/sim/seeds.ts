// Runs a range of seeds in this process and sums what they did (the seed tests and the reliability run).

import { type RunOptions, runSeed } from './run.js';

export interface SeedsSummary {
  seeds: number;
  failing: { seed: number; failure: string }[];
  simulatedMs: number;
  messages: number;
  events: number;
  faults: Record<string, number>;
}

export async function runSeeds(from: number, count: number, o: RunOptions): Promise<SeedsSummary> {
  const s: SeedsSummary = { seeds: count, failing: [], simulatedMs: 0, messages: 0, events: 0, faults: {} };
  for (let seed = from; seed < from + count; seed++) {
    const r = await runSeed(seed, { ...o, traceMax: 0 });
    s.simulatedMs += r.stats.simulatedMs;
    s.messages += r.stats.messages;
    s.events += r.stats.events;
    for (const [k, v] of Object.entries(r.stats.faults)) s.faults[k] = (s.faults[k] ?? 0) + v;
    if (!r.ok) s.failing.push({ seed, failure: r.failure ?? '' });
  }
  return s;
}
