// The BFT protocol core (docs/consensus.md): two phases per height, linear view change, as a pure state
// machine. `step(input)` returns the effects to run, in order; a `Persist` effect must be durable before
// the effects after it (the votes it protects) leave. Invariants are asserted as the core goes: a failed
// one is a bug (ConsensusInvariantError), and in the simulator it comes with its seed.

import { bytesEqual, toHex } from '../../util/hex.js';
import type { ValidatorSet } from '../validator-set.js';
import { HEIGHTS_AHEAD_MAX, PROPOSAL_VIEWS_AHEAD, VIEWS_AHEAD_MAX } from './bounds.js';
import { type CoreReport, reportOf } from './core-report.js';
import { BLOCKS_KEPT_MAX, HeightState, NEXT_HEIGHT_BUFFER_MAX } from './height-state.js';
import { viewTimeout } from './pacemaker.js';
import {
  assertCommitFollowsLock,
  assertFirstVote,
  assertLockGrows,
  assertLockRule,
  assertQcSigners,
} from './safety-checks.js';
import {
  type BftEffect,
  type BftInput,
  type BftMessage,
  type BftOptions,
  invariant,
  type Qc,
  type SafetyState,
  type ViewChangeCause,
  type VotePhase,
  type VoteSubject,
} from './types.js';

type Msg<K extends BftMessage['kind']> = Extract<BftMessage, { kind: K }>;

export class BftCore {
  private hs: HeightState | undefined;
  private view = 0;
  private lockedQc: Qc | undefined;
  private highQc: Qc | undefined;
  private prepareVote: SafetyState['prepareVote'];
  private commitVote: SafetyState['commitVote'];
  private proposedView: number | undefined;
  /** Payloads proposed or voted Prepare for at this height, persisted with the safety state. */
  private votedBlocks = new Map<string, { blockHash: Uint8Array; block: Uint8Array }>();
  private pending = false;
  private rttMs = 0;
  private me = -1;
  private out: BftEffect[] = [];
  private nextHeight: { from: string; msg: BftMessage }[] = [];
  /** The safety record last handed to the host to make durable (or loaded at start): what was voted. */
  private durable: SafetyState | undefined;
  private nowMs = 0;
  readonly stats = {
    viewChanges: 0,
    causes: {} as Partial<Record<ViewChangeCause, number>>,
    proposals: 0,
    votesSent: 0,
    votesReceived: 0,
    qcsFormed: 0,
    rejectedMessages: 0,
    /** Messages naming a view or height beyond the windows of bounds.ts (dropped, or a NEW_VIEW capped). */
    farMessages: 0,
    lastPhases: undefined as
      | undefined
      | { proposeMs: number; collectVotesMs: number; commitMs: number; totalMs: number },
  };

  constructor(private readonly o: BftOptions) {}

  step(input: BftInput): BftEffect[] {
    this.out = [];
    if ('nowMs' in input) this.nowMs = input.nowMs;
    switch (input.kind) {
      case 'Start':
        this.start(input);
        break;
      case 'Committed':
        this.committed(input.height, input.roster, input.pending);
        break;
      case 'Rtt':
        this.rttMs = Math.max(0, input.ms);
        break;
      default:
        if (this.hs !== undefined) this.dispatch(input);
    }
    return this.out;
  }

  private dispatch(input: BftInput): void {
    switch (input.kind) {
      case 'Message':
        this.message(input.from, input.msg);
        break;
      case 'Timeout':
        this.timeout(input.height, input.view);
        break;
      case 'Work':
        this.pending = input.pending;
        if (input.pending) this.activity();
        this.tryPropose();
        break;
      case 'Built':
        this.built(input);
        break;
      case 'Executed':
        this.executed(input);
        break;
    }
  }

  // ---- heights ------------------------------------------------------------------------------------

