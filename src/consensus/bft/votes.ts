// Vote intake at a collector (design step 3–4): single votes are verified here (only collectors verify
// single votes), counted per (view, phase, block), and turned into a QC the moment a quorum of distinct
// signers is reached. A second vote by the same signer for another block in the same (view, phase) is
// a double vote: the pair is returned as evidence and the second vote is not counted.

import { toHex } from '../../util/hex.js';
import type { ValidatorSet } from '../validator-set.js';
import { invariant, type Qc, type VoteCrypto, type VotePhase, type VoteSubject } from './types.js';

interface Cast {
  blockHex: string;
  subject: VoteSubject;
  signature: Uint8Array;
}

export type VoteOutcome =
  | { kind: 'counted'; qc?: Qc }
  | { kind: 'duplicate' }
  | { kind: 'bad_signature' }
  | { kind: 'double'; first: Cast; second: Cast };

/** Votes of one height; dropped as a whole when the height commits. Bounded by roster × views kept. */
export class VoteBox {
  private readonly casts = new Map<string, Map<number, Cast>>();
  private readonly formed = new Set<string>();
  /** Views older than this many below the newest seen are forgotten. */
  static readonly VIEWS_KEPT = 16;
  private newestView = 0;

  constructor(
    private readonly roster: ValidatorSet,
    private readonly crypto: VoteCrypto,
  ) {}

  add(subject: VoteSubject, signerIndex: number, signature: Uint8Array): VoteOutcome {
    if (subject.view + VoteBox.VIEWS_KEPT < this.newestView) return { kind: 'duplicate' };
    const slot = `${subject.view}|${subject.phase}`;
    let bySigner = this.casts.get(slot);
    const blockHex = toHex(subject.blockHash);
    const prior = bySigner?.get(signerIndex);
    if (prior !== undefined && prior.blockHex === blockHex) return { kind: 'duplicate' };
    if (!this.crypto.verifyVote(subject, signerIndex, this.roster, signature))
      return { kind: 'bad_signature' };
    const cast: Cast = { blockHex, subject, signature };
    if (prior !== undefined) return { kind: 'double', first: prior, second: cast };
    if (bySigner === undefined) {
      bySigner = new Map();
      this.casts.set(slot, bySigner);
      this.newestView = Math.max(this.newestView, subject.view);
      this.forgetOld();
    }
    bySigner.set(signerIndex, cast);
    const key = `${slot}|${blockHex}`;
    if (this.formed.has(key)) return { kind: 'counted' };
    const votes: { index: number; signature: Uint8Array }[] = [];
    for (const [index, c] of bySigner)
      if (c.blockHex === blockHex) votes.push({ index, signature: c.signature });
    if (votes.length < this.roster.quorum) return { kind: 'counted' };
    invariant(new Set(votes.map((v) => v.index)).size === votes.length, 'a QC counts each signer once');
    this.formed.add(key);
    return { kind: 'counted', qc: this.crypto.aggregate(subject, votes, this.roster) };
  }

  /** Distinct signers for (view, phase, block), for the commit-quorum tally the routes report. */
  tally(view: number, phase: VotePhase, blockHash: Uint8Array): number {
    const hex = toHex(blockHash);
    let n = 0;
    for (const c of this.casts.get(`${view}|${phase}`)?.values() ?? []) if (c.blockHex === hex) n++;
    return n;
  }

  private forgetOld(): void {
    for (const slot of this.casts.keys()) {
      const view = Number(slot.slice(0, slot.indexOf('|')));
      if (view + VoteBox.VIEWS_KEPT < this.newestView) this.casts.delete(slot);
    }
  }
}
