// Vote intake at a collector (design step 3–4): single votes are verified here (only collectors verify
// single votes), counted per (view, phase, block), and turned into a QC the moment a quorum of distinct
// signers is reached. A second vote by the same signer for another block in the same (view, phase) is
// a double vote: the pair is returned as evidence and the second vote is not counted. Which views are
// kept is decided by the collector's OWN view (bounds.ts), never by the views votes name: a vote more
// than VIEWS_AHEAD_MAX above it is refused as far, one more than VIEWS_BEHIND_KEPT below it as stale.

import { bytesEqual, toHex } from '../../util/hex.js';
import type { ValidatorSet } from '../validator-set.js';
import { VIEWS_AHEAD_MAX, VIEWS_BEHIND_KEPT } from './bounds.js';
import { assertQcSigners, isViewNumber } from './safety-checks.js';
import { invariant, type Qc, type VoteCrypto, type VotePhase, type VoteSubject } from './types.js';

interface Cast {
  blockHex: string;
  subject: VoteSubject;
  signature: Uint8Array;
}

export type VoteOutcome =
  | { kind: 'counted'; qc?: Qc }
  | { kind: 'duplicate' }
  | { kind: 'stale' }
  | { kind: 'far' }
  | { kind: 'bad_signature' }
  | { kind: 'double'; first: Cast; second: Cast };

/** Votes of one height; dropped as a whole when the height commits. Bounded by roster × views kept. */
export class VoteBox {
  private readonly casts = new Map<string, Map<number, Cast>>();
  private readonly formed = new Set<string>();

  constructor(
    private readonly roster: ValidatorSet,
    private readonly crypto: VoteCrypto,
  ) {
    invariant(roster.size >= 1 && roster.quorum <= roster.size, `a vote box for ${roster.size} validators`);
  }

  /**
   * Counts a vote; `ownView` is the collector's current view, which alone decides what is kept.
   * `signedHere`: the collector's own vote, signed by it a moment ago, whose signature is not verified.
   */
  add(
    subject: VoteSubject,
    signerIndex: number,
    signature: Uint8Array,
    ownView: number,
    signedHere = false,
  ): VoteOutcome {
    // The caller resolved the signer in this roster and passes its own view and this roster's subject.
    invariant(
      Number.isSafeInteger(signerIndex) && signerIndex >= 0 && signerIndex < this.roster.size,
      `vote of signer ${signerIndex} in a roster of ${this.roster.size}`,
    );
    invariant(isViewNumber(ownView), `the collector's view ${ownView}`);
    invariant(bytesEqual(subject.validatorSetHash, this.roster.hash), 'a vote subject of another roster');
    if (subject.view > ownView + VIEWS_AHEAD_MAX) return { kind: 'far' };
    if (subject.view + VIEWS_BEHIND_KEPT < ownView) return { kind: 'stale' };
    const slot = `${subject.view}|${subject.phase}`;
    let bySigner = this.casts.get(slot);
    const blockHex = toHex(subject.blockHash);
    const prior = bySigner?.get(signerIndex);
    // A vote set is keyed by (view, phase): what it holds is of that view and phase.
    invariant(
      prior === undefined || (prior.subject.view === subject.view && prior.subject.phase === subject.phase),
      `slot ${slot} holds a vote of view ${prior?.subject.view} ${prior?.subject.phase}`,
    );
    if (prior !== undefined && prior.blockHex === blockHex) return { kind: 'duplicate' };
    if (!signedHere && !this.crypto.verifyVote(subject, signerIndex, this.roster, signature))
      return { kind: 'bad_signature' };
    const cast: Cast = { blockHex, subject, signature };
    if (prior !== undefined) return { kind: 'double', first: prior, second: cast };
    if (bySigner === undefined) {
      bySigner = new Map();
      this.casts.set(slot, bySigner);
      this.forgetBelow(ownView - VIEWS_BEHIND_KEPT);
    }
    bySigner.set(signerIndex, cast);
    invariant(bySigner.size <= this.roster.size, `${bySigner.size} votes in one slot of ${this.roster.size}`);
    const key = `${slot}|${blockHex}`;
    if (this.formed.has(key)) return { kind: 'counted' };
    const votes: { index: number; signature: Uint8Array }[] = [];
    for (const [index, c] of bySigner)
      if (c.blockHex === blockHex) votes.push({ index, signature: c.signature });
    invariant(
      votes.length <= this.roster.size,
      `${votes.length} votes for one block from ${this.roster.size}`,
    );
    if (votes.length < this.roster.quorum) return { kind: 'counted' };
    const qc = this.crypto.aggregate(subject, votes, this.roster);
    assertQcSigners(
      qc,
      this.roster,
      votes.map((v) => v.index),
    );
    this.formed.add(key);
    return { kind: 'counted', qc };
  }

  /** Distinct signers for (view, phase, block), for the commit-quorum tally the routes report. */
  tally(view: number, phase: VotePhase, blockHash: Uint8Array): number {
    const hex = toHex(blockHash);
    let n = 0;
    for (const c of this.casts.get(`${view}|${phase}`)?.values() ?? []) if (c.blockHex === hex) n++;
    invariant(n <= this.roster.size, `${n} distinct signers in a roster of ${this.roster.size}`);
    return n;
  }

  /** Views kept (for tests and reports): every one within the window around the collector's view. */
  views(): number[] {
    return [...new Set([...this.casts.keys()].map((s) => Number(s.slice(0, s.indexOf('|')))))].sort(
      (a, b) => a - b,
    );
  }

  private forgetBelow(view: number): void {
    for (const slot of this.casts.keys()) {
      const v = Number(slot.slice(0, slot.indexOf('|')));
      if (v < view) this.casts.delete(slot);
    }
    for (const key of this.formed) if (Number(key.slice(0, key.indexOf('|'))) < view) this.formed.delete(key);
    // Bounded by the window: two phases per view kept (VIEWS_BEHIND_KEPT below to VIEWS_AHEAD_MAX above).
    invariant(
      this.casts.size <= 2 * (VIEWS_AHEAD_MAX + VIEWS_BEHIND_KEPT + 2),
      `${this.casts.size} vote slots kept, beyond the view window`,
    );
  }
}
