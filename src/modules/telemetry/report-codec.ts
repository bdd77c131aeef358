// The telemetry report peers gossip to each other (docs/telemetry.md "Peer reports"): each node tells its
// peers, every telemetry.gossip_interval_ms, its gateway URL, height, queue depth, software version and
// the local time it committed each of its recent blocks. It travels as a MESSAGE on the p2p layer's
// authenticated, encrypted channel (p2p/README.md "Identity and handshake"), so the sender is the peer
// whose Noise static key the connection checked: the report carries no signature of its own.
//
//   message = "TRNT" | version u8 (1) | TelemetryReport (project codec, bare)
//
// The 4-byte magic cannot begin a consensus message (those start with their enum tag, a varuint below
// 0x54), so the node tells the two apart from the first bytes (node/bft.ts). A whole message is at most
// REPORT_BYTES_MAX bytes, refused from its length before anything is decoded; a report of another
// version is refused as such (a newer peer), never misread.

import type { Infer } from '../../codec/codec.js';
import { option, seq, struct } from '../../codec/compound.js';
import { decode, encode } from '../../codec/frame.js';
import type { DecodeLimits } from '../../codec/limits.js';
import { string, varuint } from '../../codec/primitives.js';
import { Hash } from '../../model/keys.js';

export const REPORT_MAGIC = new Uint8Array([0x54, 0x52, 0x4e, 0x54]); // "TRNT"
export const REPORT_VERSION = 1;
/** Largest message accepted or sent; a report at every field's limit takes under 2 KiB. */
export const REPORT_BYTES_MAX = 4096;
/** Recent blocks one report lists (the newest last). */
export const REPORT_BLOCKS_MAX = 16;
const HEADER_BYTES = REPORT_MAGIC.length + 1;
const LIMITS: DecodeLimits = { bytesMax: 512, itemsMax: REPORT_BLOCKS_MAX, depthMax: 4 };

/** One block as the reporting peer saw it: the local time (its clock) it committed the block. */
export const ReportBlockCodec = struct('TelemetryReportBlock', {
  height: varuint,
  hash: Hash,
  seenAtMs: varuint,
});

export const TelemetryReportCodec = struct('TelemetryReport', {
  /** The sender's wall clock when it sent the report. */
  sentAtMs: varuint,
  /** The sender's software version (`torana/<package version>`). */
  version: string(64),
  /** The sender's gateway URL (telemetry.gateway_url, else its listen address); absent if it has none. */
  gatewayUrl: option(string(512)),
  /** validator | observer */
  role: string(16),
  /** single-peer | bft */
  consensus: string(16),
  /** Its newest committed height. */
  height: varuint,
  /** Transactions waiting in its queue. */
  queueDepth: varuint,
  /** Peers it is connected to. */
  connectedPeers: varuint,
  /** Its most recent commits, oldest first (at most REPORT_BLOCKS_MAX). */
  blocks: seq(ReportBlockCodec, REPORT_BLOCKS_MAX),
});
export type TelemetryReport = Infer<typeof TelemetryReportCodec>;

export type ReportDecodeError = 'not_a_report' | 'too_large' | 'unsupported_version' | 'malformed';
export type ReportDecodeResult =
  | { ok: true; report: TelemetryReport }
  | { ok: false; error: ReportDecodeError; detail?: string };

/** Whether `bytes` claims to be a telemetry report (its magic), whatever the rest holds. */
export function isReportMessage(bytes: Uint8Array): boolean {
  if (bytes.length < REPORT_MAGIC.length) return false;
  for (let i = 0; i < REPORT_MAGIC.length; i++) if (bytes[i] !== REPORT_MAGIC[i]) return false;
  return true;
}

/** The message for `r`; a report over REPORT_BYTES_MAX (only from out-of-limit fields) is refused. */
export function encodeReport(r: TelemetryReport): Uint8Array | undefined {
  const body = encode(TelemetryReportCodec, r, 512);
  if (HEADER_BYTES + body.length > REPORT_BYTES_MAX) return undefined;
  const out = new Uint8Array(HEADER_BYTES + body.length);
  out.set(REPORT_MAGIC, 0);
  out[REPORT_MAGIC.length] = REPORT_VERSION;
  out.set(body, HEADER_BYTES);
  return out;
}

/** Decodes a message from a peer; never throws on any input. */
export function decodeReport(bytes: Uint8Array): ReportDecodeResult {
  if (!isReportMessage(bytes)) return { ok: false, error: 'not_a_report' };
  if (bytes.length > REPORT_BYTES_MAX)
    return { ok: false, error: 'too_large', detail: `${bytes.length} > ${REPORT_BYTES_MAX} bytes` };
  const version = bytes[REPORT_MAGIC.length];
  if (version !== REPORT_VERSION)
    return { ok: false, error: 'unsupported_version', detail: `version ${version ?? 'missing'}` };
  const r = decode(TelemetryReportCodec, bytes.subarray(HEADER_BYTES), LIMITS);
  if (!r.ok) return { ok: false, error: 'malformed', detail: `${r.error.code}: ${r.error.message}` };
  return { ok: true, report: r.value };
}
