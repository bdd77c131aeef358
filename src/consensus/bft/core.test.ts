// The protocol core alone, fed messages by hand: what it accepts, what it refuses, what it records as
// evidence, and the ordering it promises (safety state durable before the vote it protects).

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../../modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BlsKeyPair } from '../../crypto/bls.js';
import { publicKeyToText } from '../../crypto/keys.js';
import { toHex } from '../../util/hex.js';
import { ValidatorSet } from '../validator-set.js';
import { BlsVoteCrypto } from './bls-vote-crypto.js';
import { BftCore } from './core.js';
import { Plan } from './plan.js';
import {
  type BftEffect,
  type BftMessage,
  ConsensusInvariantError,
  DEFAULT_PACEMAKER,
  type PlantedBug,
  type Qc,
  type VoteSubject,
} from './types.js';

const CHAIN = 'core-test';
const keys = Array.from({ length: 4 }, (_, i) => BlsKeyPair.fromSeed(new Uint8Array(32).fill(70 + i)));
const ids = keys.map((_, i) => `ed0120${toHex(new Uint8Array(32).fill(0x30 + i)).toUpperCase()}`);
const roster = new ValidatorSet(
  ids.map((peer, i) => ({ peer, blsKey: publicKeyToText(keys[i]!.publicKey) })),
);
const keyOf = (rosterIndex: number) => keys[ids.indexOf(roster.validators[rosterIndex]!.peer)]!;
const peerOf = (rosterIndex: number) => roster.validators[rosterIndex]!.peer;
const crypto = (rosterIndex: number) => new BlsVoteCrypto(CHAIN, keyOf(rosterIndex));
const plan = new Plan(CHAIN, 2, 4);
const LEADER = plan.leader(0);
const hashA = new Uint8Array(32).fill(0xa1);
const hashB = new Uint8Array(32).fill(0xb1);
const block = (tag: number) => new Uint8Array([tag, 1, 2, 3]);

function core(selfIndex: number, plantedBug?: PlantedBug): BftCore {
  const c = new BftCore({
    chainId: CHAIN,
    self: peerOf(selfIndex),
    crypto: crypto(selfIndex),
    pacemaker: DEFAULT_PACEMAKER,
    collectorsK: 2,
    ...(plantedBug === undefined ? {} : { plantedBug }),
  });
  c.step({ kind: 'Start', height: 2, roster, nowMs: 0, pending: false });
  return c;
}

function subject(phase: 'Prepare' | 'Commit', blockHash: Uint8Array, view = 0): VoteSubject {
  return { phase, height: 2, view, blockHash, validatorSetHash: roster.hash };
}

function vote(
  signerIndex: number,
  blockHash: Uint8Array,
  phase: 'Prepare' | 'Commit' = 'Prepare',
  signWith = signerIndex,
): BftMessage {
  const signature = crypto(signWith).sign(subject(phase, blockHash));
  return { kind: 'Vote', phase, height: 2, view: 0, blockHash, signature };
}

function qcOf(phase: 'Prepare' | 'Commit', blockHash: Uint8Array, signers: number[], view = 0): Qc {
  const s = subject(phase, blockHash, view);
  return crypto(0).aggregate(
    s,
    signers.map((i) => ({ index: i, signature: crypto(i).sign(s) })),
    roster,
  );
}

const send = (c: BftCore, from: string, msg: BftMessage) => c.step({ kind: 'Message', from, msg, nowMs: 1 });
const evidence = (effects: BftEffect[]) =>
  effects
    .filter((e) => e.kind === 'Evidence')
    .map((e) => (e as Extract<BftEffect, { kind: 'Evidence' }>).finding);
const others = [0, 1, 2, 3].filter((i) => i !== LEADER);

