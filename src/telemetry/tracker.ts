// What this node observes of block propagation (app-families.md §6 "propagation"): for the newest block,
// the creation time its proposer wrote in the header and the moment this node committed it. Nothing is
// estimated: a block committed before this node started has no commit time of this run, and peers'
// sightings are not carried by the p2p layer, so `peers_reported` counts none.

import type { TelemetryPort } from './port.js';
import type { Propagation } from './views.js';

interface Sighting {
  height: number;
  createdAtMs: number | undefined;
  /** When this node committed it, in this run. */
  committedAtMs: number | undefined;
}

export class PropagationTracker {
  private latest: Sighting = { height: 0, createdAtMs: undefined, committedAtMs: undefined };
  /** Header reads run one after the other, so sightings land in commit order. */
  private pending: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly port: TelemetryPort,
    private readonly onError: (e: unknown) => void,
  ) {}

  /** Follows commits from now on, and reads the block already at the tip. */
  start(): void {
    if (this.unsubscribe !== undefined) return;
    this.unsubscribe = this.port.onBlockCommitted((h) => this.record(h, this.port.nowMs()));
    const tip = this.port.height();
    if (tip > 0 && this.latest.height < tip) this.record(tip, undefined);
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** Resolves once every commit seen so far is reflected in `propagation()`. */
  settled(): Promise<void> {
    return this.pending;
  }

  private record(height: number, committedAtMs: number | undefined): void {
    this.pending = this.pending
      .then(async () => {
        const createdAtMs = await this.port.blockCreatedAtMs(height);
        if (height < this.latest.height) return;
        if (height === this.latest.height && committedAtMs === undefined) return;
        this.latest = { height, createdAtMs, committedAtMs };
      })
      .catch(this.onError);
  }

  propagation(): Propagation {
    const { height, createdAtMs, committedAtMs } = this.latest;
    const spread =
      createdAtMs === undefined || committedAtMs === undefined ? undefined : committedAtMs - createdAtMs;
    return {
      block: height,
      ...(createdAtMs === undefined ? {} : { firstSeenAtMs: createdAtMs }),
      ...(committedAtMs === undefined ? {} : { lastSeenAtMs: committedAtMs }),
      ...(spread === undefined ? {} : { spreadMs: spread }),
      peersReported: 0,
      reports:
        committedAtMs === undefined
          ? []
          : [{ peerId: this.port.self().peerId, committedAtMs: committedAtMs }],
    };
  }
}
