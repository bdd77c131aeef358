// An always-on assertion that fails in an honest core (a vote about to break the lock rule, say) is a
// found violation of that seed, not a crash of the run or of the hunt: the world reports it as the run's
// failure, with the peer, and the run ends there.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BftCore } from '../consensus/bft/core.js';
import { AssertionError } from '../util/assert.js';
import { runSeed } from './run.js';

test('a failed assertion in an honest core is reported as the seed failure', async () => {
  const step = BftCore.prototype.step;
  let fired = 0;
  BftCore.prototype.step = function (this: BftCore, i) {
    if (fired === 0 && i.kind === 'Message' && i.msg.kind === 'Vote') {
      fired++;
      throw new AssertionError('a vote breaks the lock rule (test)');
    }
    return step.call(this, i);
  };
  try {
    const r = await runSeed(3, { n: 4, byzantine: 'none', traceMax: 20 });
    assert.equal(fired, 1);
    assert.match(r.failure ?? '', /^AssertionError at v\d: a vote breaks the lock rule \(test\)$/);
    assert.ok(r.trace.some((l) => l.includes('FAIL AssertionError')));
  } finally {
    BftCore.prototype.step = step;
  }
});