  private start(i: Extract<BftInput, { kind: 'Start' }>): void {
    this.pending = i.pending;
    this.enterHeight(i.height, i.roster);
    const s = i.safety;
    this.durable = s;
    if (s !== undefined && s.height === i.height && this.o.plantedBug !== 'forget-lock-on-restart') {
      this.view = s.view;
      this.lockedQc = s.lockedQc;
      this.highQc = s.lockedQc;
      this.prepareVote = s.prepareVote;
      this.commitVote = s.commitVote;
      this.proposedView = s.proposedView;
      if (s.proposedView !== undefined) this.hs!.led.add(s.proposedView);
      for (const b of s.blocks ?? []) {
        this.hs!.rememberBlock(b.blockHash, b.block);
        this.votedBlocks.set(toHex(b.blockHash), b);
      }
    }
    if (this.pending) this.activity();
    this.tryPropose();
  }

  private enterHeight(height: number, roster: ValidatorSet): void {
    this.hs = new HeightState(this.o.chainId, height, roster, this.o.crypto, this.nowMs);
    this.me = roster.indexOf(this.o.self);
    this.view = 0;
    this.lockedQc = undefined;
    this.highQc = undefined;
    this.prepareVote = undefined;
    this.commitVote = undefined;
    this.proposedView = undefined;
    this.votedBlocks = new Map();
  }

  private committed(height: number, roster: ValidatorSet, pending: boolean): void {
    const hs = this.hs;
    invariant(hs === undefined || height >= hs.height - 1, `committed height ${height} went backwards`);
    if (hs !== undefined && height < hs.height) return; // already known
    if (hs !== undefined && hs.commitQcAtMs !== undefined && height === hs.height) {
      const t = (x: number | undefined) => (x ?? hs.startedAtMs) - hs.startedAtMs;
      const total = this.nowMs - hs.startedAtMs;
      this.stats.lastPhases = {
        proposeMs: t(hs.proposalAtMs),
        collectVotesMs: t(hs.commitQcAtMs) - t(hs.proposalAtMs),
        commitMs: this.nowMs - hs.commitQcAtMs,
        totalMs: total,
      };
    }
    this.pending = pending;
    this.enterHeight(height + 1, roster);
    this.out.push({ kind: 'CancelTimer' });
    const buffered = this.nextHeight;
    this.nextHeight = [];
    for (const b of buffered) this.message(b.from, b.msg);
    if (this.pending) this.activity();
    this.tryPropose();
  }

  // ---- timers and views ---------------------------------------------------------------------------

  /** Something is happening at this height: make sure the view has a timer (validators only). */
  private activity(): void {
    const hs = this.hs!;
    if (this.me < 0 || hs.timerView === this.view || hs.committing) return;
    if (hs.timerView < 0 && this.view === 0) hs.startedAtMs = this.nowMs; // the height's round begins
    hs.timerView = this.view;
    const t = viewTimeout(this.o.pacemaker, hs.height, this.view, this.me, this.rttMs);
    this.out.push({ kind: 'SetTimer', height: hs.height, view: this.view, ms: t.ms });
  }

  private timeout(height: number, view: number): void {
    const hs = this.hs!;
    if (height !== hs.height || view !== this.view || this.me < 0) return;
    if (hs.committing) {
      hs.timerView = -1;
      this.activity();
      return;
    }
    this.advanceView(view + 1, this.causeOf(view));
  }

  private causeOf(view: number): ViewChangeCause {
    const hs = this.hs!;
    const p = hs.proposals.get(view);
    if (p === undefined) return 'no_proposal';
    const b = hs.blocks.get(p.hex);
    if (b === undefined) return 'missing_payload';
    if (b.execution === 'bad') return 'validation_reject';
    if (hs.prepareQcs.has(view)) return 'commit_failure';
    return 'quorum_timeout';
  }

