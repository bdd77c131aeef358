// The rule checker: checks every honest vote against the voting rules, not only the outcomes. It sits
// outside the core and sees what a peer makes durable and what it sends:
// - the safety records its SafetyStore made durable (a vote is recorded there before it leaves, so the
//   record carries the lock at the moment of voting, and a new prepareVote / commitVote in it is a vote,
//   including one a collector casts to itself),
// - the proposals the core was handed (their justify), and the votes its transport sends.
// Rules: a Prepare vote is for the block of the lock, or for a block whose justify (a Prepare QC for that
// block) is at least as recent as the lock; a Commit vote is for the block of the lock taken in that
// view; one vote per (height, view, phase) and peer; a vote leaves only after the record naming it is
// durable; at one height the durable lock never goes down (nor disappears on restart).

import type { BftMessage, Qc, SafetyState, VotePhase } from '../consensus/bft/types.js';
import { toHex } from '../util/hex.js';

type Proposal = Extract<BftMessage, { kind: 'Proposal' }>;
type Vote = Extract<BftMessage, { kind: 'Vote' }>;

interface Durable {
  height: number;
  /** The highest-view lock any durable record held at `height`. */
  lock: Qc | undefined;
  prepareVote: SafetyState['prepareVote'];
  commitVote: SafetyState['commitVote'];
}

const short = (b: Uint8Array) => toHex(b).slice(0, 12);

export class RuleChecker {
  failure: string | undefined;
  readonly stats = { records: 0, prepareVotes: 0, commitVotes: 0, sentVotes: 0 };
  private readonly durable = new Map<string, Durable>();
  /** "peer/height/view/blockHex" → the justify views (-1: none) of the proposals handed to the core. */
  private readonly proposals = new Map<string, Set<number>>();
  /** "peer/height/view/phase" → the block voted for. */
  private readonly votes = new Map<string, string>();

  private fail(what: string): void {
    this.failure ??= `rule: ${what}`;
  }

  /** The core of `peer` was handed proposal `p`. */
  proposal(peer: string, p: Proposal): void {
    const k = `${peer}/${p.height}/${p.view}/${toHex(p.blockHash)}`;
    let s = this.proposals.get(k);
    if (s === undefined) {
      s = new Set();
      this.proposals.set(k, s);
    }
    const j = p.justify;
    s.add(j !== undefined && toHex(j.blockHash) === toHex(p.blockHash) ? j.view : -1);
  }

  private once(peer: string, height: number, view: number, phase: VotePhase, blockHash: Uint8Array): void {
    const k = `${peer}/${height}/${view}/${phase}`;
    const hex = toHex(blockHash);
    const prior = this.votes.get(k);
    if (prior === undefined) this.votes.set(k, hex);
    else if (prior !== hex)
      this.fail(
        `${peer} voted ${phase} twice at height ${height} view ${view}: ${prior.slice(0, 12)} and ${hex.slice(0, 12)}`,
      );
  }

  /** A safety record of `peer` became durable. */
  recorded(peer: string, s: SafetyState): void {
    this.stats.records++;
    const before = this.durable.get(peer);
    const same = before !== undefined && before.height === s.height;
    const prior = same ? before.lock : undefined;
    if (prior !== undefined && (s.lockedQc === undefined || s.lockedQc.view < prior.view))
      this.fail(
        `${peer} lock went down at height ${s.height}: view ${prior.view} → ${s.lockedQc?.view ?? 'none'}`,
      );
    const lock =
      prior !== undefined && (s.lockedQc === undefined || s.lockedQc.view < prior.view) ? prior : s.lockedQc;
    const pv = s.prepareVote;
    if (pv !== undefined && !(same && sameVote(before.prepareVote, pv))) {
      this.stats.prepareVotes++;
      this.once(peer, s.height, pv.view, 'Prepare', pv.blockHash);
      this.checkPrepare(peer, s.height, pv, lock);
    }
    const cv = s.commitVote;
    if (cv !== undefined && !(same && sameVote(before.commitVote, cv))) {
      this.stats.commitVotes++;
      this.once(peer, s.height, cv.view, 'Commit', cv.blockHash);
      if (
        s.lockedQc === undefined ||
        s.lockedQc.view !== cv.view ||
        toHex(s.lockedQc.blockHash) !== toHex(cv.blockHash)
      )
        this.fail(
          `${peer} Commit vote at height ${s.height} view ${cv.view} for ${short(cv.blockHash)} is not for the lock just taken (lock ${s.lockedQc === undefined ? 'none' : `view ${s.lockedQc.view} ${short(s.lockedQc.blockHash)}`})`,
        );
    }
    this.durable.set(peer, { height: s.height, lock, prepareVote: pv, commitVote: cv });
  }

  private checkPrepare(
    peer: string,
    height: number,
    v: { view: number; blockHash: Uint8Array },
    lock: Qc | undefined,
  ): void {
    if (lock === undefined || toHex(lock.blockHash) === toHex(v.blockHash)) return;
    const justifies = this.proposals.get(`${peer}/${height}/${v.view}/${toHex(v.blockHash)}`);
    if (justifies !== undefined && [...justifies].some((j) => j >= lock.view)) return;
    this.fail(
      `${peer} Prepare vote at height ${height} view ${v.view} for ${short(v.blockHash)} ignores its lock (view ${lock.view} ${short(lock.blockHash)}; justify views ${justifies === undefined ? 'none seen' : [...justifies].join(',')})`,
    );
  }

  /** `peer`'s transport sends vote `m`: its durable record must already name it. */
  sent(peer: string, m: Vote): void {
    this.stats.sentVotes++;
    this.once(peer, m.height, m.view, m.phase, m.blockHash);
    const d = this.durable.get(peer);
    const rec = d?.height === m.height ? (m.phase === 'Prepare' ? d.prepareVote : d.commitVote) : undefined;
    if (
      rec === undefined ||
      rec.view < m.view ||
      (rec.view === m.view && toHex(rec.blockHash) !== toHex(m.blockHash))
    )
      this.fail(
        `${peer} sent a ${m.phase} vote (height ${m.height} view ${m.view}) before a durable record of it`,
      );
  }
}

function sameVote(a: SafetyState['prepareVote'], b: { view: number; blockHash: Uint8Array }): boolean {
  return a !== undefined && a.view === b.view && toHex(a.blockHash) === toHex(b.blockHash);
}
