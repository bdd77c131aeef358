// The core against numbers a peer makes up: a correctly signed vote, a NEW_VIEW, a certificate or any
// message naming a view or height far above this peer's own is dropped and counted (bounds.ts), and
// leaves nothing behind that stops the next QC from forming. And the safety assertions at the point of
// action: each one stops the core, before it signs, when a planted violation reaches it.

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../../modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BlsKeyPair } from '../../crypto/bls.js';
import { publicKeyToText } from '../../crypto/keys.js';
import { toHex } from '../../util/hex.js';
import { ValidatorSet } from '../validator-set.js';
import { BlsVoteCrypto } from './bls-vote-crypto.js';
import { VIEWS_AHEAD_MAX } from './bounds.js';
import { BftCore } from './core.js';
import { Plan } from './plan.js';
import {
  type BftEffect,
  type BftMessage,
  ConsensusInvariantError,
  DEFAULT_PACEMAKER,
  type PlantedBug,
  type Qc,
  type SafetyState,
  type VoteCrypto,
  type VotePhase,
} from './types.js';

const CHAIN = 'core-bounds-test';
const H = 2;
const FAR = 1_000_000;
const keys = Array.from({ length: 4 }, (_, i) => BlsKeyPair.fromSeed(new Uint8Array(32).fill(40 + i)));
const ids = keys.map((_, i) => `ed0120${toHex(new Uint8Array(32).fill(0x50 + i)).toUpperCase()}`);
const roster = new ValidatorSet(
  ids.map((peer, i) => ({ peer, blsKey: publicKeyToText(keys[i]!.publicKey) })),
);
const keyOf = (r: number) => keys[ids.indexOf(roster.validators[r]!.peer)]!;
const peerOf = (r: number) => roster.validators[r]!.peer;
const crypto = (r: number) => new BlsVoteCrypto(CHAIN, keyOf(r));
const plan = new Plan(CHAIN, H, 4);
const hashA = new Uint8Array(32).fill(0xa1);
const hashB = new Uint8Array(32).fill(0xb1);
const block = (tag: number) => new Uint8Array([tag, 9, 9]);

function core(self: number, o: { plantedBug?: PlantedBug; crypto?: VoteCrypto; safety?: SafetyState } = {}) {
  const c = new BftCore({
    chainId: CHAIN,
    self: peerOf(self),
    crypto: o.crypto ?? crypto(self),
    pacemaker: DEFAULT_PACEMAKER,
    collectorsK: 1,
    ...(o.plantedBug === undefined ? {} : { plantedBug: o.plantedBug }),
  });
  c.step({
    kind: 'Start',
    height: H,
    roster,
    nowMs: 0,
    pending: false,
    ...(o.safety === undefined ? {} : { safety: o.safety }),
  });
  return c;
}

const subject = (phase: VotePhase, blockHash: Uint8Array, view: number, height = H) => ({
  phase,
  height,
  view,
  blockHash,
  validatorSetHash: roster.hash,
});
function vote(signer: number, blockHash: Uint8Array, view: number, height = H): BftMessage {
  const signature = crypto(signer).sign(subject('Prepare', blockHash, view, height));
  return { kind: 'Vote', phase: 'Prepare', height, view, blockHash, signature };
}
function qcOf(phase: VotePhase, blockHash: Uint8Array, signers: number[], view: number): Qc {
  const s = subject(phase, blockHash, view);
  return crypto(0).aggregate(
    s,
    signers.map((i) => ({ index: i, signature: crypto(i).sign(s) })),
    roster,
  );
}
const send = (c: BftCore, from: number, msg: BftMessage) =>
  c.step({ kind: 'Message', from: peerOf(from), msg, nowMs: 1 });
const qcBroadcast = (out: BftEffect[]) => out.some((e) => e.kind === 'Broadcast' && e.msg.kind === 'QcMsg');
/** Leader (and, with collectorsK 1, the only collector) of `view`, and the other three. */
const leaderOf = (view: number) => plan.leader(view);
const othersOf = (r: number) => [0, 1, 2, 3].filter((i) => i !== r);

