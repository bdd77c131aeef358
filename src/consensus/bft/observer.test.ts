// An observer-role core (it votes on nothing) reports the validators' view and leader, and measures no
// round phases: its consensus answers agree with theirs and carry no averages of rounds it never ran.

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
import { DEFAULT_PACEMAKER, type Qc } from './types.js';

const CHAIN = 'observer-test';
const keys = Array.from({ length: 4 }, (_, i) => BlsKeyPair.fromSeed(new Uint8Array(32).fill(90 + i)));
const ids = keys.map((_, i) => `ed0120${toHex(new Uint8Array(32).fill(0x40 + i)).toUpperCase()}`);
const roster = new ValidatorSet(
  ids.map((peer, i) => ({ peer, blsKey: publicKeyToText(keys[i]!.publicKey) })),
);
const peerOf = (i: number) => roster.validators[i]!.peer;
const keyOf = (i: number) => keys[ids.indexOf(peerOf(i))]!;

function core(self: string, key: BlsKeyPair | undefined): BftCore {
  const c = new BftCore({
    chainId: CHAIN,
    self,
    crypto: new BlsVoteCrypto(CHAIN, key),
    pacemaker: DEFAULT_PACEMAKER,
    collectorsK: 2,
  });
  c.step({ kind: 'Start', height: 2, roster, nowMs: 0, pending: false });
  return c;
}

function commitQc(blockHash: Uint8Array): Qc {
  const s = { phase: 'Commit' as const, height: 2, view: 0, blockHash, validatorSetHash: roster.hash };
  const signers = [0, 1, 2];
  return new BlsVoteCrypto(CHAIN, keyOf(0)).aggregate(
    s,
    signers.map((i) => ({ index: i, signature: new BlsVoteCrypto(CHAIN, keyOf(i)).sign(s) })),
    roster,
  );
}

describe('an observer core', () => {
  it('joins the view f+1 validators moved to, naming the leader the validators name', () => {
    const observer = core('observer:ed0120FF', undefined);
    const validator = core(peerOf(3), keyOf(3));
    for (const c of [observer, validator]) {
      for (const from of [0, 1])
        c.step({
          kind: 'Message',
          from: peerOf(from),
          msg: { kind: 'NewView', height: 2, view: 5 },
          nowMs: 10,
        });
    }
    const [o, v] = [observer.report(), validator.report()];
    assert.equal(v.view, 5, 'the validator joined view 5');
    assert.equal(o.view, v.view, 'the observer is at the validators’ view');
    assert.equal(o.leaderIndex, v.leaderIndex, 'and names the same leader');
    assert.equal(o.selfIndex, -1);
    assert.equal(observer.stats.viewChanges, 1, 'it counted the view change it followed');
  });

  it('one validator alone ahead does not move it', () => {
    const observer = core('observer:ed0120FF', undefined);
    observer.step({
      kind: 'Message',
      from: peerOf(0),
      msg: { kind: 'NewView', height: 2, view: 5 },
      nowMs: 1,
    });
    assert.equal(observer.report().view, 0);
  });

  it('measures no phases for a height it saw committed (no samples)', () => {
    const observer = core('observer:ed0120FF', undefined);
    const hash = new Uint8Array(32).fill(0xc3);
    observer.step({
      kind: 'Message',
      from: peerOf(0),
      msg: { kind: 'QcMsg', qc: commitQc(hash) },
      nowMs: 14_000,
    });
    observer.step({ kind: 'Committed', height: 2, roster, pending: false, nowMs: 21_000 });
    assert.equal(observer.report().height, 3);
    assert.equal(observer.stats.phaseSamples, 0);
    assert.equal(observer.stats.lastPhases, undefined);
    // A validator that saw the same certificate measured its round.
    const validator = core(peerOf(3), keyOf(3));
    validator.step({
      kind: 'Message',
      from: peerOf(0),
      msg: { kind: 'QcMsg', qc: commitQc(hash) },
      nowMs: 14_000,
    });
    validator.step({ kind: 'Committed', height: 2, roster, pending: false, nowMs: 21_000 });
    assert.equal(validator.stats.phaseSamples, 1);
    assert.ok(validator.stats.lastPhases !== undefined);
  });
});
