// What this node observes of block propagation: for the newest block,
// the creation time its proposer wrote in the header, the moment this node committed it, and the moments
// its peers say they committed it (their reports, peer-reports.ts). Nothing is estimated: a block
// committed before this node started has no commit time of this run, and a peer whose fresh reports do
// not list the block (same height and hash) is not counted. Peers' times are their own clocks, taken as
// they are (docs/telemetry.md "Clocks").

import type { PeerSighting } from './peer-reports.js';
import type { TelemetryPort } from './port.js';
import type { Propagation } from './views.js';

interface Sighting {
  height: number;
  /** Hex; '' until the header is read. */
  hash: string;
  createdAtMs: number | undefined;
  /** When this node committed it, in this run. */
  committedAtMs: number | undefined;
}

/** Peers' sightings of a block (PeerReports.sightings); none without peer reports. */
export type SightingsOf = (height: number, hash: string, nowMs: number) => PeerSighting[];

export class PropagationTracker {
  private latest: Sighting = { height: 0, hash: '', createdAtMs: undefined, committedAtMs: undefined };
  /** The newest commit not yet read; a burst of commits costs one header read, not one per block. */
  private wanted: { height: number; committedAtMs: number | undefined } | undefined;
  private reading: Promise<void> | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly port: TelemetryPort,
    private readonly onError: (e: unknown) => void,
    private readonly peerSightings: SightingsOf = () => [],
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
  async settled(): Promise<void> {
    while (this.reading !== undefined) await this.reading;
  }

  private record(height: number, committedAtMs: number | undefined): void {
    const w = this.wanted;
    if (w === undefined || height > w.height || (height === w.height && committedAtMs !== undefined))
      this.wanted = { height, committedAtMs };
    this.kick();
  }

  /** One header read at a time, always of the newest commit waiting (intermediate ones are skipped). */
  private kick(): void {
    if (this.reading !== undefined) return;
    this.reading = this.drain().finally(() => {
      this.reading = undefined;
      if (this.wanted !== undefined) this.kick();
    });
  }

  private async drain(): Promise<void> {
    for (let w = this.wanted; w !== undefined; w = this.wanted) {
      this.wanted = undefined;
      try {
        const block = await this.port.blockAt(w.height);
        const newer = w.height > this.latest.height;
        if (newer || (w.height === this.latest.height && w.committedAtMs !== undefined))
          this.latest = {
            height: w.height,
            hash: block?.hash ?? '',
            createdAtMs: block?.createdAtMs,
            committedAtMs: w.committedAtMs,
          };
      } catch (e) {
        this.onError(e);
      }
    }
  }

  /** The newest block: its header time, then this node's commit and each peer's, as reported. */
  propagation(): Propagation {
    const { height, hash, createdAtMs, committedAtMs } = this.latest;
    const peers = hash === '' ? [] : this.peerSightings(height, hash, this.port.nowMs());
    const reports: Propagation['reports'] = [
      ...(committedAtMs === undefined ? [] : [{ peerId: this.port.self().peerId, committedAtMs }]),
      ...peers.map((p) => ({ peerId: p.peerId, committedAtMs: p.seenAtMs, reportAgeMs: p.reportAgeMs })),
    ];
    const last = reports.length === 0 ? undefined : Math.max(...reports.map((r) => r.committedAtMs));
    const spread = createdAtMs === undefined || last === undefined ? undefined : last - createdAtMs;
    return {
      block: height,
      ...(hash === '' ? {} : { hash }),
      ...(createdAtMs === undefined ? {} : { firstSeenAtMs: createdAtMs }),
      ...(last === undefined ? {} : { lastSeenAtMs: last }),
      ...(spread === undefined ? {} : { spreadMs: spread }),
      peersReported: peers.length,
      reports,
    };
  }
}
