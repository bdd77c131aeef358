// The time routes: this node's clock against its peers' (node/time-sync.ts measures, NTP-style, over the
// peer channel). `now` is this node's clock corrected by the median peer offset; in fallback (fewer
// samples than the minimum, or no peer) it is this node's own clock with offset 0.

import type { Infer } from '../../codec/codec.js';
import type { TimeReport } from '../ports.js';
import type { TimeNowView, TimeStatusView } from '../views/common.js';

type Health = Infer<typeof TimeNowView>['health'];

/**
 * Healthy when the samples are enough (or there is no peer to compare with), and both the offset and
 * its error bound are within the chain's `max_clock_drift_ms` (the drift admission tolerates).
 */
export function timeHealth(r: TimeReport, maxDriftMs: number): Health {
  const minSamplesOk = !r.fallback || r.peers === 0;
  const offsetOk = Math.abs(r.offsetMs) <= maxDriftMs;
  const confidenceOk = r.confidenceMs <= maxDriftMs;
  return { healthy: minSamplesOk && offsetOk && confidenceOk, minSamplesOk, offsetOk, confidenceOk };
}

export function timeNowOf(r: TimeReport, localNowMs: number, maxDriftMs: number): Infer<typeof TimeNowView> {
  return {
    now: Math.max(0, Math.round(localNowMs + r.offsetMs)),
    offsetMs: r.offsetMs,
    confidenceMs: r.confidenceMs,
    sampleCount: r.samples,
    peerCount: r.peers,
    fallback: r.fallback,
    health: timeHealth(r, maxDriftMs),
  };
}

export function timeStatusOf(r: TimeReport, maxDriftMs: number): Infer<typeof TimeStatusView> {
  return {
    peers: r.peers,
    samplesUsed: r.fallback ? 0 : r.samples,
    offsetMs: r.offsetMs,
    confidenceMs: r.confidenceMs,
    fallback: r.fallback,
    health: timeHealth(r, maxDriftMs),
    samples: r.perPeer.map((p) => ({ ...p })),
    rttHistogram: r.rttHistogram.map((b) => ({ ...b })),
  };
}
