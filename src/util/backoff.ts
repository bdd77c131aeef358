// Retry delays: exponential from `baseMs`, capped at `maxMs`, with "equal jitter" (half the delay fixed,
// half spread by `fraction`), so that clients that failed at the same moment do not retry in lockstep.
// The caller supplies the spread: the p2p layer a hash of (seed, peer, attempt) so that schedules are
// reproducible (p2p/backoff.ts), the SDK a random number.

/** Attempts past this add nothing (2^20 × base is beyond any cap in use). */
const EXPONENT_MAX = 20;

/** Delay before retry number `attempt` (0 = the first retry); `fraction` in [0, 1) places it in [full/2, full]. */
export function equalJitterDelayMs(baseMs: number, maxMs: number, attempt: number, fraction: number): number {
  const exp = Math.min(Math.max(0, attempt), EXPONENT_MAX);
  const full = Math.min(maxMs, baseMs * 2 ** exp);
  const half = full / 2;
  return Math.round(half + half * fraction);
}
