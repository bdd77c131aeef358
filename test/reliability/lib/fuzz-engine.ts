// The fuzz loop: fast-check drives a target's input arbitrary for a fixed wall-clock
// budget; every input is decoded once under a stopwatch and an allocation meter, then judged. The first
// failure is shrunk by fast-check and returned with its reason so the caller can keep it under
// regressions/. Inputs kept there are checked first by the same `checkInput`.

import { getHeapStatistics } from 'node:v8';
import fc from 'fast-check';
import {
  ALLOC_BYTES_PER_INPUT_BYTE,
  ALLOC_SLACK_BYTES,
  type AnyTarget,
  INPUT_MS_MAX,
  SLOW_RETRIES,
} from './fuzz-target.js';

export interface FuzzStats {
  tried: number;
  accepted: number;
  /** Rejections by typed code. */
  codes: Map<string, number>;
  slowestMs: number;
  largestAllocBytes: number;
}

export function emptyStats(): FuzzStats {
  return { tried: 0, accepted: 0, codes: new Map(), slowestMs: 0, largestAllocBytes: 0 };
}

/** JS heap plus ArrayBuffer memory: what a decoder can allocate. */
function allocated(): number {
  const h = getHeapStatistics();
  return h.used_heap_size + h.external_memory;
}

function timedDecode(
  t: AnyTarget,
  input: unknown,
): { result?: unknown; threw?: unknown; ms: number; alloc: number } {
  const before = allocated();
  const started = performance.now();
  try {
    const result = t.decode(input);
    return { result, ms: performance.now() - started, alloc: allocated() - before };
  } catch (e) {
    return { threw: e, ms: performance.now() - started, alloc: allocated() - before };
  }
}

/** Why `input` breaks the pass criteria, or undefined. Updates `stats`. */
export function checkInput(t: AnyTarget, input: unknown, stats: FuzzStats): string | undefined {
  stats.tried++;
  const run = timedDecode(t, input);
  if (run.threw !== undefined) return `threw ${String(run.threw).slice(0, 300)}`;
  const allocMax = ALLOC_SLACK_BYTES + ALLOC_BYTES_PER_INPUT_BYTE * t.size(input);
  // An input over a bound is measured again: a GC pause or the heap accounting of the test process is not
  // the decoder. A real over-run repeats (decoding is deterministic); the best of the runs counts.
  let ms = run.ms;
  let alloc = run.alloc;
  for (let i = 0; i < SLOW_RETRIES && (ms > INPUT_MS_MAX || alloc > allocMax); i++) {
    const again = timedDecode(t, input);
    ms = Math.min(ms, again.ms);
    alloc = Math.min(alloc, again.alloc);
  }
  stats.slowestMs = Math.max(stats.slowestMs, ms);
  stats.largestAllocBytes = Math.max(stats.largestAllocBytes, alloc);
  if (ms > INPUT_MS_MAX) return `took ${ms.toFixed(1)} ms (limit ${INPUT_MS_MAX} ms)`;
  if (alloc > allocMax) return `allocated ${alloc} bytes decoding ${t.size(input)} (bound ${allocMax})`;
  const o = t.judge(input, run.result);
  if (o.problem !== undefined) return o.problem;
  if (o.accepted) {
    stats.accepted++;
    return undefined;
  }
  if (o.code === undefined || !t.codes.has(o.code)) return `rejected with an undocumented code ${o.code}`;
  stats.codes.set(o.code, (stats.codes.get(o.code) ?? 0) + 1);
  return undefined;
}

export interface FuzzRun {
  stats: FuzzStats;
  seed: number;
  ms: number;
  failure?: { input: unknown; reason: string; counterexamplePath: string };
}

/** Fuzzes `t` for `budgetMs` from `seed`; stops at the first failure (shrunk). */
export function fuzzFor(t: AnyTarget, budgetMs: number, seed: number): FuzzRun {
  const stats = emptyStats();
  const started = Date.now();
  const property = fc.property(t.inputs, (input) => {
    const problem = checkInput(t, input, stats);
    if (problem !== undefined) throw new Error(problem);
  });
  const details = fc.check(property, {
    seed,
    numRuns: 2 ** 31 - 1,
    interruptAfterTimeLimit: budgetMs,
    markInterruptAsFailure: false,
  });
  const ms = Date.now() - started;
  if (!details.failed || details.counterexample === null) return { stats, seed, ms };
  const error = details.errorInstance;
  const reason = error instanceof Error ? error.message : String(error);
  return {
    stats,
    seed,
    ms,
    failure: {
      input: details.counterexample[0],
      reason,
      counterexamplePath: details.counterexamplePath ?? '',
    },
  };
}

export function formatStats(name: string, r: { stats: FuzzStats; ms: number }): string {
  const s = r.stats;
  const codes = [...s.codes.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([c, n]) => `${c} ${n}`)
    .join(', ');
  return (
    `[figure] ${name}: ${s.tried} inputs in ${(r.ms / 1000).toFixed(1)} s (${Math.round((s.tried * 1000) / Math.max(1, r.ms))}/s), ` +
    `${s.accepted} accepted, slowest ${s.slowestMs.toFixed(1)} ms, largest allocation ${(s.largestAllocBytes / 1024).toFixed(0)} KiB; ` +
    `rejections: ${codes || 'none'}`
  );
}
