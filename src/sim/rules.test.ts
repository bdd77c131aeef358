import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Qc, SafetyState } from '../consensus/bft/types.js';
import { RuleChecker } from './rules.js';

const A = new Uint8Array(32).fill(0xaa);
const B = new Uint8Array(32).fill(0xbb);
const H = 5;

function qc(view: number, blockHash: Uint8Array, phase: 'Prepare' | 'Commit' = 'Prepare'): Qc {
  return {
    phase: { kind: phase },
    height: H,
    view,
    epoch: 0,
    blockHash,
    validatorSetHash: new Uint8Array(32),
    signers: new Uint8Array(1),
    signature: new Uint8Array(96),
  } as Qc;
}

function record(s: Partial<SafetyState>): SafetyState {
  return { height: H, view: 0, ...s };
}

function proposal(view: number, blockHash: Uint8Array, justify?: Qc) {
  return {
    kind: 'Proposal' as const,
    height: H,
    view,
    blockHash,
    block: new Uint8Array(1),
    ...(justify === undefined ? {} : { justify }),
  };
}

/** A checker where v1 is locked on A at view 2 (durably). */
function locked(): RuleChecker {
  const r = new RuleChecker();
  r.recorded('v1', record({ view: 2, lockedQc: qc(2, A), prepareVote: { view: 2, blockHash: A } }));
  r.recorded(
    'v1',
    record({
      view: 2,
      lockedQc: qc(2, A),
      prepareVote: { view: 2, blockHash: A },
      commitVote: { view: 2, blockHash: A },
    }),
  );
  assert.equal(r.failure, undefined);
  return r;
}

test('a Prepare vote for another block than the lock, with no justify, is reported', () => {
  const r = locked();
  r.proposal('v1', proposal(3, B));
  r.recorded('v1', record({ view: 3, lockedQc: qc(2, A), prepareVote: { view: 3, blockHash: B } }));
  assert.match(
    r.failure ?? '',
    /v1 Prepare vote at height 5 view 3 for bbbb.* ignores its lock \(view 2 aaaa/,
  );
});

test('a Prepare vote on a justify older than the lock is reported; as recent as the lock is allowed', () => {
  const r = locked();
  r.proposal('v1', proposal(4, B, qc(1, B)));
  r.recorded('v1', record({ view: 4, lockedQc: qc(2, A), prepareVote: { view: 4, blockHash: B } }));
  assert.match(r.failure ?? '', /ignores its lock .*justify views 1/);
  const ok = locked();
  ok.proposal('v1', proposal(4, B, qc(3, B)));
  ok.recorded('v1', record({ view: 4, lockedQc: qc(3, B), prepareVote: { view: 4, blockHash: B } }));
  ok.proposal('v1', proposal(5, B));
  ok.recorded('v1', record({ view: 5, lockedQc: qc(3, B), prepareVote: { view: 5, blockHash: B } }));
  assert.equal(ok.failure, undefined);
});

test('a lock forgotten across a restart is reported, and so is a vote on the forgotten lock', () => {
  const r = locked();
  r.recorded('v1', record({ view: 0, prepareVote: { view: 0, blockHash: B } }));
  assert.match(r.failure ?? '', /v1 lock went down at height 5: view 2 → none/);
});

test('a Commit vote not for the lock just taken is reported', () => {
  const r = new RuleChecker();
  r.recorded('v2', record({ view: 3, lockedQc: qc(2, A), commitVote: { view: 3, blockHash: A } }));
  assert.match(r.failure ?? '', /v2 Commit vote at height 5 view 3 .* not for the lock just taken/);
});

test('two votes in one (height, view, phase) are reported, and a vote sent before its durable record', () => {
  const r = new RuleChecker();
  r.recorded('v3', record({ view: 1, prepareVote: { view: 1, blockHash: A } }));
  r.sent('v3', {
    kind: 'Vote',
    phase: 'Prepare',
    height: H,
    view: 1,
    blockHash: A,
    signature: new Uint8Array(96),
  });
  assert.equal(r.failure, undefined);
  r.sent('v3', {
    kind: 'Vote',
    phase: 'Prepare',
    height: H,
    view: 1,
    blockHash: B,
    signature: new Uint8Array(96),
  });
  assert.match(r.failure ?? '', /v3 voted Prepare twice at height 5 view 1/);
  const early = new RuleChecker();
  early.sent('v3', {
    kind: 'Vote',
    phase: 'Commit',
    height: H,
    view: 1,
    blockHash: A,
    signature: new Uint8Array(96),
  });
  assert.match(
    early.failure ?? '',
    /v3 sent a Commit vote \(height 5 view 1\) before a durable record of it/,
  );
});
