// Reconnect delays: exponential from `baseMs`, capped at `maxMs`, with "equal jitter" (half the
// delay fixed, half spread) so that peers that lost each other at the same moment do not redial in
// lockstep. The spread comes from a hash of (seed, peer id, attempt), not from Math.random: the
// same seed gives the same schedule, which tests rely on. The delay itself is util/backoff.ts.
import { blake2b256 } from '../crypto/hash.js';
import { equalJitterDelayMs } from '../util/backoff.js';

export interface BackoffPolicy {
  readonly baseMs: number;
  readonly maxMs: number;
  /** Any bytes; each node passes its own (its public key by default), so schedules differ by node. */
  readonly seed: Uint8Array;
}

/** A number in [0, 1) from the hash of (seed, peer id, attempt). */
export function jitterFraction(seed: Uint8Array, peerId: string, attempt: number): number {
  const id = new TextEncoder().encode(`${peerId}/${attempt}`);
  const input = new Uint8Array(seed.length + id.length);
  input.set(seed, 0);
  input.set(id, seed.length);
  const h = blake2b256(input);
  return ((h[0]! << 24) >>> 0) / 2 ** 32 + (h[1]! << 16) / 2 ** 48;
}

/** Delay before redial number `attempt` (0 = first retry after a loss) of `peerId`. */
export function reconnectDelayMs(p: BackoffPolicy, peerId: string, attempt: number): number {
  return equalJitterDelayMs(p.baseMs, p.maxMs, attempt, jitterFraction(p.seed, peerId, attempt));
}
