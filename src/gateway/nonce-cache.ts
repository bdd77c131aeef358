// Replay protection for operator requests with bounded memory. A nonce is remembered while its request
// could still pass the timestamp window. When the cache is full the oldest entry is forgotten; if that
// entry could still be replayed, its timestamp raises a watermark and every request stamped at or
// before the watermark is refused as a possible replay. Honest operators (fresh timestamps) never hit
// the watermark unless someone floods the cache with valid signed requests, and no replay ever passes.

export interface NonceCache {
  /** False when `nonce` was seen before, or might have been (at or below the watermark). */
  checkAndAdd(nonce: string, timestampMs: number, nowMs: number): boolean;
  size(): number;
}

/**
 * `floorMs`: requests stamped at or before it are refused from the start (a restarted node's record of the
 * newest timestamp it accepted before the restart; operator-auth.ts).
 */
export function createNonceCache(
  capacity: number,
  maxAgeMs: number,
  floorMs = Number.NEGATIVE_INFINITY,
): NonceCache {
  const seen = new Map<string, number>(); // nonce -> request timestamp, oldest insertion first
  let watermarkMs = floorMs;
  return {
    size: () => seen.size,
    checkAndAdd(nonce, timestampMs, nowMs) {
      if (seen.has(nonce) || timestampMs <= watermarkMs) return false;
      seen.set(nonce, timestampMs);
      while (seen.size > capacity) {
        const oldest = seen.entries().next();
        if (oldest.done) break;
        const [key, stamp] = oldest.value;
        seen.delete(key);
        // Still inside the window (the check is |now - stamp| <= maxAgeMs): it could be replayed.
        if (stamp >= nowMs - maxAgeMs) watermarkMs = Math.max(watermarkMs, stamp);
      }
      return true;
    },
  };
}
