// Retry delays, the one implementation: exponential from `baseMs`, capped at `maxMs`; with "equal
// jitter" (half the delay fixed, half spread by `fraction`), so that clients that failed at the same
// moment do not retry in lockstep. Pure functions: the caller supplies the spread, never this module —
// the p2p layer a hash of (seed, peer, attempt) so that schedules are reproducible (p2p/backoff.ts), a
// module's delivery worker its injected random source, the SDK a random number (sdk/wait.ts);
// the SDK's stream reconnects (sdk/sse.ts, sdk/blocks.ts) use the plain exponential delay.

/** Attempts past this add nothing (2^40 × base is beyond any cap a configuration can reach). */
export const BACKOFF_EXPONENT_MAX = 40;

/** Delay before retry number `attempt` (0 = the first retry): baseMs × 2^attempt, at most `maxMs`. */
export function exponentialDelayMs(baseMs: number, maxMs: number, attempt: number): number {
  const exp = Math.min(Math.max(0, attempt), BACKOFF_EXPONENT_MAX);
  return Math.min(maxMs, baseMs * 2 ** exp);
}

/** Delay before retry number `attempt` (0 = the first retry); `fraction` in [0, 1) places it in [full/2, full]. */
export function equalJitterDelayMs(baseMs: number, maxMs: number, attempt: number, fraction: number): number {
  const half = exponentialDelayMs(baseMs, maxMs, attempt) / 2;
  return Math.round(half + half * fraction);
}
