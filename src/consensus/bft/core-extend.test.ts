// Progress-extended views: a view timer that expires while the view's proposal, received in time, is
// still being executed here is armed again (no NEW_VIEW), up to the pacemaker's longest timeout from the
// view's start; with the option off, or past that bound, the view ends at its timeout.

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
import { type BftEffect, DEFAULT_PACEMAKER } from './types.js';

const CHAIN = 'core-extend';
const keys = Array.from({ length: 4 }, (_, i) => BlsKeyPair.fromSeed(new Uint8Array(32).fill(60 + i)));
const ids = keys.map((_, i) => `ed0120${toHex(new Uint8Array(32).fill(0x60 + i)).toUpperCase()}`);
const roster = new ValidatorSet(
  ids.map((peer, i) => ({ peer, blsKey: publicKeyToText(keys[i]!.publicKey) })),
);
const peerOf = (rosterIndex: number) => roster.validators[rosterIndex]!.peer;
const keyOf = (rosterIndex: number) => keys[ids.indexOf(peerOf(rosterIndex))]!;
const LEADER = new Plan(CHAIN, 2, 4).leader(0);
const FOLLOWER = (LEADER + 1) % 4;
const hashA = new Uint8Array(32).fill(0xe1);
const pacemaker = { ...DEFAULT_PACEMAKER, baseMs: 1000, maxMs: 10_000, jitterPermille: 0 };

/** A follower that received view 0's proposal at 100 ms and is executing its block. */
function checking(extendWhileChecking: boolean): BftCore {
  const c = new BftCore({
    chainId: CHAIN,
    self: peerOf(FOLLOWER),
    crypto: new BlsVoteCrypto(CHAIN, keyOf(FOLLOWER)),
    pacemaker: { ...pacemaker, extendWhileChecking },
    collectorsK: 2,
  });
  c.step({ kind: 'Start', height: 2, roster, nowMs: 0, pending: false });
  const effects = c.step({
    kind: 'Message',
    from: peerOf(LEADER),
    msg: { kind: 'Proposal', height: 2, view: 0, blockHash: hashA, block: new Uint8Array([1]) },
    nowMs: 100,
  });
  assert.ok(
    effects.some((e) => e.kind === 'Execute'),
    'the block is handed to execution',
  );
  assert.ok(
    effects.some((e) => e.kind === 'SetTimer' && e.view === 0),
    'the view timer is armed',
  );
  return c;
}

const newView = (effects: BftEffect[]) =>
  effects.some((e) => e.kind === 'Broadcast' && e.msg.kind === 'NewView');
const timeout = (c: BftCore, nowMs: number) => c.step({ kind: 'Timeout', height: 2, view: 0, nowMs });

describe('BFT core: progress-extended views', () => {
  it('re-arms the timer while the proposal is checked, then votes once the check ends', () => {
    const c = checking(true);
    const first = timeout(c, 1100);
    assert.equal(newView(first), false, 'the view goes on');
    assert.deepEqual(
      first.filter((e) => e.kind === 'SetTimer').map((e) => e.kind === 'SetTimer' && e.view),
      [0],
    );
    assert.equal(timeout(c, 2100).length, 1);
    assert.equal(c.report().view, 0);
    assert.equal(c.stats.viewChanges, 0);
    assert.equal(c.stats.viewsExtended, 2);
    const done = c.step({
      kind: 'Executed',
      height: 2,
      blockHash: hashA,
      headerView: 0,
      ok: true,
      nowMs: 2500,
    });
    assert.ok(
      done.some((e) => e.kind === 'Send' && e.msg.kind === 'Vote'),
      'it votes Prepare in view 0',
    );
  });

  it('ends the view at the longest timeout from its start, however long the check', () => {
    const c = checking(true);
    assert.equal(newView(timeout(c, 9000)), false);
    // The view started at 100 ms (the proposal began the round): 10 s later it is over.
    assert.equal(newView(timeout(c, 10_100)), true);
    assert.equal(c.stats.viewChanges, 1);
    assert.equal(c.stats.causes.quorum_timeout, 1);
  });

  it('ends the view at its timeout with the option off', () => {
    const c = checking(false);
    assert.equal(newView(timeout(c, 1100)), true);
    assert.equal(c.stats.viewsExtended, 0);
  });
});
