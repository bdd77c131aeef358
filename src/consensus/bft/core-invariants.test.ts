// The core's own invariants about what it asked for: a timeout it never armed (a later view than its
// own), a built block for a view it did not ask to build, a second Start, or a safety record naming a vote
// after its own view are bugs of the host or the driver, so each throws ConsensusInvariantError (the
// engine then stops) instead of being acted on. The same inputs in order are accepted (controls).

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
import { ConsensusInvariantError, DEFAULT_PACEMAKER, type SafetyState } from './types.js';

const CHAIN = 'core-invariants-test';
const keys = Array.from({ length: 4 }, (_, i) => BlsKeyPair.fromSeed(new Uint8Array(32).fill(90 + i)));
const ids = keys.map((_, i) => `ed0120${toHex(new Uint8Array(32).fill(0x50 + i)).toUpperCase()}`);
const roster = new ValidatorSet(
  ids.map((peer, i) => ({ peer, blsKey: publicKeyToText(keys[i]!.publicKey) })),
);
const LEADER = new Plan(CHAIN, 2, 4).leader(0);
const OTHER = (LEADER + 1) % 4;
const hashA = new Uint8Array(32).fill(0xa1);

function core(selfIndex: number, start: { pending?: boolean; safety?: SafetyState } = {}): BftCore {
  const peer = roster.validators[selfIndex]!.peer;
  const c = new BftCore({
    chainId: CHAIN,
    self: peer,
    crypto: new BlsVoteCrypto(CHAIN, keys[ids.indexOf(peer)]!),
    pacemaker: DEFAULT_PACEMAKER,
    collectorsK: 2,
  });
  c.step({
    kind: 'Start',
    height: 2,
    roster,
    nowMs: 0,
    pending: start.pending ?? false,
    ...(start.safety === undefined ? {} : { safety: start.safety }),
  });
  return c;
}

const trips = (f: () => unknown, re: RegExp) =>
  assert.throws(f, (e: Error) => e instanceof ConsensusInvariantError && re.test(e.message));

describe('BFT core: inputs the core never asked for are bugs', () => {
  it('a timeout for a view ahead of the one armed trips; the armed one moves the view', () => {
    const c = core(OTHER, { pending: true });
    trips(() => c.step({ kind: 'Timeout', height: 2, view: 5, nowMs: 10 }), /a timeout for height 2 view 5/);
    const control = core(OTHER, { pending: true });
    control.step({ kind: 'Timeout', height: 1, view: 9, nowMs: 10 }); // an older height: ignored
    control.step({ kind: 'Timeout', height: 2, view: 0, nowMs: 3000 });
    assert.equal(control.report().view, 1);
  });

  it('a built block for a view the leader did not ask to build trips; the one asked for is proposed', () => {
    const idle = core(LEADER, { pending: false }); // nothing waits: no Build asked
    trips(
      () =>
        idle.step({ kind: 'Built', height: 2, view: 0, blockHash: hashA, block: Uint8Array.of(1), nowMs: 5 }),
      /a built block for view 0 that was not asked for/,
    );
    const busy = core(LEADER, { pending: true });
    assert.ok(busy.report().view === 0);
    const out = busy.step({
      kind: 'Built',
      height: 2,
      view: 0,
      blockHash: hashA,
      block: Uint8Array.of(1),
      nowMs: 5,
    });
    assert.ok(out.some((e) => e.kind === 'Broadcast' && e.msg.kind === 'Proposal'));
  });

  it('a second Start on one core trips', () => {
    const c = core(OTHER);
    trips(() => c.step({ kind: 'Start', height: 2, roster, nowMs: 1, pending: false }), /a second Start/);
  });

  it('a safety record naming a vote after its own view trips at start; a consistent one resumes', () => {
    trips(
      () => core(OTHER, { safety: { height: 2, view: 1, prepareVote: { view: 3, blockHash: hashA } } }),
      /names a vote or proposal after its view 1/,
    );
    const c = core(OTHER, { safety: { height: 2, view: 3, prepareVote: { view: 3, blockHash: hashA } } });
    assert.equal(c.report().view, 3);
  });
});
