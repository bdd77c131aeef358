// Byzantine peers, made by wrapping a node's transport (the core stays honest code): an equivocating
// leader sends its proposal to half the peers and a different, freshly built block (with no
// justification, i.e. ignoring any lock) to the other half, and votes for both; a double voter also
// votes for any other block proposed in the same view; a silent leader drops its proposals; a
// withholding collector never forwards the QCs it forms. The hunt adds: a selective withholder keeps
// some of its votes back (one phase, or from some collectors) and, when it leads, equivocates; a
// stale-justify leader keeps the QCs it forms or holds to itself (its QC messages, its NEW_VIEWs' highest
// QC) and its Commit votes, and, when it leads, re-proposes the block of the
// oldest Prepare QC it knows that an honest lock has since moved past, with that stale QC as justify.
// Any of them may also send far-view copies (view + FAR_VIEW) of its votes and NEW_VIEWs (timeouts).
// They sign only with their own secret.

import { decode } from '../codec/frame.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { decodePeerMessage, encodeCoreMessage, toCoreMessage } from '../consensus/bft/messages.js';
import type { BftTransport } from '../consensus/bft/ports.js';
import type { BftMessage, Qc } from '../consensus/bft/types.js';
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
  | 'withholding-collector'
  | 'selective-withholder'
  | 'stale-justify-leader';
/** The kinds drawn by ordinary seeds (the hunt draws from HUNT_KINDS). */
export const BYZANTINE_KINDS: readonly ByzantineKind[] = [
  'equivocating-leader',
  'double-voter',
  'silent-leader',
  'withholding-collector',
];
export const HUNT_KINDS: readonly ByzantineKind[] = [
  'equivocating-leader',
  'selective-withholder',
  'stale-justify-leader',
  'double-voter',
  'withholding-collector',
];
/** How far ahead a far-view message is. */
export const FAR_VIEW = 1_000_000;

type Proposal = Extract<BftMessage, { kind: 'Proposal' }>;

