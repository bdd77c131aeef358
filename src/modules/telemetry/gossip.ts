// Peer reports in both directions (docs/telemetry.md "Peer reports"): every `intervalMs` this node sends
// its connected peers one report (report-codec.ts) of its gateway URL, height, queue depth, version and
// the local time it committed each of its last REPORT_BLOCKS_MAX blocks; what its peers send goes to
// the PeerReports store. An interval of 0 switches both off (telemetry.gossip_interval_ms).

import type { PeerReports, ReceiveOutcome } from './peer-reports.js';
import type { TelemetryPort } from './port.js';
import { encodeReport, REPORT_BLOCKS_MAX, type TelemetryReport } from './report-codec.js';

type ReportBlock = TelemetryReport['blocks'][number];

export interface GossipCounters {
  sent: number;
  received: Partial<Record<ReceiveOutcome, number>>;
}

export class TelemetryGossip {
  /** This node's most recent commits in this run, oldest first. */
  private readonly recent: ReportBlock[] = [];
  private readonly stops: (() => void)[] = [];
  readonly counters: GossipCounters = { sent: 0, received: {} };

  constructor(
    private readonly port: TelemetryPort,
    private readonly store: PeerReports,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    if (this.intervalMs <= 0 || this.stops.length > 0) return;
    this.stops.push(
      this.port.onBlockCommitted((height, hash) => {
        this.recent.push({ height, hash, seenAtMs: Math.floor(this.port.nowMs()) });
        if (this.recent.length > REPORT_BLOCKS_MAX) this.recent.shift();
      }),
      this.port.onPeerMessage((from, bytes) => {
        const outcome = this.store.receive(from, bytes, this.port.nowMs());
        this.counters.received[outcome] = (this.counters.received[outcome] ?? 0) + 1;
      }),
    );
    const timer = setInterval(() => this.send(), this.intervalMs);
    timer.unref();
    this.stops.push(() => clearInterval(timer));
  }

  stop(): void {
    for (const s of this.stops.splice(0)) s();
  }

  /** This node's report as it would send it now. */
  report(): TelemetryReport {
    const self = this.port.self();
    return {
      sentAtMs: Math.floor(this.port.nowMs()),
      version: self.version,
      ...(self.reportedUrl === undefined ? {} : { gatewayUrl: self.reportedUrl }),
      role: self.role,
      consensus: self.consensus,
      height: this.port.height(),
      queueDepth: this.port.queueDepth(),
      connectedPeers: this.port.peers().filter((p) => p.connected).length,
      blocks: [...this.recent],
    };
  }

  /** Sends the report to every connected peer (one message, the same bytes to each). */
  send(): void {
    const bytes = encodeReport(this.report());
    // Only an out-of-limit field (a URL over 512 bytes, refused by the node at start) could make it too large.
    if (bytes === undefined) return;
    this.port.broadcast(bytes);
    this.counters.sent++;
  }
}
