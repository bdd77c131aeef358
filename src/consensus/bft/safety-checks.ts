// The safety rules, asserted at the point of action (docs/consensus.md "Invariants asserted"). Each
// check re-derives its verdict from the state it protects — the lock, the durable safety record, the
// certificate's raw signer bitmap — independently of the code path that decided to act, so a bug in that
// path (the simulator's planted bugs are such bugs) stops the peer before it signs or commits. A failure
// throws ConsensusInvariantError; the driver then stops the engine (`onFatal`), and nothing after the
// failed step runs.

import { bytesEqual, toHex } from '../../util/hex.js';
import type { ValidatorSet } from '../validator-set.js';
import { type BftEffect, invariant, type Qc, type SafetyState, type VotePhase } from './types.js';

const short = (h: Uint8Array) => toHex(h).slice(0, 12);

/**
 * Before a Prepare vote for `blockHash`: the block extends the lock (no lock, or the lock is on this
 * block — a height has one block per QC), or the proposal's justify is a Prepare QC for this block from
 * a view at least as high as the lock's.
 */
export function assertLockRule(blockHash: Uint8Array, justify: Qc | undefined, lock: Qc | undefined): void {
  if (lock === undefined || bytesEqual(lock.blockHash, blockHash)) return;
  const unlocks =
    justify !== undefined &&
    justify.phase.kind === 'Prepare' &&
    bytesEqual(justify.blockHash, blockHash) &&
    justify.view >= lock.view;
  invariant(
    unlocks,
    `a Prepare vote for ${short(blockHash)} breaks the lock on ${short(lock.blockHash)} (view ${lock.view}) ` +
      `with justify ${justify === undefined ? 'none' : `${short(justify.blockHash)} (view ${justify.view})`}`,
  );
}

/** Before a Commit vote on a Prepare QC: the lock is that very QC (same height, view and block). */
export function assertCommitFollowsLock(qc: Qc, lock: Qc | undefined): void {
  invariant(
    lock !== undefined &&
      lock.phase.kind === 'Prepare' &&
      qc.phase.kind === 'Prepare' &&
      lock.height === qc.height &&
      lock.view === qc.view &&
      bytesEqual(lock.blockHash, qc.blockHash),
    `a Commit vote on the Prepare QC of view ${qc.view} (${short(qc.blockHash)}) without being locked on it ` +
      `(lock: ${lock === undefined ? 'none' : `view ${lock.view}, ${short(lock.blockHash)}`})`,
  );
}

/**
 * Before a vote of `phase` at (height, view): the durable safety record (the state last made durable,
 * or loaded at start) holds no vote of that phase at this height in this view or a later one.
 */
export function assertFirstVote(
  durable: SafetyState | undefined,
  phase: VotePhase,
  height: number,
  view: number,
): void {
  if (durable === undefined || durable.height !== height) return;
  const prior = phase === 'Prepare' ? durable.prepareVote : durable.commitVote;
  invariant(
    prior === undefined || prior.view < view,
    `a second ${phase} vote at height ${height} view ${view}: the safety record holds one at view ${prior?.view}`,
  );
}

/** When a new safety record replaces the durable one at the same height, its lock's view did not go down. */
export function assertLockGrows(durable: SafetyState | undefined, next: SafetyState): void {
  if (durable === undefined || durable.height !== next.height || durable.lockedQc === undefined) return;
  invariant(
    next.lockedQc !== undefined && next.lockedQc.view >= durable.lockedQc.view,
    `the lock went from view ${durable.lockedQc.view} to ${next.lockedQc?.view ?? 'none'} at height ${next.height}`,
  );
}

/** Signers named by a certificate's raw bitmap over `size` roster slots (each bit is one index, once). */
function bitmapSigners(bitmap: Uint8Array, size: number): { count: number; beyond: boolean } {
  let count = 0;
  let beyond = false;
  for (let i = 0; i < bitmap.length * 8; i++) {
    if (((bitmap[i >> 3]! >> (i & 7)) & 1) === 0) continue;
    count++;
    if (i >= size) beyond = true;
  }
  return { count, beyond };
}

/**
 * Before a QC is used (lock, Commit vote, commit): its bitmap is sized for the roster, names no slot
 * beyond it, and sets at least a quorum of bits. For a QC this peer formed, `votes` are the signer
 * indexes it aggregated: each must be a distinct bit of the bitmap (the bit count equals the votes).
 */
export function assertQcSigners(qc: Qc, roster: ValidatorSet, votes?: readonly number[]): void {
  const where = `${qc.phase.kind} QC at height ${qc.height} view ${qc.view}`;
  invariant(
    qc.signers.length === Math.ceil(roster.size / 8),
    `${where}: a bitmap of ${qc.signers.length} bytes for ${roster.size} validators`,
  );
  const { count, beyond } = bitmapSigners(qc.signers, roster.size);
  invariant(!beyond, `${where}: the bitmap names a slot beyond the ${roster.size} validators`);
  invariant(count >= roster.quorum, `${where}: ${count} signers, below the quorum of ${roster.quorum}`);
  if (votes !== undefined) {
    invariant(count === votes.length, `${where}: ${votes.length} votes aggregated into ${count} signer bits`);
    for (const i of votes)
      invariant(
        i >= 0 && i < roster.size && ((qc.signers[i >> 3]! >> (i & 7)) & 1) === 1,
        `${where}: vote ${i} not in the bitmap`,
      );
  }
}

/** A view or height number of this peer's own state: a safe non-negative integer. */
export function isViewNumber(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0;
}

/**
 * Before the effects of a step run: every vote and proposal that leaves is preceded, in the same step,
 * by a Persist whose record names it (crash safety: a restarted peer never signs twice in one view).
 */
export function assertVotesPersisted(effects: readonly BftEffect[]): void {
  let record: SafetyState | undefined;
  for (const e of effects) {
    if (e.kind === 'Persist') record = e.safety;
    if (e.kind !== 'Send' && e.kind !== 'Broadcast') continue;
    const m = e.msg;
    if (m.kind === 'Vote') {
      const kept = m.phase === 'Prepare' ? record?.prepareVote : record?.commitVote;
      invariant(
        record?.height === m.height && kept?.view === m.view && bytesEqual(kept.blockHash, m.blockHash),
        `a ${m.phase} vote of height ${m.height} view ${m.view} leaves before a safety record holding it`,
      );
    } else if (m.kind === 'Proposal') {
      invariant(
        record?.height === m.height && record.proposedView === m.view,
        `a proposal of height ${m.height} view ${m.view} leaves before a safety record holding it`,
      );
    }
  }
}
