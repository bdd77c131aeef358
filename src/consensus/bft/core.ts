// The BFT protocol core (docs/consensus.md): two phases per height, linear view change, as a pure state
// machine. `step(input)` returns the effects to run, in order; a `Persist` effect must be durable before
// the effects after it (the votes it protects) leave. Invariants are asserted as the core goes: a failed
// one is a bug (ConsensusInvariantError), and in the simulator it comes with its seed.

import { unreachable } from '../../util/assert.js';
import { bytesEqual, toHex } from '../../util/hex.js';
import { INVALID_PROPOSAL_REASON_BYTES_MAX } from '../evidence.js';
import type { ValidatorSet } from '../validator-set.js';
import { HEIGHTS_AHEAD_MAX, PROPOSAL_VIEWS_AHEAD, VIEWS_AHEAD_MAX } from './bounds.js';
import { type CoreReport, reportOf } from './core-report.js';
import { BLOCKS_KEPT_MAX, HeightState, NEXT_HEIGHT_BUFFER_MAX } from './height-state.js';
import { viewTimeout } from './pacemaker.js';
import { phasesOf } from './phase-times.js';
import {
  assertCommitFollowsLock,
  assertFirstVote,
  assertLockGrows,
  assertLockRule,
  assertQcSigners,
  isViewNumber,
} from './safety-checks.js';
import {
  type BftEffect,
  type BftInput,
  type BftMessage,
  type BftOptions,
  ConsensusInvariantError,
  invariant,
  type Qc,
  type SafetyState,
  type ViewChangeCause,
  type VotePhase,
  type VoteSubject,
} from './types.js';

type Msg<K extends BftMessage['kind']> = Extract<BftMessage, { kind: K }>;