  private advanceView(view: number, cause: ViewChangeCause): void {
    const hs = this.hs!;
    this.stats.viewChanges++;
    this.stats.causes[cause] = (this.stats.causes[cause] ?? 0) + 1;
    this.view = view;
    hs.startedAtMs = this.nowMs;
    if (this.me >= 0) {
      hs.newViews.set(this.me, view);
      const high = this.highQc;
      const highBlock = high === undefined ? undefined : hs.block(high.blockHash)?.bytes;
      this.out.push({
        kind: 'Broadcast',
        msg: {
          kind: 'NewView',
          height: hs.height,
          view,
          ...(high === undefined ? {} : { highQc: high }),
          ...(highBlock === undefined ? {} : { highBlock }),
        },
      });
    }
    this.activity();
    const future = hs.futureProposals.get(view);
    for (const v of [...hs.futureProposals.keys()]) if (v <= view) hs.futureProposals.delete(v);
    if (future !== undefined) this.proposal(future.from, future.msg);
    this.tryPropose();
  }

  // ---- leading ------------------------------------------------------------------------------------

  private isLeader(): boolean {
    return this.me >= 0 && this.hs!.plan.leader(this.view) === this.me;
  }

  private tryPropose(): void {
    const hs = this.hs!;
    if (!this.isLeader() || hs.committing || hs.led.has(this.view)) return;
    if (this.view > 0) {
      let ready = 0;
      for (const v of hs.newViews.values()) if (v >= this.view) ready++;
      if (ready < hs.roster.quorum) return;
      const high = this.highQc;
      if (high !== undefined) {
        const b = hs.block(high.blockHash);
        if (b === undefined) {
          this.askPayload(high.blockHash);
          return;
        }
        hs.led.add(this.view);
        this.sendProposal(high.blockHash, b.bytes, high);
        return;
      }
    }
    if (!this.pending) return;
    hs.led.add(this.view);
    this.out.push({ kind: 'Build', height: hs.height, view: this.view });
  }

  private built(i: Extract<BftInput, { kind: 'Built' }>): void {
    const hs = this.hs!;
    if (i.height !== hs.height || i.view !== this.view || !this.isLeader()) return;
    if (i.blockHash === undefined || i.block === undefined) {
      hs.led.delete(i.view); // nothing to propose after all; try again when work arrives
      return;
    }
    const b = hs.rememberBlock(i.blockHash, i.block);
    if (b !== undefined) {
      b.execution = 'ok';
      b.headerView = i.view;
    }
    this.sendProposal(i.blockHash, i.block, this.highQc);
  }

  private sendProposal(blockHash: Uint8Array, block: Uint8Array, justify: Qc | undefined): void {
    const hs = this.hs!;
    const msg: Msg<'Proposal'> = {
      kind: 'Proposal',
      height: hs.height,
      view: this.view,
      blockHash,
      block,
      ...(justify === undefined ? {} : { justify }),
    };
    this.stats.proposals++;
    // Durable before it leaves: a leader that crashes and restarts in this view must not build a
    // second, different block for it (its peers would rightly record that as equivocation).
    this.proposedView = this.view;
    this.keepBlock(blockHash, block);
    this.persist();
    this.out.push({ kind: 'Broadcast', msg });
    this.proposal(this.o.self, msg);
  }

  // ---- messages -----------------------------------------------------------------------------------

  private message(from: string, msg: BftMessage): void {
    const hs = this.hs!;
    const height = msg.kind === 'QcMsg' ? msg.qc.height : msg.height;
    if (height > hs.height + HEIGHTS_AHEAD_MAX) {
      this.far();
      return;
    }
    if (height > hs.height) {
      this.future(from, msg, height);
      return;
    }
    if (height < hs.height) return; // a peer behind learns of later blocks through block sync
    switch (msg.kind) {
      case 'Proposal':
        this.proposal(from, msg);
        return;
      case 'Vote':
        this.vote(from, msg);
        return;
      case 'QcMsg':
        this.qcMessage(from, msg.qc);
        return;
      case 'NewView':
        this.newView(from, msg);
        return;
      case 'PayloadRequest': {
        const b = hs.block(msg.blockHash);
        if (b !== undefined)
          this.out.push({
            kind: 'Send',
            to: from,
            msg: { kind: 'Payload', height: hs.height, blockHash: msg.blockHash, block: b.bytes },
          });
        return;
      }
      case 'Payload':
        this.payload(msg);
        return;
    }
  }

