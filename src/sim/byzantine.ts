// Byzantine peers, made by wrapping a node's transport (the core stays honest code): an equivocating
// leader sends its proposal to half the peers and a different, freshly built block (with no
// justification, i.e. ignoring any lock) to the other half, and votes for both; a double voter also
// votes for any other block proposed in the same view; a silent leader drops its proposals; a
// withholding collector never forwards the QCs it forms. They sign only with their own secret.

import { decode } from '../codec/frame.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { decodePeerMessage, encodeCoreMessage, toCoreMessage } from '../consensus/bft/messages.js';
import type { BftTransport } from '../consensus/bft/ports.js';
import type { BftMessage } from '../consensus/bft/types.js';
import { encodeProposedBlock, ProposedBlockCodec } from '../model/block.js';
import { transactionHash } from '../model/transaction.js';
import type { QueuedTransaction } from '../pipeline/queue.js';
import { toHex } from '../util/hex.js';
import type { SimFixtures } from './fixtures.js';
import type { SimNetwork } from './network.js';
import type { SimPeer } from './node.js';
import type { Prng } from './prng.js';

export type ByzantineKind =
  | 'equivocating-leader'
  | 'double-voter'
  | 'silent-leader'
  | 'withholding-collector';
export const BYZANTINE_KINDS: readonly ByzantineKind[] = [
  'equivocating-leader',
  'double-voter',
  'silent-leader',
  'withholding-collector',
];

type Proposal = Extract<BftMessage, { kind: 'Proposal' }>;

export class Byzantine {
  /** Block hashes proposed per "height/view", as seen or sent. */
  private readonly seen = new Map<string, Map<string, Uint8Array>>();
  acts = 0;
  /** The hunt's leader sends its fresh block to everyone, not to half. */
  allAlternative = false;

  constructor(
    readonly kind: ByzantineKind,
    private readonly self: string,
    private readonly net: SimNetwork,
    private readonly fx: SimFixtures,
    private readonly peer: () => SimPeer | undefined,
    private readonly prng: Prng,
  ) {}

  private core(bytes: Uint8Array): BftMessage | undefined {
    const m = decodePeerMessage(bytes, DEFAULT_DECODE_LIMITS);
    return m === undefined ? undefined : toCoreMessage(m);
  }

  private note(height: number, view: number, hash: Uint8Array): void {
    const k = `${height}/${view}`;
    let s = this.seen.get(k);
    if (s === undefined) {
      if (this.seen.size > 64) this.seen.clear();
      s = new Map();
      this.seen.set(k, s);
    }
    s.set(toHex(hash), hash);
  }

  /** Inbound bytes (to learn the proposals a double voter can vote for). */
  observe(bytes: Uint8Array): void {
    if (this.kind !== 'double-voter' && this.kind !== 'equivocating-leader') return;
    const m = this.core(bytes);
    if (m?.kind === 'Proposal') this.note(m.height, m.view, m.blockHash);
  }

  transport(): BftTransport {
    const inner = this.net.transportFor(this.self);
    const others = this.net.peers.filter((p) => p !== this.self);
    return {
      reportGarbage: inner.reportGarbage,
      send: (to, bytes) => {
        for (const b of this.rewrite(bytes, to)) inner.send(to, b);
      },
      broadcast: (bytes) => {
        for (const to of others) for (const b of this.rewrite(bytes, to)) inner.send(to, b);
      },
    };
  }

  /** What actually goes to `to` instead of `bytes`. */
  private rewrite(bytes: Uint8Array, to: string): Uint8Array[] {
    const m = this.core(bytes);
    if (m === undefined) return [bytes];
    if (m.kind === 'Proposal') return this.proposal(m, bytes, to);
    if (m.kind === 'QcMsg' && this.kind === 'withholding-collector') {
      this.acts++;
      return [];
    }
    if (m.kind === 'Vote' && (this.kind === 'double-voter' || this.kind === 'equivocating-leader'))
      return [bytes, ...this.extraVotes(m)];
    return [bytes];
  }

  private proposal(m: Proposal, bytes: Uint8Array, to: string): Uint8Array[] {
    if (this.kind === 'silent-leader') {
      this.acts++;
      return [];
    }
    this.note(m.height, m.view, m.blockHash);
    if (this.kind !== 'equivocating-leader') return [bytes];
    const others = this.net.peers.filter((p) => p !== this.self);
    if (!this.allAlternative && others.indexOf(to) < Math.ceil(others.length / 2)) return [bytes];
    const alt = this.alternative(m);
    if (alt === undefined) return [bytes];
    this.acts++;
    this.note(m.height, m.view, alt.blockHash);
    return [encodeCoreMessage(alt)];
  }

  /** The same transactions re-executed one millisecond later: another valid block, with no justify. */
  private alternative(m: Proposal): Proposal | undefined {
    const p = this.peer();
    const d = decode(ProposedBlockCodec, m.block, DEFAULT_DECODE_LIMITS);
    if (p === undefined || !d.ok || p.ledger.height() + 1 !== m.height) return undefined;
    const txs: QueuedTransaction[] = d.value.transactions.map((tx) => {
      const hash = transactionHash(tx);
      return { tx, hash, hashHex: toHex(hash), encodedBytes: 0, admittedAtMs: 0, expiresAtMs: Infinity };
    });
    const shift = 1 + this.prng.int(0, 1000);
    const executed = p.pipeline.execute(m.view, d.value.header.creationTimeMs + shift, txs);
    const block = encodeProposedBlock(executed, executed.encodedTransactions);
    return { kind: 'Proposal', height: m.height, view: m.view, blockHash: executed.hash, block };
  }

  private extraVotes(m: Extract<BftMessage, { kind: 'Vote' }>): Uint8Array[] {
    const p = this.peer();
    const blocks = this.seen.get(`${m.height}/${m.view}`);
    if (p === undefined || blocks === undefined) return [];
    const out: Uint8Array[] = [];
    for (const [hex, blockHash] of blocks) {
      if (hex === toHex(m.blockHash)) continue;
      const subject = {
        phase: m.phase,
        height: m.height,
        view: m.view,
        blockHash,
        validatorSetHash: this.fx.roster.hash,
      };
      this.acts++;
      out.push(encodeCoreMessage({ ...m, blockHash, signature: p.crypto.signAs(this.self, subject) }));
    }
    return out;
  }
}
