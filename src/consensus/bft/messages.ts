// Peer messages on the wire (docs/consensus.md "The protocol", "Peers, gossip"): the protocol messages of the
// core plus what the driver exchanges itself (transaction gossip, tips, block sync). One enum, encoded with
// the project codec; every sequence and byte string is bounded so a hostile peer cannot make a decoder
// allocate more than the frame it sent.

import type { Infer } from '../../codec/codec.js';
import { enumOf, option, seq, struct } from '../../codec/compound.js';
import { decode, encode } from '../../codec/frame.js';
import type { DecodeLimits } from '../../codec/limits.js';
import { bytes, fixedBytes, varuint } from '../../codec/primitives.js';
import { CommitCertificateCodec } from '../../model/block.js';
import { HashBytes } from '../../model/keys.js';
import { BLOCKS_KEPT_MAX } from './height-state.js';
import { type BftMessage, invariant, type SafetyState, type VotePhase } from './types.js';

/** Blocks in one sync answer, and transactions in one gossip message. */
export const SYNC_BLOCKS_MAX = 256;
export const GOSSIP_TXS_MAX = 4096;
const BLOCK_BYTES_MAX = 16 * 1024 * 1024;

const PhaseCodec = enumOf('VotePhase', { Prepare: {}, Commit: {} });

export const PeerMessageCodec = enumOf('PeerMessage', {
  Proposal: {
    height: varuint,
    view: varuint,
    blockHash: HashBytes,
    block: bytes(BLOCK_BYTES_MAX),
    justify: option(CommitCertificateCodec),
  },
  Vote: {
    phase: PhaseCodec,
    height: varuint,
    view: varuint,
    blockHash: HashBytes,
    signature: fixedBytes(96),
  },
  QcMsg: { qc: CommitCertificateCodec },
  NewView: {
    height: varuint,
    view: varuint,
    highQc: option(CommitCertificateCodec),
    highBlock: option(bytes(BLOCK_BYTES_MAX)),
  },
  PayloadRequest: { height: varuint, blockHash: HashBytes },
  Payload: { height: varuint, blockHash: HashBytes, block: bytes(BLOCK_BYTES_MAX) },
  /** Signed transactions as admitted (canonical encodings). */
  Txs: { txs: seq(bytes(BLOCK_BYTES_MAX), GOSSIP_TXS_MAX) },
  /** The sender's committed height. */
  Tip: { height: varuint },
  SyncRequest: { from: varuint, max: varuint },
  /** Encoded committed blocks (with certificates), consecutive from the requested height. */
  SyncBlocks: { blocks: seq(bytes(BLOCK_BYTES_MAX), SYNC_BLOCKS_MAX) },
  /** Round-trip probe (the pacemaker's floor): the sender's monotonic ms, echoed back in a Pong. */
  Ping: { sentAtMs: varuint },
  Pong: { sentAtMs: varuint },
});
export type PeerMessage = Infer<typeof PeerMessageCodec>;

type Wire = PeerMessage;

function toWire(m: BftMessage): Wire {
  switch (m.kind) {
    case 'Vote':
      return {
        kind: 'Vote',
        phase: { kind: m.phase },
        height: m.height,
        view: m.view,
        blockHash: m.blockHash,
        signature: m.signature,
      };
    default:
      return m;
  }
}

/** A wire message as the core's input, or undefined for the driver's own kinds. */
export function toCoreMessage(w: Wire): BftMessage | undefined {
  switch (w.kind) {
    case 'Proposal':
      return {
        kind: 'Proposal',
        height: w.height,
        view: w.view,
        blockHash: w.blockHash,
        block: w.block,
        ...(w.justify === undefined ? {} : { justify: w.justify }),
      };
    case 'Vote':
      return {
        kind: 'Vote',
        phase: w.phase.kind as VotePhase,
        height: w.height,
        view: w.view,
        blockHash: w.blockHash,
        signature: w.signature,
      };
    case 'NewView':
      return {
        kind: 'NewView',
        height: w.height,
        view: w.view,
        ...(w.highQc === undefined ? {} : { highQc: w.highQc }),
        ...(w.highBlock === undefined ? {} : { highBlock: w.highBlock }),
      };
    case 'QcMsg':
    case 'PayloadRequest':
    case 'Payload':
      return w;
    default:
      return undefined;
  }
}

export function encodeCoreMessage(m: BftMessage): Uint8Array {
  // The core speaks only of heights after genesis (block 1 is agreed by the genesis file).
  const height = m.kind === 'QcMsg' ? m.qc.height : m.height;
  invariant(Number.isSafeInteger(height) && height >= 1, `a ${m.kind} message for height ${height}`);
  return encode(PeerMessageCodec, toWire(m), 512);
}

export function encodePeerMessage(m: PeerMessage): Uint8Array {
  return encode(PeerMessageCodec, m, 512);
}

export function decodePeerMessage(bytesIn: Uint8Array, limits: DecodeLimits): PeerMessage | undefined {
  const r = decode(PeerMessageCodec, bytesIn, limits);
  return r.ok ? r.value : undefined;
}

const VoteRecordCodec = struct('SafetyVote', { view: varuint, blockHash: HashBytes });

/** The safety state as the driver persists it (docs/consensus.md "Crash safety"). */
export const SafetyStateCodec = struct('SafetyState', {
  height: varuint,
  view: varuint,
  lockedQc: option(CommitCertificateCodec),
  prepareVote: option(VoteRecordCodec),
  commitVote: option(VoteRecordCodec),
  proposedView: option(varuint),
  blocks: seq(
    struct('SafetyBlock', { blockHash: HashBytes, block: bytes(BLOCK_BYTES_MAX) }),
    BLOCKS_KEPT_MAX,
  ),
});

export function encodeSafetyState(s: SafetyState): Uint8Array {
  // What the core persists fits its own decoder: a record that could not be read back is no safety.
  invariant(
    (s.blocks?.length ?? 0) <= BLOCKS_KEPT_MAX &&
      (s.lockedQc === undefined || s.lockedQc.height === s.height),
    `a safety record of height ${s.height} with ${s.blocks?.length ?? 0} blocks or a lock of another height`,
  );
  return encode(SafetyStateCodec, { ...s, blocks: s.blocks ?? [] }, 512);
}

export function decodeSafetyState(b: Uint8Array, limits: DecodeLimits): SafetyState | undefined {
  const r = decode(SafetyStateCodec, b, limits);
  if (!r.ok) return undefined;
  const v = r.value;
  return {
    height: v.height,
    view: v.view,
    ...(v.lockedQc === undefined ? {} : { lockedQc: v.lockedQc }),
    ...(v.prepareVote === undefined ? {} : { prepareVote: v.prepareVote }),
    ...(v.commitVote === undefined ? {} : { commitVote: v.commitVote }),
    ...(v.proposedView === undefined ? {} : { proposedView: v.proposedView }),
    ...(v.blocks.length === 0 ? {} : { blocks: v.blocks }),
  };
}
