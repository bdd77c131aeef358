// Reproducible test bytes: a seeded xorshift32 stream, so a failing input can be replayed from its seed.

/** `n` bytes of the xorshift32 stream started from `seed` (made odd, so that 0 is a seed too). */
export function seededBytes(seed: number, n: number): Uint8Array {
  let x = seed | 1;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}
