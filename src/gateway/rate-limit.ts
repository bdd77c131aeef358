// Per-client token bucket (429 with Retry-After; docs/design/testing.md "Default limits"). Our own code: a
// bounded map of client keys with least-recently-seen eviction, so memory stays bounded whatever addresses
// arrive. An evicted client comes back with a full bucket; that only favours a client which was quiet long
// enough to be the least recently seen, which is acceptable.

/**
 * The key a client is counted under: IPv4 as is (IPv4-mapped IPv6 unwrapped), IPv6 by its /64 prefix,
 * because one subscriber usually holds a whole /64 and could otherwise rotate addresses to escape limits.
 */
export function clientKey(address: string | undefined): string {
  if (address === undefined || address === '') return 'unknown';
  const lower = address.toLowerCase();
  if (lower.startsWith('::ffff:') && lower.includes('.')) return lower.slice(7);
  if (!lower.includes(':')) return lower;
  const groups = expandIpv6(lower.split('%')[0] ?? lower);
  return groups === undefined ? lower : `${groups.slice(0, 4).join(':')}::/64`;
}

function expandIpv6(text: string): string[] | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] === '' ? [] : (halves[0] ?? '').split(':');
  const tail = halves.length === 2 && halves[1] !== '' ? (halves[1] ?? '').split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return undefined;
  const groups = [...head, ...new Array<string>(missing).fill('0'), ...tail];
  return groups.map((g) => g.replace(/^0+(?=.)/, ''));
}

export type RateDecision = { ok: true } | { ok: false; retryAfterS: number };

/** How many of `count` units the budget allowed (the first `granted`), and the wait before the next one. */
export interface RateGrant {
  granted: number;
  retryAfterS: number;
}

export interface RateLimiter {
  /** Takes `cost` tokens (default 1, one request) or none: all or nothing. */
  take(key: string, cost?: number): RateDecision;
  /** Takes as many of `count` tokens as the bucket holds, one per item (batched submission). */
  takeUpTo(key: string, count: number): RateGrant;
  /** Number of tracked clients (bounded by `trackedMax`). */
  size(): number;
}

export interface RateLimiterOptions {
  ratePerSecond: number;
  burst: number;
  trackedMax: number;
  now: () => number;
}

interface Bucket {
  tokens: number;
  atMs: number;
}

const ALLOWED: RateDecision = Object.freeze({ ok: true });

export function createRateLimiter(opts: RateLimiterOptions): RateLimiter {
  const buckets = new Map<string, Bucket>();
  // The most recently seen client: already last in the map's order, so it need not be moved again.
  let newestKey: string | undefined;
  /** The client's bucket, refilled to now and marked most recently seen. */
  const refill = (key: string): Bucket => {
    const now = opts.now();
    let bucket = buckets.get(key);
    if (bucket === undefined) {
      bucket = { tokens: opts.burst, atMs: now };
      buckets.set(key, bucket);
    } else {
      if (key !== newestKey) {
        buckets.delete(key); // re-inserted: the map's order is least recently seen first
        buckets.set(key, bucket);
      }
      const elapsedMs = Math.max(0, now - bucket.atMs);
      bucket.tokens = Math.min(opts.burst, bucket.tokens + (elapsedMs * opts.ratePerSecond) / 1000);
      bucket.atMs = now;
    }
    newestKey = key;
    if (buckets.size > opts.trackedMax) {
      const oldest = buckets.keys().next();
      if (!oldest.done) buckets.delete(oldest.value);
    }
    return bucket;
  };
  // RFC 9110 §10.2.3: Retry-After in whole seconds; round up so a client that waits is served.
  const waitS = (bucket: Bucket, cost: number) =>
    Math.max(1, Math.ceil((cost - bucket.tokens) / opts.ratePerSecond));
  return {
    size: () => buckets.size,
    take(key, cost = 1) {
      if (opts.ratePerSecond === 0) return ALLOWED;
      const bucket = refill(key);
      if (bucket.tokens >= cost) {
        bucket.tokens -= cost;
        return ALLOWED;
      }
      // A cost above the burst can never be paid whole: the wait names the time to a full bucket.
      return { ok: false, retryAfterS: waitS(bucket, Math.min(cost, opts.burst)) };
    },
    takeUpTo(key, count) {
      if (opts.ratePerSecond === 0 || count <= 0) return { granted: Math.max(0, count), retryAfterS: 0 };
      const bucket = refill(key);
      const granted = Math.min(count, Math.floor(bucket.tokens));
      bucket.tokens -= granted;
      return { granted, retryAfterS: granted === count ? 0 : waitS(bucket, 1) };
    },
  };
}