describe('BFT core: refusals and evidence', () => {
  it('counts genuine votes into a QC at the quorum, and no earlier', () => {
    const c = core(LEADER);
    assert.equal(send(c, peerOf(others[0]!), vote(others[0]!, hashA)).length, 0);
    assert.equal(send(c, peerOf(others[1]!), vote(others[1]!, hashA)).length, 0);
    const formed = send(c, peerOf(others[2]!), vote(others[2]!, hashA));
    const qc = formed.find((e) => e.kind === 'Broadcast' && e.msg.kind === 'QcMsg');
    assert.ok(qc, 'a Prepare QC is broadcast at 3 of 4 votes');
  });

  it('refuses a forged vote (signed with another key) without counting it or calling it evidence', () => {
    const c = core(LEADER);
    send(c, peerOf(others[0]!), vote(others[0]!, hashA));
    send(c, peerOf(others[1]!), vote(others[1]!, hashA));
    const forged = send(c, peerOf(others[2]!), vote(others[2]!, hashA, 'Prepare', others[0]!));
    assert.deepEqual(forged, [], 'no QC from a forged third vote');
    assert.equal(c.stats.rejectedMessages, 1);
  });

  it('refuses a vote from a peer outside the roster', () => {
    const c = core(LEADER);
    const stranger = `ed0120${'EE'.repeat(32)}`;
    assert.deepEqual(send(c, stranger, vote(others[0]!, hashA)), []);
    assert.equal(c.stats.rejectedMessages, 1);
  });

  it('records a double vote (same signer, same height, view and phase, two blocks) as evidence', () => {
    const c = core(LEADER);
    send(c, peerOf(others[0]!), vote(others[0]!, hashA));
    const found = evidence(send(c, peerOf(others[0]!), vote(others[0]!, hashB)));
    assert.equal(found.length, 1);
    assert.equal(found[0]!.kind, 'DoubleVote');
  });

  it('records a QC whose aggregate does not verify as InvalidQc evidence, and does not lock on it', () => {
    const c = core(others[0]!);
    const good = qcOf('Prepare', hashA, others);
    const bad = { ...good, signature: qcOf('Prepare', hashB, others).signature };
    const found = evidence(send(c, peerOf(LEADER), { kind: 'QcMsg', qc: bad }));
    assert.equal(found.length, 1);
    assert.equal(found[0]!.kind, 'InvalidQc');
    assert.equal(c.report().lockedQc, undefined);
    // A second, different bad certificate from the same peer at this height is refused, not recorded again.
    const worse = { ...good, signature: qcOf('Prepare', hashB, [0, 1, 3]).signature };
    assert.deepEqual(evidence(send(c, peerOf(LEADER), { kind: 'QcMsg', qc: worse })), []);
    assert.equal(c.stats.rejectedMessages, 2);
    send(c, peerOf(LEADER), { kind: 'QcMsg', qc: good });
    assert.equal(toHex(c.report().lockedQc!.blockHash), toHex(hashA));
  });

  it('records a second, different proposal of the leader in one view as InvalidProposal evidence', () => {
    const c = core(others[0]!);
    const p = (h: Uint8Array, tag: number): BftMessage => ({
      kind: 'Proposal',
      height: 2,
      view: 0,
      blockHash: h,
      block: block(tag),
    });
    const first = send(c, peerOf(LEADER), p(hashA, 1));
    assert.ok(first.some((e) => e.kind === 'Execute'));
    const found = evidence(send(c, peerOf(LEADER), p(hashB, 2)));
    assert.equal(found.length, 1);
    assert.equal(found[0]!.kind, 'InvalidProposal');
    assert.equal((found[0] as { reason: string }).reason, 'double_proposal');
  });

  it('ignores a proposal from a peer that does not lead the view', () => {
    const c = core(others[0]!);
    const notLeader = others[1]!;
    const out = send(c, peerOf(notLeader), {
      kind: 'Proposal',
      height: 2,
      view: 0,
      blockHash: hashA,
      block: block(1),
    });
    assert.deepEqual(out, []);
  });
});

