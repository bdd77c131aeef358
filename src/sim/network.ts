// The simulated network: one BftTransport per node, every message delivered through the SimClock after
// a delay (base + jitter, so messages reorder), lost with the seed's loss rate, sometimes duplicated,
// and dropped across partitions (checked when sent and when delivered). A node that is down receives
// nothing; `connect` tells both sides of a restored link, as the peer layer would.

import type { BftTransport } from '../consensus/bft/ports.js';
import type { SimClock } from './clock.js';
import type { Prng } from './prng.js';

export interface NetworkFaults {
  lossP: number;
  dupP: number;
  baseMs: number;
  jitterMs: number;
}

export type Handler = (from: string, bytes: Uint8Array) => void;

export class SimNetwork {
  private readonly handlers = new Map<string, Handler>();
  /** Partition id per node (nodes in different parts cannot talk); absent means part 0. */
  private readonly part = new Map<string, number>();
  readonly stats = { sent: 0, delivered: 0, lost: 0, duplicated: 0, cut: 0 };
  /** A rolling digest of every delivery (time, from, to, size), for the determinism check. */
  digest = 0;
  onDeliver: ((from: string, to: string, bytes: number) => void) | undefined;
  /** An adversary on the wire (the planted-bug hunt): true drops the message. */
  adversary: ((from: string, to: string, bytes: Uint8Array) => boolean) | undefined;

  constructor(
    private readonly clock: SimClock,
    private readonly prng: Prng,
    readonly peers: readonly string[],
    public faults: NetworkFaults,
  ) {}

  attach(peer: string, h: Handler): void {
    this.handlers.set(peer, h);
  }

  detach(peer: string): void {
    this.handlers.delete(peer);
  }

  isUp(peer: string): boolean {
    return this.handlers.has(peer);
  }

  linked(a: string, b: string): boolean {
    return (this.part.get(a) ?? 0) === (this.part.get(b) ?? 0);
  }

  /** Cuts `group` from everyone else. */
  partition(group: readonly string[]): void {
    for (const p of this.peers) this.part.set(p, group.includes(p) ? 1 : 0);
  }

  heal(): void {
    this.part.clear();
  }

  transportFor(self: string, onGarbage: (peer: string) => void = () => {}): BftTransport {
    return {
      send: (to, bytes) => this.send(self, to, bytes),
      broadcast: (bytes) => {
        for (const p of this.peers) if (p !== self) this.send(self, p, bytes);
      },
      reportGarbage: onGarbage,
    };
  }

  send(from: string, to: string, bytes: Uint8Array): void {
    this.stats.sent++;
    if (!this.linked(from, to)) {
      this.stats.cut++;
      return;
    }
    if (this.adversary?.(from, to, bytes) === true) {
      this.stats.cut++;
      return;
    }
    if (this.prng.chance(this.faults.lossP)) {
      this.stats.lost++;
      return;
    }
    this.schedule(from, to, bytes);
    if (this.prng.chance(this.faults.dupP)) {
      this.stats.duplicated++;
      this.schedule(from, to, bytes);
    }
  }

  private schedule(from: string, to: string, bytes: Uint8Array): void {
    const delay = this.faults.baseMs + this.prng.int(0, this.faults.jitterMs);
    this.clock.setTimeout(() => {
      const h = this.handlers.get(to);
      if (h === undefined || !this.handlers.has(from) || !this.linked(from, to)) {
        this.stats.cut++;
        return;
      }
      this.stats.delivered++;
      this.digest = (Math.imul(this.digest ^ this.clock.elapsedMs, 31) + bytes.length * 7 + from.length) | 0;
      this.onDeliver?.(from, to, bytes.length);
      h(from, bytes);
    }, delay);
  }
}
