// The round phases a validator reports (`lastPhases`) are measured from the start of the view that
// produced the committed block: a proposal seen in an earlier view does not make them negative.

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
import { DEFAULT_PACEMAKER, type Qc } from './types.js';

const CHAIN = 'phase-test';
const HEIGHT = 2;
const keys = Array.from({ length: 4 }, (_, i) => BlsKeyPair.fromSeed(new Uint8Array(32).fill(110 + i)));
const ids = keys.map((_, i) => `ed0120${toHex(new Uint8Array(32).fill(0x50 + i)).toUpperCase()}`);
const roster = new ValidatorSet(
  ids.map((peer, i) => ({ peer, blsKey: publicKeyToText(keys[i]!.publicKey) })),
);
const peerOf = (i: number) => roster.validators[i]!.peer;
const crypto = (i: number) => new BlsVoteCrypto(CHAIN, keys[ids.indexOf(peerOf(i))]!);
const plan = new Plan(CHAIN, HEIGHT, 4);

function commitQc(blockHash: Uint8Array, view: number): Qc {
  const s = { phase: 'Commit' as const, height: HEIGHT, view, blockHash, validatorSetHash: roster.hash };
  return crypto(0).aggregate(
    s,
    [0, 1, 2].map((i) => ({ index: i, signature: crypto(i).sign(s) })),
    roster,
  );
}

/** A validator that leads neither view 0 nor view 1 (it only follows). */
function follower(): BftCore {
  const self = [0, 1, 2, 3].find((i) => i !== plan.leader(0) && i !== plan.leader(1))!;
  const c = new BftCore({
    chainId: CHAIN,
    self: peerOf(self),
    crypto: crypto(self),
    pacemaker: DEFAULT_PACEMAKER,
    collectorsK: 2,
  });
  c.step({ kind: 'Start', height: HEIGHT, roster, nowMs: 0, pending: false });
  return c;
}

function propose(c: BftCore, view: number, blockHash: Uint8Array, nowMs: number): void {
  c.step({
    kind: 'Message',
    from: peerOf(plan.leader(view)),
    msg: { kind: 'Proposal', height: HEIGHT, view, blockHash, block: new Uint8Array([view, 1, 2]) },
    nowMs,
  });
  c.step({ kind: 'Executed', height: HEIGHT, blockHash, headerView: view, ok: true, nowMs });
}

describe('BFT phase timings', () => {
  it('a block committed in view 1 is measured from view 1, not from the proposal of view 0', () => {
    const c = follower();
    const hashA = new Uint8Array(32).fill(0xa2);
    const hashB = new Uint8Array(32).fill(0xb2);
    propose(c, 0, hashA, 1_000); // view 0's round begins with its proposal
    c.step({ kind: 'Timeout', height: HEIGHT, view: 0, nowMs: 3_000 }); // view 1 starts at 3 s
    assert.equal(c.report().view, 1);
    propose(c, 1, hashB, 4_000);
    c.step({
      kind: 'Message',
      from: peerOf(0),
      msg: { kind: 'QcMsg', qc: commitQc(hashB, 1) },
      nowMs: 5_500,
    });
    c.step({ kind: 'Committed', height: HEIGHT, roster, pending: false, nowMs: 6_000 });
    const p = c.stats.lastPhases;
    console.log(`phases after a view change: ${JSON.stringify(p)}`);
    assert.deepEqual(p, { proposeMs: 1_000, collectVotesMs: 1_500, commitMs: 500, totalMs: 3_000 });
  });

  it('a block committed in its first view is measured from that view’s start', () => {
    const c = follower();
    const hash = new Uint8Array(32).fill(0xc2);
    propose(c, 0, hash, 1_000);
    c.step({ kind: 'Message', from: peerOf(0), msg: { kind: 'QcMsg', qc: commitQc(hash, 0) }, nowMs: 1_800 });
    c.step({ kind: 'Committed', height: HEIGHT, roster, pending: false, nowMs: 2_000 });
    const p = c.stats.lastPhases;
    assert.ok(p !== undefined);
    for (const [phase, ms] of Object.entries(p)) assert.ok(ms >= 0, `${phase} = ${ms}`);
    assert.deepEqual(p, { proposeMs: 0, collectVotesMs: 800, commitMs: 200, totalMs: 1_000 });
  });
});