describe('BFT core: voting rules', () => {
  function proposeAndExecute(c: BftCore, view: number, blockHash: Uint8Array, justify?: Qc): BftEffect[] {
    const leader = peerOf(plan.leader(view));
    send(c, leader, {
      kind: 'Proposal',
      height: 2,
      view,
      blockHash,
      block: block(view),
      ...(justify ? { justify } : {}),
    });
    return c.step({ kind: 'Executed', height: 2, blockHash, headerView: view, ok: true, nowMs: 2 });
  }

  it('persists its safety state before the Prepare vote leaves', () => {
    const self = others[0]!;
    const c = core(self);
    const out = proposeAndExecute(c, 0, hashA);
    const persist = out.findIndex((e) => e.kind === 'Persist');
    const sent = out.findIndex((e) => e.kind === 'Send' && e.msg.kind === 'Vote');
    assert.ok(persist >= 0 && sent > persist, out.map((e) => e.kind).join(','));
  });

  it('a replica locked on A refuses to vote Prepare for B without a justifying QC; with the planted bug the lock-rule assertion stops it before it signs', () => {
    for (const bug of [undefined, 'prepare-ignores-lock'] as const) {
      const self = [0, 1, 2, 3].find((i) => i !== plan.leader(0) && i !== plan.leader(1))!;
      const c = core(self, bug);
      proposeAndExecute(c, 0, hashA);
      send(c, peerOf(plan.leader(0)), { kind: 'QcMsg', qc: qcOf('Prepare', hashA, [0, 1, 2]) });
      assert.equal(toHex(c.report().lockedQc!.blockHash), toHex(hashA));
      c.step({ kind: 'Timeout', height: 2, view: 0, nowMs: 3000 });
      assert.equal(c.report().view, 1);
      const votesBefore = c.stats.votesSent;
      if (bug === undefined) {
        const out = proposeAndExecute(c, 1, hashB);
        const voted =
          out.some((e) => e.kind === 'Send' && e.msg.kind === 'Vote') ||
          out.some((e) => e.kind === 'Persist');
        assert.equal(voted, false);
      } else {
        assert.throws(
          () => proposeAndExecute(c, 1, hashB),
          (e: Error) => e instanceof ConsensusInvariantError && /breaks the lock/.test(e.message),
        );
      }
      assert.equal(c.stats.votesSent, votesBefore, `no vote signed (planted bug ${bug})`);
    }
  });

  it('a replica locked on A votes for B re-proposed with a Prepare QC for B from a higher view than its lock', () => {
    const self = [0, 1, 2, 3].find((i) => ![0, 1, 2].map((v) => plan.leader(v)).includes(i)) ?? others[0]!;
    const c = core(self);
    proposeAndExecute(c, 0, hashA);
    send(c, peerOf(plan.leader(0)), { kind: 'QcMsg', qc: qcOf('Prepare', hashA, [0, 1, 2], 0) });
    c.step({ kind: 'Timeout', height: 2, view: 0, nowMs: 3000 });
    c.step({ kind: 'Timeout', height: 2, view: 1, nowMs: 9000 });
    assert.equal(c.report().view, 2);
    const justify = qcOf('Prepare', hashB, [0, 1, 2], 1);
    const leader = peerOf(plan.leader(2));
    send(c, leader, { kind: 'Proposal', height: 2, view: 2, blockHash: hashB, block: block(7), justify });
    // The block was built in view 1: its header keeps that view, which only a certificate's block may do.
    const out = c.step({
      kind: 'Executed',
      height: 2,
      blockHash: hashB,
      headerView: 1,
      ok: true,
      nowMs: 9001,
    });
    assert.ok(
      out.some((e) => e.kind === 'Persist'),
      out.map((e) => e.kind).join(','),
    );
    assert.equal(toHex(c.report().lockedQc!.blockHash), toHex(hashB), 'the lock moved up to the higher QC');
  });
});

describe('BFT core: a leader proposes once per view, even across a restart', () => {
  it('persists the proposed view before broadcasting, and after a restart in that view does not build again', () => {
    const c = new BftCore({
      chainId: CHAIN,
      self: peerOf(LEADER),
      crypto: crypto(LEADER),
      pacemaker: DEFAULT_PACEMAKER,
      collectorsK: 2,
    });
    const started = c.step({ kind: 'Start', height: 2, roster, nowMs: 0, pending: true });
    assert.ok(started.some((e) => e.kind === 'Build'));
    const out = c.step({ kind: 'Built', height: 2, view: 0, blockHash: hashA, block: block(1), nowMs: 1 });
    const persist = out.findIndex((e) => e.kind === 'Persist');
    const sent = out.findIndex((e) => e.kind === 'Broadcast' && e.msg.kind === 'Proposal');
    assert.ok(persist >= 0 && persist < sent, out.map((e) => e.kind).join(','));
    const safety = (out[persist] as Extract<BftEffect, { kind: 'Persist' }>).safety;
    assert.equal(safety.proposedView, 0);
    const again = new BftCore({
      chainId: CHAIN,
      self: peerOf(LEADER),
      crypto: crypto(LEADER),
      pacemaker: DEFAULT_PACEMAKER,
      collectorsK: 2,
    });
    const restarted = again.step({ kind: 'Start', height: 2, roster, safety, nowMs: 2, pending: true });
    assert.ok(!restarted.some((e) => e.kind === 'Build'), 'no second block for view 0');
  });
});

describe('BFT core: payloads survive a crash with the safety state', () => {
  it('persists the block it votes Prepare for and, restarted, serves it to a peer that asks', () => {
    const self = others[0]!;
    const c = core(self);
    send(c, peerOf(LEADER), { kind: 'Proposal', height: 2, view: 0, blockHash: hashA, block: block(5) });
    const out = c.step({ kind: 'Executed', height: 2, blockHash: hashA, headerView: 0, ok: true, nowMs: 2 });
    const persist = out.find((e) => e.kind === 'Persist') as Extract<BftEffect, { kind: 'Persist' }>;
    assert.deepEqual(
      persist.safety.blocks?.map((b) => toHex(b.block)),
      [toHex(block(5))],
    );
    const again = new BftCore({
      chainId: CHAIN,
      self: peerOf(self),
      crypto: crypto(self),
      pacemaker: DEFAULT_PACEMAKER,
      collectorsK: 2,
    });
    again.step({ kind: 'Start', height: 2, roster, safety: persist.safety, nowMs: 3, pending: false });
    const answer = send(again, peerOf(LEADER), { kind: 'PayloadRequest', height: 2, blockHash: hashA });
    const payload = answer.find((e) => e.kind === 'Send' && e.msg.kind === 'Payload');
    assert.ok(payload, 'the restarted peer still has the block it voted for');
  });
});