  private future(from: string, msg: BftMessage, height: number): void {
    const hs = this.hs!;
    if (height === hs.height + 1 && this.nextHeight.length < NEXT_HEIGHT_BUFFER_MAX)
      this.nextHeight.push({ from, msg });
    // Traffic two heights on, or a commit certificate one height on while this one is not committing,
    // means this peer missed a commit: catch up by block sync (which verifies every certificate).
    const missedCommit =
      height === hs.height + 1 && !hs.committing && msg.kind === 'QcMsg' && msg.qc.phase.kind === 'Commit';
    if (height >= hs.height + 2 || missedCommit)
      this.out.push({ kind: 'Behind', peer: from, height: height - 1 });
  }

  private proposal(from: string, msg: Msg<'Proposal'>): void {
    const hs = this.hs!;
    const sender = hs.roster.indexOf(from);
    if (sender < 0 || hs.plan.leader(msg.view) !== sender) {
      this.reject();
      return;
    }
    const hex = toHex(msg.blockHash);
    const first = hs.proposals.get(msg.view);
    if (first !== undefined) {
      if (first.hex !== hex)
        this.evidence({
          kind: 'InvalidProposal',
          height: hs.height,
          view: msg.view,
          proposer: from,
          blockHash: msg.blockHash,
          reason: 'double_proposal',
        });
      return;
    }
    if (msg.view > this.view + PROPOSAL_VIEWS_AHEAD) {
      this.far();
      return;
    }
    if (msg.justify !== undefined && !this.acceptQc(from, msg.justify, 'Prepare')) return;
    if (msg.view > this.view) {
      if (!hs.futureProposals.has(msg.view)) hs.futureProposals.set(msg.view, { from, msg });
      return;
    }
    if (msg.view < this.view) return;
    hs.proposals.set(msg.view, { hex, msg });
    hs.proposalAtMs ??= this.nowMs;
    this.activity();
    const b = hs.rememberBlock(msg.blockHash, msg.block);
    // A verified justify QC raises the lock and the highest QC like any Prepare QC seen.
    if (msg.justify !== undefined) this.useQc(msg.justify);
    if (b === undefined) return;
    if (b.execution === 'unknown') this.execute(msg.blockHash, b.bytes);
    else if (b.execution === 'ok') this.afterExecuted(msg.blockHash);
  }

  private execute(blockHash: Uint8Array, block: Uint8Array): void {
    const hs = this.hs!;
    const b = hs.block(blockHash)!;
    b.execution = 'running';
    this.out.push({ kind: 'Execute', height: hs.height, view: this.view, blockHash, block });
  }

  private executed(i: Extract<BftInput, { kind: 'Executed' }>): void {
    const hs = this.hs!;
    if (i.height !== hs.height) return;
    const b = hs.block(i.blockHash);
    if (b === undefined || b.execution !== 'running') return;
    b.execution = i.ok ? 'ok' : 'bad';
    b.headerView = i.headerView;
    if (!i.ok) {
      b.reason = i.reason ?? 'invalid';
      const p = [...hs.proposals.entries()].find(([, v]) => v.hex === toHex(i.blockHash));
      if (p !== undefined)
        this.evidence({
          kind: 'InvalidProposal',
          height: hs.height,
          view: p[0],
          proposer: hs.roster.validators[hs.plan.leader(p[0])]!.peer,
          blockHash: i.blockHash,
          reason: b.reason,
        });
      return;
    }
    this.afterExecuted(i.blockHash);
  }

  /** The block is executed and valid: vote, lock or commit as the certificates seen allow. */
  private afterExecuted(blockHash: Uint8Array): void {
    const hs = this.hs!;
    if (hs.commitQc !== undefined && bytesEqual(hs.commitQc.blockHash, blockHash)) {
      this.commit();
      return;
    }
    const p = hs.proposals.get(this.view);
    if (p !== undefined && p.hex === toHex(blockHash)) this.votePrepare(p.msg);
    const qc = hs.prepareQcs.get(this.view);
    if (qc !== undefined && bytesEqual(qc.blockHash, blockHash)) this.voteCommit(qc);
  }

