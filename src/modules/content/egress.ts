// Egress limits of the content routes (docs/content.md "Egress limits"): bytes served per fixed window,
// for the whole node and for each client (the signing account, else the client's address). A download
// that would pass either budget is refused whole (429 with Retry-After: the seconds to the next window);
// nothing is counted for it. A 304 serves no bytes and counts nothing.

export interface EgressLimits {
  windowMs: number;
  nodeBytes: number;
  clientBytes: number;
}

export type EgressDecision =
  | { ok: true }
  | { ok: false; scope: 'node' | 'client'; retryAfterS: number; used: number; limit: number };

/** Clients remembered per window at most; past it the window's client budget is shared by newcomers. */
const CLIENTS_MAX = 100_000;

export class EgressLimiter {
  private window = -1;
  private nodeUsed = 0;
  private readonly clients = new Map<string, number>();

  constructor(
    private readonly limits: EgressLimits,
    private readonly now: () => number,
  ) {}

  /** Counts `bytes` for `client` when both budgets allow them, else refuses. */
  take(client: string, bytes: number): EgressDecision {
    const t = this.now();
    const w = Math.floor(t / this.limits.windowMs);
    if (w !== this.window) {
      this.window = w;
      this.nodeUsed = 0;
      this.clients.clear();
    }
    const retryAfterS = Math.max(1, Math.ceil(((w + 1) * this.limits.windowMs - t) / 1000));
    const key = this.clients.size >= CLIENTS_MAX && !this.clients.has(client) ? '' : client;
    const used = this.clients.get(key) ?? 0;
    if (this.nodeUsed + bytes > this.limits.nodeBytes)
      return { ok: false, scope: 'node', retryAfterS, used: this.nodeUsed, limit: this.limits.nodeBytes };
    if (used + bytes > this.limits.clientBytes)
      return { ok: false, scope: 'client', retryAfterS, used, limit: this.limits.clientBytes };
    this.nodeUsed += bytes;
    this.clients.set(key, used + bytes);
    return { ok: true };
  }
}
