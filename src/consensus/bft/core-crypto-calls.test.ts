// The pairings the core asks of its VoteCrypto (BLS in the node: each verify is a pairing, ~1–2 ms): a
// collector does not verify the vote it has just signed itself, and still verifies every other vote.

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
import { type BftMessage, DEFAULT_PACEMAKER, type Qc, type VoteCrypto, type VoteSubject } from './types.js';

const CHAIN = 'core-crypto-calls';
const keys = Array.from({ length: 4 }, (_, i) => BlsKeyPair.fromSeed(new Uint8Array(32).fill(90 + i)));
const ids = keys.map((_, i) => `ed0120${toHex(new Uint8Array(32).fill(0x50 + i)).toUpperCase()}`);
const roster = new ValidatorSet(
  ids.map((peer, i) => ({ peer, blsKey: publicKeyToText(keys[i]!.publicKey) })),
);
const keyOf = (rosterIndex: number) => keys[ids.indexOf(roster.validators[rosterIndex]!.peer)]!;
const peerOf = (rosterIndex: number) => roster.validators[rosterIndex]!.peer;
const plan = new Plan(CHAIN, 2, 4);
const LEADER = plan.leader(0);
const [, OTHER_COLLECTOR] = plan.collectors(0, 2) as [number, number];
const hashA = new Uint8Array(32).fill(0xa2);

/** BlsVoteCrypto that counts the verifications asked of it. */
class CountingCrypto implements VoteCrypto {
  votes = 0;
  qcs = 0;
  readonly inner: BlsVoteCrypto;
  constructor(rosterIndex: number) {
    this.inner = new BlsVoteCrypto(CHAIN, keyOf(rosterIndex));
  }
  sign(s: VoteSubject): Uint8Array {
    return this.inner.sign(s);
  }
  verifyVote(s: VoteSubject, i: number, r: ValidatorSet, sig: Uint8Array): boolean {
    this.votes++;
    return this.inner.verifyVote(s, i, r, sig);
  }
  aggregate(s: VoteSubject, v: { index: number; signature: Uint8Array }[], r: ValidatorSet): Qc {
    return this.inner.aggregate(s, v, r);
  }
  verifyQc(qc: Qc, r: ValidatorSet) {
    this.qcs++;
    return this.inner.verifyQc(qc, r);
  }
}

function core(selfIndex: number): { c: BftCore; crypto: CountingCrypto } {
  const crypto = new CountingCrypto(selfIndex);
  const c = new BftCore({
    chainId: CHAIN,
    self: peerOf(selfIndex),
    crypto,
    pacemaker: DEFAULT_PACEMAKER,
    collectorsK: 2,
  });
  c.step({ kind: 'Start', height: 2, roster, nowMs: 0, pending: false });
  return { c, crypto };
}

const subject = (phase: 'Prepare' | 'Commit'): VoteSubject => ({
  phase,
  height: 2,
  view: 0,
  blockHash: hashA,
  validatorSetHash: roster.hash,
});
const signed = (i: number, phase: 'Prepare' | 'Commit') =>
  new BlsVoteCrypto(CHAIN, keyOf(i)).sign(subject(phase));
const send = (c: BftCore, from: string, msg: BftMessage) => c.step({ kind: 'Message', from, msg, nowMs: 1 });

describe('BFT core: verifications asked of the vote crypto', () => {
  it('a collector counts the vote it signed itself without verifying it', () => {
    const { c, crypto } = core(OTHER_COLLECTOR);
    send(c, peerOf(LEADER), {
      kind: 'Proposal',
      height: 2,
      view: 0,
      blockHash: hashA,
      block: new Uint8Array([1]),
    });
    c.step({ kind: 'Executed', height: 2, blockHash: hashA, headerView: 0, ok: true, nowMs: 2 });
    assert.equal(c.stats.votesSent, 1, 'it voted Prepare');
    assert.equal(c.stats.votesReceived, 1, 'and counted its own vote as a collector');
    assert.equal(crypto.votes, 0, 'its own fresh signature is not verified');
    // A vote from another signer is verified, and two more make the quorum with the own vote.
    const others = [0, 1, 2, 3].filter((i) => i !== OTHER_COLLECTOR);
    for (const i of others.slice(0, 2)) {
      const msg: BftMessage = {
        kind: 'Vote',
        phase: 'Prepare',
        height: 2,
        view: 0,
        blockHash: hashA,
        signature: signed(i, 'Prepare'),
      };
      send(c, peerOf(i), msg);
    }
    assert.equal(crypto.votes, 2);
    assert.equal(c.stats.qcsFormed, 1);
    assert.equal(c.stats.rejectedMessages, 0);
  });
});
