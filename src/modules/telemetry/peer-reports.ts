// The reports this node received from its peers (docs/telemetry.md "Peer reports"). Memory is bounded:
// only configured peers' reports are kept (the p2p layer authenticates each sender against
// network.peers), at most `reportsMax` per peer (the newest), and a report older than `staleMs` (by the
// time this node received it) is dropped and no longer counted. A peer sending closer together than
// `minGapMs` has the extra reports refused; refused and malformed reports are counted per peer, never
// thrown, and never cost the peer its connection (consensus shares it).

import { decodeReport, type ReportDecodeError, type TelemetryReport } from './report-codec.js';

export interface PeerReportsOptions {
  /** `telemetry.peer_reports_max`. */
  reportsMax: number;
  /** `telemetry.peer_report_stale_ms`. */
  staleMs: number;
  /** `telemetry.peer_report_min_gap_ms`. */
  minGapMs: number;
}

export interface ReceivedReport {
  report: TelemetryReport;
  /** This node's clock when the report arrived. */
  receivedAtMs: number;
}

/** One peer's sighting of a block, from its freshest report that lists the block. */
export interface PeerSighting {
  peerId: string;
  /** The peer's clock when it committed the block. */
  seenAtMs: number;
  /** How long ago (this node's clock) the report carrying it arrived. */
  reportAgeMs: number;
}

export type ReceiveOutcome =
  | 'accepted'
  | 'unknown_peer'
  | 'rate_limited'
  | Exclude<ReportDecodeError, 'not_a_report'>;

interface PeerEntry {
  /** Newest first. */
  reports: ReceivedReport[];
  refused: number;
}

export class PeerReports {
  private readonly byPeer = new Map<string, PeerEntry>();

  constructor(
    private readonly opts: PeerReportsOptions,
    /** Whether `peerId` is a configured peer (others are not kept). */
    private readonly known: (peerId: string) => boolean,
  ) {}

  /** Takes a telemetry message from `from` (already told apart from other p2p messages). */
  receive(from: string, bytes: Uint8Array, nowMs: number): ReceiveOutcome {
    if (!this.known(from)) return 'unknown_peer';
    const entry = this.entry(from);
    const newest = entry.reports[0];
    if (newest !== undefined && nowMs - newest.receivedAtMs < this.opts.minGapMs) {
      entry.refused++;
      return 'rate_limited';
    }
    const r = decodeReport(bytes);
    if (!r.ok) {
      entry.refused++;
      return r.error === 'not_a_report' ? 'malformed' : r.error;
    }
    entry.reports.unshift({ report: r.report, receivedAtMs: nowMs });
    this.trim(entry, nowMs);
    return 'accepted';
  }

  /** `peerId`'s fresh reports, newest first. */
  reports(peerId: string, nowMs: number): readonly ReceivedReport[] {
    const entry = this.byPeer.get(peerId);
    if (entry === undefined) return [];
    this.trim(entry, nowMs);
    return entry.reports;
  }

  /** Reports refused from `peerId` so far (malformed, oversize, other version, too frequent). */
  refused(peerId: string): number {
    return this.byPeer.get(peerId)?.refused ?? 0;
  }

  /** Each peer's sighting of the block `height` with `hash`, from its freshest report listing it. */
  sightings(height: number, hash: string, nowMs: number): PeerSighting[] {
    const out: PeerSighting[] = [];
    for (const [peerId, entry] of this.byPeer) {
      if (!this.known(peerId)) continue;
      this.trim(entry, nowMs);
      for (const { report, receivedAtMs } of entry.reports) {
        const b = report.blocks.find((x) => x.height === height && x.hash === hash);
        if (b === undefined) continue;
        out.push({
          peerId,
          seenAtMs: b.seenAtMs,
          reportAgeMs: Math.max(0, Math.floor(nowMs - receivedAtMs)),
        });
        break;
      }
    }
    return out.sort((a, b) => (a.peerId < b.peerId ? -1 : 1));
  }

  private entry(peerId: string): PeerEntry {
    let e = this.byPeer.get(peerId);
    if (e === undefined) {
      e = { reports: [], refused: 0 };
      this.byPeer.set(peerId, e);
    }
    return e;
  }

  /** Keeps the newest `reportsMax` reports that are not stale. */
  private trim(entry: PeerEntry, nowMs: number): void {
    const fresh = entry.reports.filter((r) => nowMs - r.receivedAtMs <= this.opts.staleMs);
    entry.reports = fresh.slice(0, this.opts.reportsMax);
  }
}
