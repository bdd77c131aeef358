// The safety record's writes (each one a file write and two fsyncs on the node): a leader makes its
// proposal and its own Prepare vote durable in one write, before either leaves; a follower writes once per
// vote. Every message still leaves after a record naming it (assertVotesPersisted).

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
import { assertVotesPersisted } from './safety-checks.js';
import { type BftEffect, DEFAULT_PACEMAKER } from './types.js';

const CHAIN = 'core-safety-writes';
const keys = Array.from({ length: 4 }, (_, i) => BlsKeyPair.fromSeed(new Uint8Array(32).fill(40 + i)));
const ids = keys.map((_, i) => `ed0120${toHex(new Uint8Array(32).fill(0x30 + i)).toUpperCase()}`);
const roster = new ValidatorSet(
  ids.map((peer, i) => ({ peer, blsKey: publicKeyToText(keys[i]!.publicKey) })),
);
const peerOf = (rosterIndex: number) => roster.validators[rosterIndex]!.peer;
const keyOf = (rosterIndex: number) => keys[ids.indexOf(peerOf(rosterIndex))]!;
const LEADER = new Plan(CHAIN, 2, 4).leader(0);
const FOLLOWER = (LEADER + 1) % 4;
const hashA = new Uint8Array(32).fill(0xa7);
const block = new Uint8Array([7, 7]);

function core(rosterIndex: number, pending: boolean): BftCore {
  const c = new BftCore({
    chainId: CHAIN,
    self: peerOf(rosterIndex),
    crypto: new BlsVoteCrypto(CHAIN, keyOf(rosterIndex)),
    pacemaker: DEFAULT_PACEMAKER,
    collectorsK: 2,
  });
  c.step({ kind: 'Start', height: 2, roster, nowMs: 0, pending });
  return c;
}

const persists = (effects: BftEffect[]) => effects.filter((e) => e.kind === 'Persist');

describe('BFT core: safety record writes', () => {
  it('a leader writes its proposal and its own Prepare vote in one record, before both leave', () => {
    const c = core(LEADER, true);
    const effects = c.step({ kind: 'Built', height: 2, view: 0, blockHash: hashA, block, nowMs: 5 });
    const writes = persists(effects);
    assert.equal(writes.length, 1, `${writes.length} safety writes for one proposal`);
    const w = writes[0]!;
    assert.ok(w.kind === 'Persist');
    assert.equal(w.safety.proposedView, 0);
    assert.equal(w.safety.prepareVote?.view, 0);
    assert.deepEqual(w.safety.prepareVote?.blockHash, hashA);
    // The one write comes first: the proposal and the vote leave after it.
    assert.equal(effects.indexOf(w), 0);
    assert.ok(effects.some((e) => e.kind === 'Broadcast' && e.msg.kind === 'Proposal'));
    assert.equal(c.stats.votesSent, 1);
    assert.equal(c.stats.safetyWritesSaved, 1);
    assertVotesPersisted(effects);
  });

  it('a follower still writes once per vote', () => {
    const c = core(FOLLOWER, false);
    const proposal = c.step({
      kind: 'Message',
      from: peerOf(LEADER),
      msg: { kind: 'Proposal', height: 2, view: 0, blockHash: hashA, block },
      nowMs: 1,
    });
    assert.equal(persists(proposal).length, 0, 'nothing voted before the block is executed');
    const executed = c.step({
      kind: 'Executed',
      height: 2,
      blockHash: hashA,
      headerView: 0,
      ok: true,
      nowMs: 2,
    });
    assert.equal(persists(executed).length, 1);
    assert.equal(c.stats.safetyWritesSaved, 0);
    assertVotesPersisted(executed);
  });
});
