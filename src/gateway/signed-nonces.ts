// The one replay store of signed app requests (signed-request.ts), shared by every family that takes them
// (docs/security.md "Signed app requests"). Nonces are kept per signing account: a nonce is remembered
// while its request could still pass the timestamp check (|now - stamp| <= the chain's clock drift), and
// each account holds at most `perAccountMax` of them. An account whose quota is full is refused (429
// request_nonces_full) until its own nonces age out; no account can evict or shadow another's nonces, so
// one signer's flood never makes another signer's request a replay. Nothing is forgotten while it could
// still be replayed, so there is no watermark. Memory: registered accounts × `perAccountMax` at most,
// and only accounts that signed within the window are held (a sweep per window drops the rest).

export type NonceOutcome = 'ok' | 'reused' | 'full';

export interface SignedNonceStore {
  /** Records `nonce` of `account` stamped `timestampMs`, unless seen before or the account's quota is full. */
  checkAndAdd(
    account: string,
    nonce: string,
    timestampMs: number,
    nowMs: number,
    windowMs: number,
  ): NonceOutcome;
  /** Nonces held in total (all accounts). */
  size(): number;
  /** Accounts holding at least one nonce. */
  accounts(): number;
}

export function createSignedNonceStore(perAccountMax: number): SignedNonceStore {
  const byAccount = new Map<string, Map<string, number>>(); // account -> nonce -> request timestamp
  let total = 0;
  let keepMs = 0; // the widest window used so far: a nonce is kept while any window seen could accept it
  let sweptAtMs = Number.NEGATIVE_INFINITY;

  /** Forgets the nonces of `seen` stamped before `oldestMs` (their requests are refused as stale). */
  function expire(seen: Map<string, number>, oldestMs: number): void {
    for (const [nonce, stamp] of seen)
      if (stamp < oldestMs) {
        seen.delete(nonce);
        total--;
      }
  }

  function sweep(nowMs: number): void {
    sweptAtMs = nowMs;
    for (const [account, seen] of byAccount) {
      expire(seen, nowMs - keepMs);
      if (seen.size === 0) byAccount.delete(account);
    }
  }

  return {
    size: () => total,
    accounts: () => byAccount.size,
    checkAndAdd(account, nonce, timestampMs, nowMs, windowMs) {
      keepMs = Math.max(keepMs, windowMs);
      if (nowMs - sweptAtMs > keepMs) sweep(nowMs);
      let seen = byAccount.get(account);
      if (seen === undefined) {
        seen = new Map();
        byAccount.set(account, seen);
      }
      if (seen.has(nonce)) return 'reused';
      if (seen.size >= perAccountMax) expire(seen, nowMs - keepMs);
      if (seen.size >= perAccountMax) return 'full';
      seen.set(nonce, timestampMs);
      total++;
      return 'ok';
    },
  };
}