describe('BFT core: far views and heights are dropped and counted', () => {
  it('a correctly signed vote for view 1,000,000 does not stop the collector forming the QC of its view', () => {
    const collector = leaderOf(0);
    const [a, b, byz] = othersOf(collector) as [number, number, number];
    const c = core(collector);
    // The collector of view 0 also collects view FAR when the plan rotates onto it: pick such a view.
    let far = FAR;
    while (plan.collectors(far, 1)[0] !== collector) far++;
    assert.deepEqual(send(c, byz, vote(byz, hashB, far)), []);
    send(c, a, vote(a, hashA, 0));
    send(c, b, vote(b, hashA, 0));
    const out = send(c, byz, vote(byz, hashA, 0));
    assert.ok(qcBroadcast(out), 'three votes of view 0 still make a Prepare QC');
    assert.equal(c.stats.farMessages, 1, 'the far vote is counted');
  });

  it('a vote within the window is kept, and votes below the window are stale', () => {
    const collector = leaderOf(0);
    const [a] = othersOf(collector) as [number];
    const c = core(collector);
    let near = VIEWS_AHEAD_MAX - 3;
    while (plan.collectors(near, 1)[0] !== collector) near++;
    assert.ok(near <= VIEWS_AHEAD_MAX);
    send(c, a, vote(a, hashA, near));
    assert.equal(c.stats.farMessages, 0);
    assert.equal(c.stats.votesReceived, 1);
  });

  it('a far NEW_VIEW is capped at the window; f+1 of them still make this peer join, a window at a time', () => {
    const self = leaderOf(0);
    const [a, b] = othersOf(self) as [number, number];
    const c = core(self);
    send(c, a, { kind: 'NewView', height: H, view: FAR });
    assert.equal(c.stats.farMessages, 1);
    assert.equal(c.report().view, 0, 'one peer (f = 1) does not move this peer');
    send(c, b, { kind: 'NewView', height: H, view: FAR });
    assert.equal(c.report().view, VIEWS_AHEAD_MAX, 'f+1 peers far ahead: joined at the edge of the window');
  });

  it('a quorum-signed Prepare QC for view 1,000,000 is not locked on, nor its highQc in a NEW_VIEW', () => {
    const self = leaderOf(0);
    const c = core(self);
    const far = qcOf('Prepare', hashB, [0, 1, 2], FAR);
    send(c, othersOf(self)[0]!, { kind: 'QcMsg', qc: far });
    send(c, othersOf(self)[1]!, { kind: 'NewView', height: H, view: 1, highQc: far, highBlock: block(2) });
    assert.equal(c.report().lockedQc, undefined);
    assert.equal(c.stats.farMessages, 2);
  });

  it('a message for a height far above this one gives no block-sync hint and is counted', () => {
    const c = core(leaderOf(0));
    const [a] = othersOf(leaderOf(0)) as [number];
    const out = send(c, a, vote(a, hashA, 0, H + FAR));
    assert.equal(
      out.some((e) => e.kind === 'Behind'),
      false,
    );
    assert.equal(c.stats.farMessages, 1);
    // Two heights on, within the window, is still a hint that this peer missed a commit.
    assert.ok(send(c, a, vote(a, hashA, 0, H + 2)).some((e) => e.kind === 'Behind'));
  });

  it('a proposal more than 8 views ahead is counted as far', () => {
    const c = core(leaderOf(0));
    const v = 20;
    send(c, plan.leader(v), { kind: 'Proposal', height: H, view: v, blockHash: hashA, block: block(1) });
    assert.equal(c.stats.farMessages, 1);
  });
});

