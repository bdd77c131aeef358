// Each safety assertion, called with a good input and with a planted bad one: the bad one throws.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ValidatorSet } from '../validator-set.js';
import {
  assertCommitFollowsLock,
  assertFirstVote,
  assertLockGrows,
  assertLockRule,
  assertQcSigners,
  assertVotesPersisted,
} from './safety-checks.js';
import { type BftEffect, ConsensusInvariantError, type Qc } from './types.js';

const roster = new ValidatorSet(
  [0, 1, 2, 3].map((i) => ({
    peer: `ed0120${String(i).repeat(64)}`,
    blsKey: `ea0130${'ab'.repeat(48)}`,
  })),
);
const A = new Uint8Array(32).fill(1);
const B = new Uint8Array(32).fill(2);
const qc = (
  blockHash: Uint8Array,
  view: number,
  bits = 0b0111,
  phase: 'Prepare' | 'Commit' = 'Prepare',
): Qc => ({
  phase: { kind: phase },
  height: 5,
  view,
  epoch: 0,
  blockHash,
  validatorSetHash: roster.hash,
  signers: Uint8Array.of(bits),
  signature: new Uint8Array(96),
});
const trips = (f: () => void, re: RegExp) =>
  assert.throws(f, (e: Error) => e instanceof ConsensusInvariantError && re.test(e.message));

describe('safety assertions', () => {
  it('lock rule: no lock, same block, or a justify for the block at least as high as the lock', () => {
    assertLockRule(A, undefined, undefined);
    assertLockRule(A, undefined, qc(A, 3));
    assertLockRule(B, qc(B, 3), qc(A, 3));
    trips(() => assertLockRule(B, undefined, qc(A, 3)), /breaks the lock/);
    trips(() => assertLockRule(B, qc(B, 2), qc(A, 3)), /breaks the lock/);
    trips(() => assertLockRule(B, qc(A, 4), qc(A, 3)), /breaks the lock/);
    trips(() => assertLockRule(B, qc(B, 4, 0b0111, 'Commit'), qc(A, 3)), /breaks the lock/);
  });

  it('Commit vote: the lock is its Prepare QC (height, view and block)', () => {
    assertCommitFollowsLock(qc(A, 3), qc(A, 3));
    trips(() => assertCommitFollowsLock(qc(A, 3), undefined), /without being locked/);
    trips(() => assertCommitFollowsLock(qc(A, 3), qc(A, 4)), /without being locked/);
    trips(() => assertCommitFollowsLock(qc(A, 3), qc(B, 3)), /without being locked/);
    trips(() => assertCommitFollowsLock(qc(A, 3), { ...qc(A, 3), height: 6 }), /without being locked/);
  });

  it('one vote per (height, view, phase) against the durable record', () => {
    const rec = { height: 5, view: 3, prepareVote: { view: 3, blockHash: A } };
    assertFirstVote(rec, 'Prepare', 5, 4);
    assertFirstVote(rec, 'Commit', 5, 3);
    assertFirstVote(rec, 'Prepare', 6, 0);
    assertFirstVote(undefined, 'Prepare', 5, 3);
    trips(() => assertFirstVote(rec, 'Prepare', 5, 3), /second Prepare vote/);
    trips(() => assertFirstVote(rec, 'Prepare', 5, 2), /second Prepare vote/);
    trips(
      () => assertFirstVote({ height: 5, view: 3, commitVote: { view: 3, blockHash: A } }, 'Commit', 5, 3),
      /second Commit vote/,
    );
  });

  it('the lock grows between durable records of one height', () => {
    assertLockGrows({ height: 5, view: 3, lockedQc: qc(A, 3) }, { height: 5, view: 4, lockedQc: qc(B, 4) });
    assertLockGrows({ height: 5, view: 3, lockedQc: qc(A, 3) }, { height: 6, view: 0 });
    trips(
      () => assertLockGrows({ height: 5, view: 3, lockedQc: qc(A, 3) }, { height: 5, view: 4 }),
      /lock went from view 3 to none/,
    );
    trips(
      () =>
        assertLockGrows(
          { height: 5, view: 3, lockedQc: qc(A, 3) },
          { height: 5, view: 4, lockedQc: qc(A, 2) },
        ),
      /lock went from view 3 to 2/,
    );
  });

  it('QC signers from the raw bitmap: size, no slot beyond the roster, a quorum of bits, each vote once', () => {
    assertQcSigners(qc(A, 0, 0b0111), roster);
    assertQcSigners(qc(A, 0, 0b1111), roster, [0, 1, 2, 3]);
    trips(() => assertQcSigners(qc(A, 0, 0b0011), roster), /2 signers, below the quorum of 3/);
    trips(() => assertQcSigners(qc(A, 0, 0b10011), roster), /beyond the 4 validators/);
    trips(() => assertQcSigners({ ...qc(A, 0), signers: Uint8Array.of(7, 0) }, roster), /bitmap of 2 bytes/);
    // Four votes aggregated, one signer counted twice: only three bits.
    trips(() => assertQcSigners(qc(A, 0, 0b0111), roster, [0, 1, 2, 2]), /4 votes aggregated into 3/);
    trips(() => assertQcSigners(qc(A, 0, 0b0111), roster, [0, 1, 3]), /vote 3 not in the bitmap/);
  });
});

describe('votes and proposals leave only after a safety record that holds them', () => {
  const vote = (phase: 'Prepare' | 'Commit', view: number, blockHash: Uint8Array): BftEffect => ({
    kind: 'Send',
    to: 'collector',
    msg: { kind: 'Vote', phase, height: 5, view, blockHash, signature: new Uint8Array(96) },
  });
  const persist = (safety: Extract<BftEffect, { kind: 'Persist' }>['safety']): BftEffect => ({
    kind: 'Persist',
    safety,
  });
  const proposal: BftEffect = {
    kind: 'Broadcast',
    msg: { kind: 'Proposal', height: 5, view: 2, blockHash: A, block: Uint8Array.of(1) },
  };

  it('passes when each vote and proposal follows a Persist naming it', () => {
    assertVotesPersisted([
      persist({ height: 5, view: 1, prepareVote: { view: 1, blockHash: A } }),
      vote('Prepare', 1, A),
      persist({
        height: 5,
        view: 1,
        prepareVote: { view: 1, blockHash: A },
        commitVote: { view: 1, blockHash: A },
      }),
      vote('Commit', 1, A),
      persist({ height: 5, view: 2, proposedView: 2 }),
      proposal,
    ]);
  });

  it('trips on a vote before any Persist, a Persist of another block or view, and an unrecorded proposal', () => {
    trips(
      () => assertVotesPersisted([vote('Prepare', 1, A)]),
      /Prepare vote of height 5 view 1 leaves before/,
    );
    trips(
      () =>
        assertVotesPersisted([
          persist({ height: 5, view: 1, prepareVote: { view: 1, blockHash: B } }),
          vote('Prepare', 1, A),
        ]),
      /Prepare vote/,
    );
    trips(
      () =>
        assertVotesPersisted([
          persist({ height: 5, view: 1, prepareVote: { view: 1, blockHash: A } }),
          vote('Commit', 1, A),
        ]),
      /Commit vote/,
    );
    trips(
      () => assertVotesPersisted([persist({ height: 5, view: 2 }), proposal]),
      /a proposal of height 5 view 2/,
    );
  });
});