  private votePrepare(p: Msg<'Proposal'>): void {
    const hs = this.hs!;
    const b = hs.block(p.blockHash);
    if (this.me < 0 || b?.execution !== 'ok' || p.view !== this.view) return;
    if (this.prepareVote !== undefined && this.prepareVote.view >= p.view) return; // one vote per (h, v)
    const justified = p.justify !== undefined && bytesEqual(p.justify.blockHash, p.blockHash);
    const lock = this.lockedQc;
    const extendsLock = lock === undefined || bytesEqual(lock.blockHash, p.blockHash);
    const unlocks =
      justified &&
      lock !== undefined &&
      (p.justify!.view >= lock.view || this.o.plantedBug === 'stale-justify-unlock');
    if (!extendsLock && !unlocks && this.o.plantedBug !== 'prepare-ignores-lock') return;
    // A header built in another view may only come back as the block of a certificate.
    if (
      b.headerView !== p.view &&
      !justified &&
      !(lock !== undefined && bytesEqual(lock.blockHash, p.blockHash))
    )
      return;
    assertFirstVote(this.durable, 'Prepare', hs.height, p.view);
    assertLockRule(p.blockHash, p.justify, this.lockedQc);
    this.prepareVote = { view: p.view, blockHash: p.blockHash };
    this.keepBlock(p.blockHash, b.bytes);
    this.castVote('Prepare', p.blockHash);
  }

  private voteCommit(qc: Qc): void {
    const hs = this.hs!;
    if (this.me < 0 || qc.view !== this.view || hs.block(qc.blockHash)?.execution !== 'ok') return;
    if (this.commitVote !== undefined && this.commitVote.view >= qc.view) return;
    // Locked on a later view's QC already (a certificate of a view this peer has not reached): no
    // Commit vote here; the lock is what a Commit vote stands for.
    if (this.lockedQc !== undefined && this.lockedQc.view > qc.view) return;
    assertFirstVote(this.durable, 'Commit', hs.height, qc.view);
    assertCommitFollowsLock(qc, this.lockedQc);
    assertQcSigners(qc, hs.roster);
    this.commitVote = { view: qc.view, blockHash: qc.blockHash };
    this.castVote('Commit', qc.blockHash);
  }

  private castVote(phase: VotePhase, blockHash: Uint8Array): void {
    const hs = this.hs!;
    this.persist();
    const subject = this.subject(phase, this.view, blockHash);
    const signature = this.o.crypto.sign(subject);
    this.stats.votesSent++;
    const msg: Msg<'Vote'> = {
      kind: 'Vote',
      phase,
      height: hs.height,
      view: this.view,
      blockHash,
      signature,
    };
    for (const c of hs.plan.collectors(this.view, this.o.collectorsK)) {
      if (c === this.me) this.vote(this.o.self, msg);
      else this.out.push({ kind: 'Send', to: hs.roster.validators[c]!.peer, msg });
    }
  }

  private persist(): void {
    const hs = this.hs!;
    const safety: SafetyState = {
      height: hs.height,
      view: this.view,
      ...(this.lockedQc === undefined ? {} : { lockedQc: this.lockedQc }),
      ...(this.prepareVote === undefined ? {} : { prepareVote: this.prepareVote }),
      ...(this.commitVote === undefined ? {} : { commitVote: this.commitVote }),
      ...(this.proposedView === undefined ? {} : { proposedView: this.proposedView }),
      ...(this.votedBlocks.size === 0 ? {} : { blocks: [...this.votedBlocks.values()] }),
    };
    assertLockGrows(this.durable, safety);
    this.durable = safety;
    this.out.push({ kind: 'Persist', safety });
  }

