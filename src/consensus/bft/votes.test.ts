// VoteBox keeps the views around the collector's OWN view only: whatever views the votes name, what it
// holds stays within [own − VIEWS_BEHIND_KEPT, own + VIEWS_AHEAD_MAX].

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ValidatorSet } from '../validator-set.js';
import { VIEWS_AHEAD_MAX, VIEWS_BEHIND_KEPT } from './bounds.js';
import type { VoteCrypto } from './types.js';
import { VoteBox } from './votes.js';

const roster = new ValidatorSet(
  [0, 1, 2, 3].map((i) => ({ peer: `ed0120${String(i).repeat(64)}`, blsKey: `ea0130${'ab'.repeat(48)}` })),
);
const accept: VoteCrypto = {
  sign: () => new Uint8Array(96),
  verifyVote: () => true,
  aggregate: () => assert.fail('no quorum is reached in these tests'),
  verifyQc: () => undefined,
};
const subject = (view: number) => ({
  phase: 'Prepare' as const,
  height: 2,
  view,
  blockHash: new Uint8Array(32).fill(view % 251),
  validatorSetHash: roster.hash,
});

describe('VoteBox: views kept are decided by the collector’s own view', () => {
  it('refuses far views, forgets stale ones, and never holds a view outside the window', () => {
    const box = new VoteBox(roster, accept);
    assert.equal(box.add(subject(1_000_000), 3, new Uint8Array(96), 0).kind, 'far');
    assert.equal(box.add(subject(VIEWS_AHEAD_MAX + 1), 3, new Uint8Array(96), 0).kind, 'far');
    assert.equal(box.add(subject(VIEWS_AHEAD_MAX), 3, new Uint8Array(96), 0).kind, 'counted');
    assert.equal(box.add(subject(0), 3, new Uint8Array(96), 0).kind, 'counted');
    // The collector moves on to view 100: view 0 is stale, and is forgotten at the next new slot.
    const own = 100;
    assert.equal(box.add(subject(own - VIEWS_BEHIND_KEPT - 1), 1, new Uint8Array(96), own).kind, 'stale');
    for (let v = own - VIEWS_BEHIND_KEPT; v <= own + VIEWS_AHEAD_MAX + 5; v++)
      box.add(subject(v), v % 4, new Uint8Array(96), own);
    const views = box.views();
    assert.ok(views.length > 0);
    assert.ok(views[0]! >= own - VIEWS_BEHIND_KEPT, `oldest kept ${views[0]}`);
    assert.ok(views[views.length - 1]! <= own + VIEWS_AHEAD_MAX, `newest kept ${views[views.length - 1]}`);
  });
});
