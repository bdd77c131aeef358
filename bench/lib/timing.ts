// Timed loops for the micro figures. Machines here are 2 cores and noisy, so contenders run
// in alternating short rounds after a warm-up, and each one's median round counts: a burst of noise
// then hurts every contender alike instead of whichever happened to run at that moment.

export interface Contender {
  name: string;
  /** One operation; its result is kept so the JIT cannot drop the work. */
  op(): unknown;
}

/** Operations per second of `op` over about `ms` milliseconds (at least one call). */
export function opsPerSecond(op: () => unknown, ms: number): number {
  let n = 0;
  let sink: unknown;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < ms || n === 0) {
    sink = op();
    n++;
    if ((n & 7) === 0 || n < 8) t = performance.now();
  }
  t = performance.now();
  if (sink === Symbol.for('never')) console.log(sink);
  return (n * 1000) / (t - t0);
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The p-th percentile (0..100) by nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const rank = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[rank]!;
}

/** Median ops/s of each contender over `rounds` alternating rounds of `roundMs`, after a warm-up. */
export function compare(
  contenders: readonly Contender[],
  opts: { warmupMs: number; roundMs: number; rounds: number },
): Map<string, number> {
  for (const c of contenders) opsPerSecond(() => c.op(), opts.warmupMs);
  const samples = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  for (let r = 0; r < opts.rounds; r++) {
    // Alternate the order too, so no contender always runs right after the same one.
    const order = r % 2 === 0 ? contenders : [...contenders].reverse();
    for (const c of order) samples.get(c.name)!.push(opsPerSecond(() => c.op(), opts.roundMs));
  }
  return new Map([...samples].map(([name, s]) => [name, median(s)]));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