describe('BFT core: safety assertions trip on planted violations', () => {
  const execute = (c: BftCore, view: number, blockHash: Uint8Array, from = leaderOf(view)) => {
    send(c, from, { kind: 'Proposal', height: H, view, blockHash, block: block(view) });
    return c.step({ kind: 'Executed', height: H, blockHash, headerView: view, ok: true, nowMs: 2 });
  };

  it('one Prepare vote per (height, view), checked against the durable record: a restart that forgets it is stopped', () => {
    const self = othersOf(leaderOf(0))[0]!;
    const first = core(self);
    const out = execute(first, 0, hashA);
    const safety = (out.find((e) => e.kind === 'Persist') as Extract<BftEffect, { kind: 'Persist' }>).safety;
    assert.equal(safety.prepareVote?.view, 0);
    // Honest restart: the in-memory record says it voted; no second vote, no assertion.
    const honest = core(self, { safety });
    assert.equal(honest.stats.votesSent, 0);
    execute(honest, 0, hashA);
    assert.equal(honest.stats.votesSent, 0);
    // Planted bug: the restarted core forgets what it voted; the durable record stops it — already at the
    // start step (memory behind the record it loaded), else at the second vote.
    let buggy: BftCore | undefined;
    assert.throws(
      () => {
        buggy = core(self, { safety, plantedBug: 'forget-lock-on-restart' });
        execute(buggy, 0, hashA);
      },
      (e: Error) =>
        e instanceof ConsensusInvariantError && /forgotten in memory|second Prepare vote/.test(e.message),
    );
    assert.equal(buggy?.stats.votesSent ?? 0, 0);
  });

  it('a Commit vote requires the lock to be its Prepare QC: a lock corrupted just before the vote trips it', () => {
    const self = othersOf(leaderOf(0))[0]!;
    const c = core(self);
    execute(c, 0, hashA);
    // Test-only seam: the lock is replaced by another QC of the same view just before the Prepare QC lands.
    (c as unknown as { lockedQc: Qc }).lockedQc = qcOf('Prepare', hashB, [0, 1, 2], 0);
    const votes = c.stats.votesSent;
    assert.throws(
      () => send(c, leaderOf(0), { kind: 'QcMsg', qc: qcOf('Prepare', hashA, [0, 1, 3], 0) }),
      // Caught as the QC lands (the lock is another Prepare QC of its view), else at the Commit vote.
      (e: Error) =>
        e instanceof ConsensusInvariantError &&
        /the lock and one seen now|without being locked on it/.test(e.message),
    );
    assert.equal(c.stats.votesSent, votes, 'no Commit vote signed');
  });

  it('the lock only grows across persists: a lock lost in memory trips at the next persist', () => {
    const self = othersOf(leaderOf(0))[0]!;
    const c = core(self);
    execute(c, 0, hashA);
    send(c, leaderOf(0), { kind: 'QcMsg', qc: qcOf('Prepare', hashA, [0, 1, 2], 0) }); // locks, votes Commit
    (c as unknown as { lockedQc: Qc | undefined }).lockedQc = undefined; // test-only seam
    // Caught at the end of the next step (the lock below the durable one), else at the next persist.
    assert.throws(
      () => {
        c.step({ kind: 'Timeout', height: H, view: 0, nowMs: 3000 });
        execute(c, 1, hashB);
      },
      (e: Error) =>
        e instanceof ConsensusInvariantError &&
        /below the durable one|the lock went from view 0/.test(e.message),
    );
  });

  it('a QC whose bitmap names fewer than a quorum is not used even when the crypto port passes it', () => {
    const self = othersOf(leaderOf(0))[0]!;
    const base = crypto(self);
    const lax: VoteCrypto = {
      sign: (s) => base.sign(s),
      verifyVote: (s, i, r, sig) => base.verifyVote(s, i, r, sig),
      aggregate: (s, v, r) => base.aggregate(s, v, r),
      verifyQc: () => undefined, // a broken verifier
    };
    const c = core(self, { crypto: lax });
    execute(c, 0, hashA);
    assert.throws(
      () => send(c, leaderOf(0), { kind: 'QcMsg', qc: qcOf('Prepare', hashA, [0, 1], 0) }),
      (e: Error) => e instanceof ConsensusInvariantError && /below the quorum/.test(e.message),
    );
    assert.equal(c.report().lockedQc, undefined);
  });
});