  /** Keeps a payload this peer stands behind (bounded: the oldest goes first past the per-height bound). */
  private keepBlock(blockHash: Uint8Array, block: Uint8Array): void {
    this.votedBlocks.set(toHex(blockHash), { blockHash, block });
    if (this.votedBlocks.size > BLOCKS_KEPT_MAX)
      this.votedBlocks.delete(this.votedBlocks.keys().next().value!);
  }

  private subject(phase: VotePhase, view: number, blockHash: Uint8Array): VoteSubject {
    return { phase, height: this.hs!.height, view, blockHash, validatorSetHash: this.hs!.roster.hash };
  }

  private vote(from: string, msg: Msg<'Vote'>): void {
    const hs = this.hs!;
    const signer = hs.roster.indexOf(from);
    if (signer < 0 || !hs.plan.collectors(msg.view, this.o.collectorsK).includes(this.me)) {
      this.reject();
      return;
    }
    const subject = this.subject(msg.phase, msg.view, msg.blockHash);
    this.stats.votesReceived++;
    const r = hs.votes.add(subject, signer, msg.signature, this.view);
    if (r.kind === 'far') {
      this.far();
      return;
    }
    if (r.kind === 'bad_signature') {
      this.reject();
      return;
    }
    if (r.kind === 'double') {
      this.evidence({
        kind: 'DoubleVote',
        phase: msg.phase,
        signerIndex: signer,
        first: r.first.subject,
        firstSignature: r.first.signature,
        second: r.second.subject,
        secondSignature: r.second.signature,
      });
      return;
    }
    if (r.kind === 'counted' && r.qc !== undefined) {
      this.stats.qcsFormed++;
      this.out.push({ kind: 'Broadcast', msg: { kind: 'QcMsg', qc: r.qc } });
      this.useQc(r.qc);
    }
  }

  private qcMessage(from: string, qc: Qc): void {
    const phase = qc.phase.kind;
    if (phase === 'NewView' || !this.acceptQc(from, qc, phase)) return;
    this.useQc(qc);
  }

  /** Verifies a QC received from `from` for this height; an invalid one is evidence. */
  private acceptQc(from: string, qc: Qc, phase: VotePhase): boolean {
    const hs = this.hs!;
    if (qc.phase.kind !== phase || qc.height !== hs.height) {
      this.reject();
      return false;
    }
    if (qc.view > this.view + VIEWS_AHEAD_MAX) {
      this.far();
      return false;
    }
    const problem = this.o.crypto.verifyQc(qc, hs.roster);
    if (problem === undefined) return true;
    this.reject();
    // One record per sending peer and height: a hostile peer cannot turn a stream of distinct bad
    // certificates into a stream of durable evidence writes.
    if (!hs.invalidQcFrom.has(from)) {
      hs.invalidQcFrom.add(from);
      this.evidence({ kind: 'InvalidQc', qc, problem, from });
    }
    return false;
  }

  /** A verified QC of this height. */
  private useQc(qc: Qc): void {
    const hs = this.hs!;
    assertQcSigners(qc, hs.roster);
    this.activity();
    if (qc.phase.kind === 'Commit') {
      if (hs.commitQc !== undefined) {
        invariant(
          bytesEqual(hs.commitQc.blockHash, qc.blockHash),
          `two commit certificates at height ${hs.height}`,
        );
        return;
      }
      hs.commitQc = qc;
      hs.commitQcAtMs = this.nowMs;
      const b = hs.block(qc.blockHash);
      if (b === undefined) {
        this.askPayload(qc.blockHash);
        return;
      }
      if (b.execution === 'ok') {
        this.commit();
        return;
      }
      if (b.execution === 'unknown') this.execute(qc.blockHash, b.bytes);
      return;
    }
    const prior = hs.prepareQcs.get(qc.view);
    if (prior !== undefined) {
      invariant(
        bytesEqual(prior.blockHash, qc.blockHash),
        `two Prepare QCs at height ${hs.height} view ${qc.view}`,
      );
      return;
    }
    hs.prepareQcs.set(qc.view, qc);
    hs.prepareQcAtMs ??= this.nowMs;
    if (this.highQc === undefined || qc.view > this.highQc.view) this.highQc = qc;
    if (this.lockedQc === undefined || qc.view > this.lockedQc.view) this.lockedQc = qc;
    const b = hs.block(qc.blockHash);
    if (b === undefined) {
      this.askPayload(qc.blockHash);
      return;
    }
    if (b.execution === 'unknown') {
      this.execute(qc.blockHash, b.bytes);
      return;
    }
    if (b.execution === 'ok' && qc.view === this.view) this.voteCommit(qc);
  }

