// View timeouts (design step 5): base × multiplier^view, capped, never below the measured round trip ×
// its multiplier nor below the last decided round's duration × its multiplier (an overloaded network,
// whose rounds take longer than the base, keeps deciding in view 0 instead of timing out every height:
// docs/design/consensus.md "Overload"), with a jitter that is a pure function of (height, view, peer) — no random source, so
// the simulator replays it and peers still spread their timeouts apart.

import { invariant, type PacemakerOptions } from './types.js';

function mix(a: number, b: number, c: number): number {
  let x =
    (Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca6b) ^ Math.imul(c + 1, 0xc2b2ae35)) >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x ^= x >>> 15;
  return x >>> 0;
}

export interface Timeout {
  /** The timeout before jitter. */
  targetMs: number;
  jitterMs: number;
  /** The round-trip floor (measured round trip × its multiplier). */
  floorMs: number;
  /** The round floor: the last decided round's duration × its multiplier, capped at the longest timeout. */
  roundFloorMs: number;
  ms: number;
}

/**
 * The timeout of `view` (counted from 0 at each height) for peer `self` (roster index, or -1); `roundMs`:
 * how long the last round this peer saw decide took, from its view's start to its commit certificate
 * (0 before any).
 */
export function viewTimeout(
  o: PacemakerOptions,
  height: number,
  view: number,
  self: number,
  rttMs: number,
  roundMs = 0,
): Timeout {
  invariant(
    Number.isSafeInteger(view) && view >= 0 && Number.isSafeInteger(height) && height >= 0,
    `a timeout asked for height ${height} view ${view}`,
  );
  invariant(Number.isFinite(rttMs) && rttMs >= 0, `a timeout with a round trip of ${rttMs} ms`);
  invariant(Number.isFinite(roundMs) && roundMs >= 0, `a timeout after a round of ${roundMs} ms`);
  const grown = o.baseMs * (o.multiplierPermille / 1000) ** Math.min(view, 64);
  const floorMs = rttMs * o.rttFloorMultiplier;
  // Capped: a round that took very long (or a slow leader) cannot push every later timeout past the cap.
  const roundFloorMs = Math.min(o.maxMs, roundMs * o.roundFloorMultiplier);
  const targetMs = Math.max(floorMs, roundFloorMs, Math.min(o.maxMs, grown));
  const span = Math.floor((targetMs * o.jitterPermille) / 1000);
  const jitterMs = span === 0 ? 0 : mix(height, view, self) % (span + 1);
  // Never below the base (capped) or the round-trip floor; the jitter stays within its share.
  invariant(
    targetMs >= Math.min(o.baseMs, o.maxMs) &&
      targetMs >= floorMs &&
      targetMs >= roundFloorMs &&
      jitterMs <= span,
    `view ${view}: timeout ${targetMs} ms (+${jitterMs}) under its base ${o.baseMs} or floor ${floorMs}`,
  );
  return { targetMs, jitterMs, floorMs, roundFloorMs, ms: Math.round(targetMs + jitterMs) };
}