/** Whether the safety record `s` names the vote or proposal effect `e` sends (other effects need none). */
function holds(s: SafetyState, e: BftEffect): boolean {
  if (e.kind !== 'Send' && e.kind !== 'Broadcast') return true;
  const m = e.msg;
  if (m.kind === 'Proposal') return m.height === s.height && s.proposedView === m.view;
  if (m.kind !== 'Vote') return true;
  const kept = m.phase === 'Prepare' ? s.prepareVote : s.commitVote;
  return m.height === s.height && kept?.view === m.view && bytesEqual(kept.blockHash, m.blockHash);
}

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
  /** How long the last round this peer saw decide took (view start → commit certificate): the pacemaker's round floor. */
  private roundMs = 0;
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
    /** Safety records folded into an earlier write of the same step (a leader's proposal and its own vote). */
    safetyWritesSaved: 0,
    /** View timers that expired while the view's proposal, received in time, was still being executed here. */
    viewsExtended: 0,
    /** Messages naming a view or height beyond the windows of bounds.ts (dropped, or a NEW_VIEW capped). */
    farMessages: 0,
    /** Rounds whose phases were measured (lastPhases): the number of samples behind the averages. */
    phaseSamples: 0,
    lastPhases: undefined as
      | undefined
      | { proposeMs: number; collectVotesMs: number; commitMs: number; totalMs: number },
  };

  constructor(private readonly o: BftOptions) {
    invariant(
      Number.isSafeInteger(o.collectorsK) && o.collectorsK >= 1,
      `collectors per view must be a positive integer, not ${o.collectorsK}`,
    );
    const t = o.pacemaker;
    invariant(
      t.baseMs > 0 &&
        t.maxMs >= t.baseMs &&
        t.multiplierPermille >= 1000 &&
        t.rttFloorMultiplier >= 0 &&
        t.roundFloorMultiplier >= 0,
      `pacemaker settings inconsistent: base ${t.baseMs} ms, max ${t.maxMs} ms, x${t.multiplierPermille}‰`,
    );
    invariant(
      t.jitterPermille >= 0 && t.jitterPermille <= 1000,
      `jitter ${t.jitterPermille}‰ out of 0..1000`,
    );
  }

  step(input: BftInput): BftEffect[] {
    this.out = [];
    if ('nowMs' in input) {
      // Time arrives in inputs only, read from the host's monotonic clock (the driver checks its order).
      invariant(Number.isFinite(input.nowMs) && input.nowMs >= 0, `${input.kind} input at ${input.nowMs} ms`);
      this.nowMs = input.nowMs;
    }
    switch (input.kind) {
      case 'Start':
        this.start(input);
        break;
      case 'Committed':
        this.committed(input.height, input.roster, input.pending);
        break;
      case 'Rtt':
        invariant(Number.isFinite(input.ms), `a round trip of ${input.ms} ms`);
        this.rttMs = Math.max(0, input.ms);
        break;
      default:
        if (this.hs !== undefined) this.dispatch(input);
    }
    if (this.hs !== undefined) this.checkState(this.hs);
    return this.out;
  }

  /** After every step: the state machine is consistent (what each later step relies on). */
  private checkState(hs: HeightState): void {
    const at = `height ${hs.height} view ${this.view}`;
    invariant(isViewNumber(this.view), `${at}: the view is not a non-negative integer`);
    invariant(this.me >= -1 && this.me < hs.roster.size, `${at}: roster index ${this.me} out of range`);
    invariant(
      this.me < 0 || hs.roster.validators[this.me]!.peer === this.o.self,
      `${at}: roster index ${this.me} is another peer`,
    );
    invariant((this.proposedView ?? -1) <= this.view, `${at}: proposed in view ${this.proposedView}, ahead`);
    for (const v of hs.led) invariant(v <= this.view, `${at}: led view ${v}, ahead of the view`);
    invariant(!hs.committing || hs.commitQc !== undefined, `${at}: committing without a commit certificate`);
    // NEW_VIEWs are kept per roster index, each claim capped to the window above the view.
    invariant(hs.newViews.size <= hs.roster.size, `${at}: ${hs.newViews.size} NEW_VIEW senders`);
    for (const [i, v] of hs.newViews)
      invariant(
        i >= 0 && i < hs.roster.size && v <= this.view + VIEWS_AHEAD_MAX,
        `${at}: NEW_VIEW of index ${i} for view ${v} kept`,
      );
    for (const [v, qc] of hs.prepareQcs)
      invariant(
        qc.view === v && qc.height === hs.height && qc.phase.kind === 'Prepare',
        `${at}: the Prepare QC kept for view ${v} is of ${qc.phase.kind} ${qc.height}/${qc.view}`,
      );
    for (const qc of [this.lockedQc, this.highQc])
      invariant(
        qc === undefined || (qc.height === hs.height && qc.phase.kind === 'Prepare'),
        `${at}: the lock or highest QC is not a Prepare QC of this height`,
      );
    invariant(
      this.lockedQc === undefined || (this.highQc !== undefined && this.highQc.view >= this.lockedQc.view),
      `${at}: the highest QC is below the lock`,
    );
    invariant(
      (this.prepareVote?.view ?? -1) <= this.view && (this.commitVote?.view ?? -1) <= this.view,
      `${at}: a vote recorded for a later view`,
    );
    invariant(hs.timerView <= this.view, `${at}: a timer armed for view ${hs.timerView}, ahead of the view`);
    // Memory is never behind what was made durable at this height (a restart resumes from the record).
    const d = this.durable?.height === hs.height ? this.durable : undefined;
    invariant(d === undefined || d.view <= this.view, `${at}: the safety record is at view ${d?.view}`);
    invariant(
      d?.lockedQc === undefined || (this.lockedQc?.view ?? -1) >= d.lockedQc.view,
      `${at}: the lock is below the durable one of view ${d?.lockedQc?.view}`,
    );
    invariant(
      (this.prepareVote?.view ?? -1) >= (d?.prepareVote?.view ?? -1) &&
        (this.commitVote?.view ?? -1) >= (d?.commitVote?.view ?? -1),
      `${at}: a vote recorded durably is forgotten in memory`,
    );
    invariant(
      hs.blocks.size <= BLOCKS_KEPT_MAX && this.votedBlocks.size <= BLOCKS_KEPT_MAX,
      `${at}: more than ${BLOCKS_KEPT_MAX} payloads kept`,
    );
    invariant(this.nextHeight.length <= NEXT_HEIGHT_BUFFER_MAX, `${at}: next-height buffer over its bound`);
    for (const v of hs.futureProposals.keys())
      invariant(
        v > this.view && v <= this.view + PROPOSAL_VIEWS_AHEAD,
        `${at}: a proposal kept for view ${v}, outside the window ahead`,
      );
    for (const [v, p] of hs.proposals)
      invariant(
        v <= this.view && p.msg.view === v,
        `${at}: the proposal kept for view ${v} is of view ${p.msg.view} or ahead of the view`,
      );
    for (const [v, p] of hs.futureProposals)
      invariant(p.msg.view === v, `${at}: the proposal kept for view ${v} is of view ${p.msg.view}`);
    // A block is valid only with the view its header was built in (the re-proposal rule reads it).
    for (const [hex, b] of hs.blocks)
      invariant(
        b.execution !== 'ok' || b.headerView !== undefined,
        `${at}: block ${hex.slice(0, 12)} executed as valid without its header view`,
      );
    invariant(
      hs.commitQc === undefined || (hs.commitQc.height === hs.height && hs.commitQc.phase.kind === 'Commit'),
      `${at}: the commit certificate is not a Commit QC of this height`,
    );
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
      case 'Start':
      case 'Committed':
      case 'Rtt':
        throw new ConsensusInvariantError(`a ${input.kind} input dispatched past step`);
      default:
        unreachable(input, 'an input the core does not handle');
    }
  }

  // ---- heights ------------------------------------------------------------------------------------

  private start(i: Extract<BftInput, { kind: 'Start' }>): void {
    invariant(this.hs === undefined, `a second Start (height ${i.height}): a core starts once`);
    this.pending = i.pending;
    this.enterHeight(i.height, i.roster);
    const s = i.safety;
    this.durable = s;
    if (s !== undefined && s.height === i.height && this.o.plantedBug !== 'forget-lock-on-restart') {
      // The record this peer made durable itself: consistent, or the file is not the one it wrote.
      invariant(
        isViewNumber(s.view) &&
          (s.prepareVote?.view ?? -1) <= s.view &&
          (s.commitVote?.view ?? -1) <= s.view &&
          (s.proposedView ?? -1) <= s.view,
        `the safety record of height ${s.height} names a vote or proposal after its view ${s.view}`,
      );
      invariant(
        s.lockedQc === undefined || (s.lockedQc.height === s.height && s.lockedQc.view <= s.view),
        `the safety record of height ${s.height} holds a lock of another height or a later view`,
      );
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
    invariant(
      Number.isSafeInteger(height) && height >= 1 && (this.hs === undefined || height > this.hs.height),
      `entering height ${height} after height ${this.hs?.height ?? 'none'}: heights only go up`,
    );
    invariant(roster.size >= 1, `an empty validator set at height ${height}`);
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
    // Measured by validators only: an observer runs no round (no view timer), so from its height's start
    // to the proposal is idle time, not a phase.
    if (hs !== undefined && this.me >= 0 && hs.commitQc !== undefined && height === hs.height) {
      this.stats.lastPhases = phasesOf(hs, hs.commitQc.view, this.nowMs);
      this.stats.phaseSamples++;
      // The round's own time, the commit's excluded: the next height's timers start after the commit.
      this.roundMs = this.stats.lastPhases.proposeMs + this.stats.lastPhases.collectVotesMs;
      invariant(this.roundMs >= 0, `height ${height}: a round of ${this.roundMs} ms`);
    }
    this.pending = pending;
    this.enterHeight(height + 1, roster);
    this.out.push({ kind: 'CancelTimer' });
    const buffered = this.nextHeight;
    this.nextHeight = [];
    for (const b of buffered) {
      // Only messages of the height just entered were kept for it.
      invariant(
        (b.msg.kind === 'QcMsg' ? b.msg.qc.height : b.msg.height) === height + 1,
        `a message buffered for height ${height + 1} names another height`,
      );
      this.message(b.from, b.msg);
    }
    if (this.pending) this.activity();
    this.tryPropose();
  }

  // ---- timers and views ---------------------------------------------------------------------------

  /** Something is happening at this height: make sure the view has a timer (validators only). */
  private activity(): void {
    const hs = this.hs!;
    if (this.me < 0 || hs.timerView === this.view || hs.committing) return;
    // Timers only move forward: a timer is never armed for a view older than one already armed.
    invariant(hs.timerView < this.view, `a timer for view ${this.view} after one for view ${hs.timerView}`);
    if (hs.timerView < 0 && this.view === 0) hs.startedAtMs = this.nowMs; // the height's round begins
    hs.timerView = this.view;
    const t = viewTimeout(this.o.pacemaker, hs.height, this.view, this.me, this.rttMs, this.roundMs);
    invariant(Number.isSafeInteger(t.ms) && t.ms > 0, `view ${this.view}: a timeout of ${t.ms} ms`);
    this.out.push({ kind: 'SetTimer', height: hs.height, view: this.view, ms: t.ms });
  }

  private timeout(height: number, view: number): void {
    const hs = this.hs!;
    // Timers are armed by this core for its own height and view: none can name a later one.
    invariant(
      height < hs.height || (height === hs.height && view <= this.view),
      `a timeout for height ${height} view ${view} while at height ${hs.height} view ${this.view}`,
    );
    if (height !== hs.height || view !== this.view || this.me < 0) return;
    if (hs.committing) {
      hs.timerView = -1;
      this.activity();
      return;
    }
    if (this.o.pacemaker.extendWhileChecking && this.checkingInTime(view)) {
      this.extendView();
      return;
    }
    this.advanceView(view + 1, this.causeOf(view));
  }

  /**
   * The view's proposal arrived while the view was current and its block is still being checked and
   * executed here: the view is not over (progress-extended view). Leaving it now would throw away a check
   * nearly done for a new round that must do it again; on a loaded machine the first full block after an
   * idle spell (the round floor still measures the small round before it) would time out every view. Bound:
   * no view is extended past the pacemaker's longest timeout from its start, so a check that never ends
   * (or a proposal built to be slow) still ends the view.
   */
  private checkingInTime(view: number): boolean {
    const hs = this.hs!;
    const p = hs.proposals.get(view);
    if (p === undefined || hs.blocks.get(p.hex)?.execution !== 'running') return false;
    // Only proposals received in their own view are kept for it (`proposal` drops the rest).
    invariant(
      p.msg.view === view && p.atMs >= p.viewStartedAtMs,
      `view ${view}: a proposal kept out of time`,
    );
    return this.nowMs - p.viewStartedAtMs < this.o.pacemaker.maxMs;
  }

  /** Arms the current view's timer again (its round start unchanged): the view goes on. */
  private extendView(): void {
    const hs = this.hs!;
    invariant(hs.timerView === this.view && this.me >= 0, `extending view ${this.view} without its timer`);
    this.stats.viewsExtended++;
    const t = viewTimeout(this.o.pacemaker, hs.height, this.view, this.me, this.rttMs, this.roundMs);
    invariant(Number.isSafeInteger(t.ms) && t.ms > 0, `view ${this.view}: a timeout of ${t.ms} ms`);
    this.out.push({ kind: 'SetTimer', height: hs.height, view: this.view, ms: t.ms });
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
    // Views only go up within a height, and never past the window a NEW_VIEW claim is capped to.
    invariant(
      isViewNumber(view) && view > this.view && view <= this.view + VIEWS_AHEAD_MAX,
      `view ${this.view} → ${view} (${cause}) at height ${hs.height}`,
    );
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
    invariant(
      this.proposedView === undefined || this.proposedView < this.view,
      `a block asked for view ${this.view} after proposing in view ${this.proposedView}`,
    );
    hs.led.add(this.view);
    this.out.push({ kind: 'Build', height: hs.height, view: this.view });
  }

  private built(i: Extract<BftInput, { kind: 'Built' }>): void {
    const hs = this.hs!;
    invariant(i.height <= hs.height, `a block built for height ${i.height} while at height ${hs.height}`);
    if (i.height !== hs.height || i.view !== this.view || !this.isLeader()) return;
    // A block arrives only for a Build this core asked for in this view (and has not proposed in yet).
    invariant(
      hs.led.has(i.view) && (this.proposedView === undefined || this.proposedView < i.view),
      `a built block for view ${i.view} that was not asked for`,
    );
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
    // The proposer is the one the rotation names, once per view, with a justify of this height.
    invariant(this.isLeader(), `a proposal in view ${this.view} by index ${this.me}, not the leader`);
    invariant(
      this.proposedView === undefined || this.proposedView < this.view,
      `a second proposal at height ${hs.height}: proposed in view ${this.proposedView}, now view ${this.view}`,
    );
    invariant(
      justify === undefined || (justify.height === hs.height && justify.phase.kind === 'Prepare'),
      `a proposal justified by a ${justify?.phase.kind} QC of height ${justify?.height}`,
    );
    invariant(blockHash.length === 32 && block.length > 0, 'a proposal without a block or its hash');
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
    invariant(
      height > hs.height && height <= hs.height + HEIGHTS_AHEAD_MAX,
      `message of height ${height} routed as future at height ${hs.height}`,
    );
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
    invariant(msg.height === hs.height, `a proposal of height ${msg.height} handled at ${hs.height}`);
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
    // After `activity`: a proposal may be what begins the height's round (its view's start).
    this.activity();
    hs.proposals.set(msg.view, { hex, msg, atMs: this.nowMs, viewStartedAtMs: hs.startedAtMs });
    const b = hs.rememberBlock(msg.blockHash, msg.block);
    // A verified justify QC raises the lock and the highest QC like any Prepare QC seen.
    if (msg.justify !== undefined) this.useQc(msg.justify);
    if (b === undefined) return;
    if (b.execution === 'unknown') this.execute(msg.blockHash, b.bytes);
    else if (b.execution === 'ok') this.afterExecuted(msg.blockHash);
  }

  private execute(blockHash: Uint8Array, block: Uint8Array): void {
    const hs = this.hs!;
    const b = hs.block(blockHash);
    // Each payload is executed once: only a known block not yet handed to execution is.
    invariant(b?.execution === 'unknown', `execute of a block that is ${b?.execution ?? 'not known'}`);
    b.execution = 'running';
    this.out.push({ kind: 'Execute', height: hs.height, view: this.view, blockHash, block });
  }

  private executed(i: Extract<BftInput, { kind: 'Executed' }>): void {
    const hs = this.hs!;
    invariant(i.height <= hs.height, `a block of height ${i.height} executed while at height ${hs.height}`);
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
    invariant(hs.block(blockHash)?.execution === 'ok', 'acting on a block not executed as valid');
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
    // Only the first proposal recorded for the view (from its leader) is ever voted for.
    invariant(
      p.height === hs.height && hs.proposals.get(p.view)?.hex === toHex(p.blockHash),
      `a Prepare vote in view ${p.view} for a block that is not the view's proposal`,
    );
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
    const recorded = hs.prepareQcs.get(qc.view);
    invariant(
      qc.height === hs.height && recorded !== undefined && bytesEqual(recorded.blockHash, qc.blockHash),
      `a Commit vote on a Prepare QC of view ${qc.view} this height did not record`,
    );
    this.commitVote = { view: qc.view, blockHash: qc.blockHash };
    this.castVote('Commit', qc.blockHash);
  }

  private castVote(phase: VotePhase, blockHash: Uint8Array): void {
    const hs = this.hs!;
    invariant(this.me >= 0, 'an observer casting a vote');
    this.persist();
    // Persist-before-vote: the record just handed to the host names this very vote.
    const kept = phase === 'Prepare' ? this.durable?.prepareVote : this.durable?.commitVote;
    invariant(
      this.durable?.height === hs.height && kept?.view === this.view && bytesEqual(kept.blockHash, blockHash),
      `a ${phase} vote in view ${this.view} that the safety record does not hold`,
    );
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
      if (c === this.me) this.vote(this.o.self, msg, true);
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
    invariant(
      (safety.proposedView ?? -1) <= safety.view && (safety.blocks?.length ?? 0) <= BLOCKS_KEPT_MAX,
      `safety record of height ${hs.height}: proposed view after its view, or over ${BLOCKS_KEPT_MAX} blocks`,
    );
    // The durable record never moves to an earlier height or view (a restart resumes from it).
    invariant(
      this.durable === undefined ||
        this.durable.height < safety.height ||
        (this.durable.height === safety.height && this.durable.view <= safety.view),
      `the safety record went from height ${this.durable?.height} view ${this.durable?.view} to ${safety.height}/${safety.view}`,
    );
    this.durable = safety;
    // One write per step: a record of this height already among this step's effects (a leader's proposal,
    // then its own Prepare vote: two fsyncs each) takes the newer one in its place, when the newer one
    // also holds every vote and proposal that leaves between the two (views, votes and the proposed view
    // only grow within a height, so it does unless the view moved on in between). Each message then still
    // leaves after a durable record naming it, and nothing is written twice.
    let earlier = -1;
    for (let i = this.out.length - 1; i >= 0 && earlier < 0; i--)
      if (this.out[i]!.kind === 'Persist') earlier = i;
    const prior = this.out[earlier];
    if (
      prior?.kind === 'Persist' &&
      prior.safety.height === safety.height &&
      this.out.every((e, i) => i <= earlier || holds(safety, e))
    ) {
      this.out[earlier] = { kind: 'Persist', safety };
      this.stats.safetyWritesSaved++;
      return;
    }
    this.out.push({ kind: 'Persist', safety });
  }

  /** Keeps a payload this peer stands behind (bounded: the oldest goes first past the per-height bound). */
  private keepBlock(blockHash: Uint8Array, block: Uint8Array): void {
    invariant(blockHash.length === 32, `a kept payload with a ${blockHash.length}-byte hash`);
    this.votedBlocks.set(toHex(blockHash), { blockHash, block });
    if (this.votedBlocks.size > BLOCKS_KEPT_MAX)
      this.votedBlocks.delete(this.votedBlocks.keys().next().value!);
  }

  private subject(phase: VotePhase, view: number, blockHash: Uint8Array): VoteSubject {
    // A vote subject names a decided-upon height's view and a 32-byte block hash.
    invariant(
      this.hs !== undefined && isViewNumber(view) && blockHash.length === 32,
      `a vote subject at view ${view} for a ${blockHash.length}-byte hash`,
    );
    return { phase, height: this.hs!.height, view, blockHash, validatorSetHash: this.hs!.roster.hash };
  }

  /** `signedHere`: this peer's own vote, just signed by castVote (its signature is not verified again). */
  private vote(from: string, msg: Msg<'Vote'>, signedHere = false): void {
    const hs = this.hs!;
    const signer = hs.roster.indexOf(from);
    if (signer < 0 || !hs.plan.collectors(msg.view, this.o.collectorsK).includes(this.me)) {
      this.reject();
      return;
    }
    const subject = this.subject(msg.phase, msg.view, msg.blockHash);
    this.stats.votesReceived++;
    const r = hs.votes.add(subject, signer, msg.signature, this.view, signedHere);
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
    // A counted vote is in the tally; a QC is formed exactly when the tally reaches the quorum.
    const tally = r.kind === 'counted' ? hs.votes.tally(msg.view, msg.phase, msg.blockHash) : 0;
    invariant(
      r.kind !== 'counted' || (tally >= 1 && (r.qc === undefined || tally >= hs.roster.quorum)),
      `a ${msg.phase} vote of view ${msg.view} counted with a tally of ${tally}`,
    );
    if (r.kind === 'counted' && r.qc !== undefined) {
      // The QC formed is for exactly what the votes signed.
      invariant(
        r.qc.height === hs.height &&
          r.qc.view === msg.view &&
          r.qc.phase.kind === msg.phase &&
          bytesEqual(r.qc.blockHash, msg.blockHash) &&
          bytesEqual(r.qc.validatorSetHash, hs.roster.hash),
        `a QC formed from ${msg.phase} votes of view ${msg.view} names another subject`,
      );
      this.stats.qcsFormed++;
      this.out.push({ kind: 'Broadcast', msg: { kind: 'QcMsg', qc: r.qc } });
      this.useQc(r.qc);
    }
  }

  private qcMessage(from: string, qc: Qc): void {
    invariant(qc.height === this.hs!.height, `a QC of height ${qc.height} handled at ${this.hs!.height}`);
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
    // The port's contract: a QC it passes names this height's validator set.
    invariant(
      problem !== undefined || bytesEqual(qc.validatorSetHash, hs.roster.hash),
      `a QC of another validator set passed verification at height ${hs.height}`,
    );
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
    invariant(qc.height === hs.height, `a QC of height ${qc.height} used at height ${hs.height}`);
    invariant(
      qc.view <= this.view + VIEWS_AHEAD_MAX,
      `a QC of view ${qc.view} used at view ${this.view}, beyond the window`,
    );
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
      // 2f+1 Commit votes of a view stand on that view's one Prepare QC (at most f validators are faulty).
      const prepared = hs.prepareQcs.get(qc.view);
      invariant(
        prepared === undefined || bytesEqual(prepared.blockHash, qc.blockHash),
        `the commit certificate of view ${qc.view} at height ${hs.height} is for another block than its Prepare QC`,
      );
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
    // The lock (loaded at start, so not always among the QCs seen) is the one Prepare QC of its view.
    invariant(
      this.lockedQc === undefined ||
        this.lockedQc.view !== qc.view ||
        bytesEqual(this.lockedQc.blockHash, qc.blockHash),
      `two Prepare QCs at height ${hs.height} view ${qc.view}: the lock and one seen now`,
    );
    hs.prepareQcs.set(qc.view, qc);
    hs.prepareQcAtMs ??= this.nowMs;
    const lockBefore = this.lockedQc?.view ?? -1;
    if (this.highQc === undefined || qc.view > this.highQc.view) this.highQc = qc;
    if (this.lockedQc === undefined || qc.view > this.lockedQc.view) this.lockedQc = qc;
    invariant(
      this.lockedQc.view >= lockBefore && this.lockedQc.view >= qc.view,
      `the lock went from view ${lockBefore} to ${this.lockedQc.view} on a QC of view ${qc.view}`,
    );
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
    const qc = hs.commitQc;
    invariant(
      qc !== undefined && qc.height === hs.height && qc.phase.kind === 'Commit',
      `a commit at height ${hs.height} without a commit certificate of that height`,
    );
    // Only a block this peer executed and found valid is committed.
    invariant(
      hs.block(qc.blockHash)?.execution === 'ok',
      `commit of a block at height ${hs.height} that is not executed as valid`,
    );
    assertQcSigners(qc, hs.roster);
    hs.committing = true;
    this.out.push({ kind: 'CancelTimer' });
    this.out.push({ kind: 'Commit', height: hs.height, blockHash: qc.blockHash, certificate: qc });
  }

  private newView(from: string, msg: Msg<'NewView'>): void {
    const hs = this.hs!;
    invariant(msg.height === hs.height, `a NEW_VIEW of height ${msg.height} handled at ${hs.height}`);
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
    // An observer follows too (it sends nothing), so its view and leader are the validators'.
    if (join !== undefined && join > this.view) this.advanceView(join, 'joined');
    else this.tryPropose();
  }

  private payload(msg: Msg<'Payload'>): void {
    const hs = this.hs!;
    invariant(msg.height === hs.height, `a payload of height ${msg.height} handled at ${hs.height}`);
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
    // Payloads are asked only for blocks of certificates this peer accepted, never for one it holds.
    invariant(!hs.blocks.has(hex), `a payload asked for a block already held at height ${hs.height}`);
    hs.payloadAsked.add(hex);
    this.out.push({ kind: 'Broadcast', msg: { kind: 'PayloadRequest', height: hs.height, blockHash } });
  }

  private evidence(finding: Extract<BftEffect, { kind: 'Evidence' }>['finding']): void {
    // A refused proposal is recorded with a stable code of the engine that fits the record's field.
    invariant(
      finding.kind !== 'InvalidProposal' ||
        (/^[a-z][a-z0-9_]*$/.test(finding.reason) &&
          finding.reason.length <= INVALID_PROPOSAL_REASON_BYTES_MAX),
      `invalid-proposal evidence with the reason ${finding.kind === 'InvalidProposal' ? finding.reason : ''}`,
    );
    if (finding.kind === 'DoubleVote') {
      // The pair the vote box kept: one signer, one (height, view, phase), two different blocks.
      const { first: a, second: b } = finding;
      invariant(
        a.height === b.height &&
          a.view === b.view &&
          a.phase === b.phase &&
          !bytesEqual(a.blockHash, b.blockHash) &&
          finding.signerIndex >= 0 &&
          finding.signerIndex < this.hs!.roster.size,
        `double-vote evidence of index ${finding.signerIndex} that is not two conflicting votes`,
      );
    }
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
      roundMs: this.roundMs,
      nowMs: this.nowMs,
      options: this.o,
    });
  }
}