  private commit(): void {
    const hs = this.hs!;
    if (hs.committing) return;
    const qc = hs.commitQc!;
    assertQcSigners(qc, hs.roster);
    hs.committing = true;
    this.out.push({ kind: 'CancelTimer' });
    this.out.push({ kind: 'Commit', height: hs.height, blockHash: qc.blockHash, certificate: qc });
  }

  private newView(from: string, msg: Msg<'NewView'>): void {
    const hs = this.hs!;
    const sender = hs.roster.indexOf(from);
    if (sender < 0) {
      this.reject();
      return;
    }
    if (msg.highQc !== undefined && msg.highQc.view > this.view + VIEWS_AHEAD_MAX) this.far();
    else if (msg.highQc !== undefined) {
      if (!this.acceptQc(from, msg.highQc, 'Prepare')) return;
      if (msg.highBlock !== undefined) hs.rememberBlock(msg.highQc.blockHash, msg.highBlock);
      this.useQc(msg.highQc);
    }
    // A claim beyond the window is believed only up to its edge: one peer cannot make this one remember
    // an arbitrary view, while f+1 peers far ahead (this one was down) are still joined, a window a time.
    let view = msg.view;
    if (view > this.view + VIEWS_AHEAD_MAX) {
      this.far();
      view = this.view + VIEWS_AHEAD_MAX;
    }
    if ((hs.newViews.get(sender) ?? -1) >= view) return;
    hs.newViews.set(sender, view);
    this.activity();
    // f+1 peers past our view: at least one honest peer timed out there, so join the highest such view.
    const ahead = [...hs.newViews.values()].filter((v) => v > this.view).sort((a, b) => b - a);
    const f = hs.roster.f;
    const join = ahead[f];
    if (this.me >= 0 && join !== undefined && join > this.view) this.advanceView(join, 'joined');
    else this.tryPropose();
  }

  private payload(msg: Msg<'Payload'>): void {
    const hs = this.hs!;
    const hex = toHex(msg.blockHash);
    if (!hs.payloadAsked.has(hex) || hs.blocks.has(hex)) return;
    const b = hs.rememberBlock(msg.blockHash, msg.block);
    if (b !== undefined) this.execute(msg.blockHash, b.bytes);
    this.tryPropose();
  }

  private askPayload(blockHash: Uint8Array): void {
    const hs = this.hs!;
    const hex = toHex(blockHash);
    if (hs.payloadAsked.has(hex)) return;
    hs.payloadAsked.add(hex);
    this.out.push({ kind: 'Broadcast', msg: { kind: 'PayloadRequest', height: hs.height, blockHash } });
  }

  private evidence(finding: Extract<BftEffect, { kind: 'Evidence' }>['finding']): void {
    this.out.push({ kind: 'Evidence', finding });
  }

  private reject(): void {
    this.stats.rejectedMessages++;
  }

  /** A view or height beyond the windows of bounds.ts: dropped (counted), nothing remembered. */
  private far(): void {
    this.stats.farMessages++;
  }

  // ---- reading ------------------------------------------------------------------------------------

  report(): CoreReport {
    return reportOf(this.hs, {
      view: this.view,
      me: this.me,
      lockedQc: this.lockedQc,
      highQc: this.highQc,
      rttMs: this.rttMs,
      nowMs: this.nowMs,
      options: this.o,
    });
  }
}