export class Byzantine {
  /** Block hashes proposed per "height/view", as seen or sent. */
  private readonly seen = new Map<string, Map<string, Uint8Array>>();
  acts = 0;
  /** What it did, by action (reported in the run's fault counts). */
  readonly did: Record<string, number> = {};
  /** The hunt's leader sends its fresh block to everyone, not to half. */
  allAlternative = false;
  /** Also send copies of its votes and NEW_VIEWs at view + FAR_VIEW. */
  farView = false;
  /** The selective withholder: the phase it keeps back (or none), and the collectors it never votes to. */
  private withhold: { phase: 'Prepare' | 'Commit' | undefined; from: Set<string> } | undefined;
  /** The stale-justify leader: Prepare QCs and payloads seen, per height. */
  private readonly qcs = new Map<number, Map<number, Qc>>();
  private readonly blocks = new Map<string, Uint8Array>();

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
    if (this.kind === 'stale-justify-leader') {
      this.learn(this.core(bytes));
      return;
    }
    if (
      this.kind !== 'double-voter' &&
      this.kind !== 'equivocating-leader' &&
      this.kind !== 'selective-withholder'
    )
      return;
    const m = this.core(bytes);
    if (m?.kind === 'Proposal') this.note(m.height, m.view, m.blockHash);
  }

  /** The stale-justify leader remembers every Prepare QC and payload it sees. */
  private learn(m: BftMessage | undefined): void {
    if (m === undefined) return;
    const qc = (q: Qc | undefined) => {
      if (q === undefined || q.phase.kind !== 'Prepare') return;
      let at = this.qcs.get(q.height);
      if (at === undefined) {
        if (this.qcs.size > 8) this.qcs.delete(Math.min(...this.qcs.keys()));
        at = new Map();
        this.qcs.set(q.height, at);
      }
      if (!at.has(q.view)) at.set(q.view, q);
    };
    const block = (hash: Uint8Array, b: Uint8Array | undefined) => {
      if (b === undefined) return;
      if (this.blocks.size > 256) this.blocks.clear();
      this.blocks.set(toHex(hash), b);
    };
    if (m.kind === 'Proposal') {
      block(m.blockHash, m.block);
      qc(m.justify);
    } else if (m.kind === 'QcMsg') qc(m.qc);
    else if (m.kind === 'NewView') {
      qc(m.highQc);
      if (m.highQc !== undefined) block(m.highQc.blockHash, m.highBlock);
    } else if (m.kind === 'Payload') block(m.blockHash, m.block);
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
    const far = this.farView ? this.farCopy(m) : [];
    if (m.kind === 'Proposal') return this.proposal(m, bytes, to);
    if (m.kind === 'QcMsg' && this.kind === 'stale-justify-leader') {
      this.learn(m);
      this.act('withheld_qc');
      return far;
    }
    if (m.kind === 'NewView' && this.kind === 'stale-justify-leader' && m.highQc !== undefined) {
      // Its QCs stay its own: the next leader must not learn them from its NEW_VIEW either.
      this.act('withheld_high_qc');
      return [encodeCoreMessage({ kind: 'NewView', height: m.height, view: m.view }), ...far];
    }
    if (m.kind === 'QcMsg' && this.kind === 'withholding-collector') {
      this.act('withheld_qc');
      return [];
    }
    if (
      m.kind === 'Vote' &&
      ((this.kind === 'selective-withholder' && this.withholds(m.phase, to)) ||
        (this.kind === 'stale-justify-leader' && m.phase === 'Commit'))
    ) {
      this.act('withheld_vote');
      return far;
    }
    if (
      m.kind === 'Vote' &&
      (this.kind === 'double-voter' ||
        this.kind === 'equivocating-leader' ||
        this.kind === 'selective-withholder')
    )
      return [bytes, ...this.extraVotes(m), ...far];
    return [bytes, ...far];
  }

  private act(what: string): void {
    this.acts++;
    this.did[what] = (this.did[what] ?? 0) + 1;
  }

  private withholds(phase: 'Prepare' | 'Commit', to: string): boolean {
    if (this.withhold === undefined) {
      const others = this.net.peers.filter((p) => p !== this.self);
      this.withhold = {
        phase: this.prng.pick([undefined, 'Prepare', 'Commit'] as const),
        from: new Set(others.filter(() => this.prng.chance(0.5))),
      };
    }
    return this.withhold.phase === phase || this.withhold.from.has(to);
  }

  /** A vote or NEW_VIEW again at view + FAR_VIEW (signed as itself): a bounded core must shrug it off. */
  private farCopy(m: BftMessage): Uint8Array[] {
    if (m.kind === 'NewView') {
      this.act('far_view');
      return [encodeCoreMessage({ kind: 'NewView', height: m.height, view: m.view + FAR_VIEW })];
    }
    if (m.kind !== 'Vote') return [];
    const p = this.peer();
    if (p === undefined) return [];
    const view = m.view + FAR_VIEW;
    const subject = {
      phase: m.phase,
      height: m.height,
      view,
      blockHash: m.blockHash,
      validatorSetHash: this.fx.roster.hash,
    };
    this.act('far_view');
    return [encodeCoreMessage({ ...m, view, signature: p.crypto.signAs(this.self, subject) })];
  }

  private proposal(m: Proposal, bytes: Uint8Array, to: string): Uint8Array[] {
    if (this.kind === 'silent-leader') {
      this.acts++;
      return [];
    }
    this.note(m.height, m.view, m.blockHash);
    if (this.kind === 'stale-justify-leader') return [this.staleProposal(m) ?? bytes];
    if (this.kind !== 'equivocating-leader' && this.kind !== 'selective-withholder') return [bytes];
    const others = this.net.peers.filter((p) => p !== this.self);
    if (!this.allAlternative && others.indexOf(to) < Math.ceil(others.length / 2)) return [bytes];
    const alt = this.alternative(m);
    if (alt === undefined) return [bytes];
    this.acts++;
    this.note(m.height, m.view, alt.blockHash);
    return [encodeCoreMessage(alt)];
  }

  /**
   * Its own proposal replaced by the block of the oldest Prepare QC it knows at this height whose block
   * differs from that of the newest one (so honest peers locked on the newest have moved past it), with
   * the stale QC as justify. Undefined when it knows no such pair.
   */
  private staleProposal(m: Proposal): Uint8Array | undefined {
    this.learn(m);
    const at = this.qcs.get(m.height);
    if (at === undefined || at.size < 2) return undefined;
    const views = [...at.keys()].sort((a, b) => a - b);
    const newest = at.get(views[views.length - 1]!)!;
    for (const v of views) {
      const stale = at.get(v)!;
      const block = this.blocks.get(toHex(stale.blockHash));
      if (toHex(stale.blockHash) === toHex(newest.blockHash) || block === undefined) continue;
      this.act('stale_proposal');
      return encodeCoreMessage({
        kind: 'Proposal',
        height: m.height,
        view: m.view,
        blockHash: stale.blockHash,
        block,
        justify: stale,
      });
    }
    return undefined;
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
