// The first lines of `torana status`: the quorum said plainly, and block sync when it runs.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { headline, UNHEALTHY_LINE } from './status-action.js';

const of = (r: number, t: number, n: number, catching_up = false) => ({
  validators_reachable: r,
  validators_total: t,
  quorum_needed: n,
  catching_up,
});

describe('torana status headline', () => {
  it('says whether a quorum is reachable, and what is missing when not', () => {
    assert.deepEqual(headline(of(4, 4, 3)), ['quorum: 4/4 validators reachable, 3 needed']);
    assert.deepEqual(headline(of(3, 4, 3)), ['quorum: 3/4 validators reachable, 3 needed']);
    assert.deepEqual(headline(of(2, 4, 3)), [
      'no quorum: 2/4 validators reachable, 3 needed',
      'no block can commit until more validators are reachable',
    ]);
    assert.deepEqual(headline(of(1, 1, 1)), ['quorum: 1/1 validators reachable, 1 needed']);
  });

  it('says when the node is catching up; nothing for a node that does not report its quorum', () => {
    assert.deepEqual(headline(of(4, 4, 3, true)), [
      'quorum: 4/4 validators reachable, 3 needed',
      'catching up: fetching blocks from a peer that is ahead',
    ]);
    assert.deepEqual(headline({ blocks: 3 }), []);
  });

  it('says first when the node stopped after a fatal error, whatever its quorum', () => {
    assert.deepEqual(headline(of(4, 5, 4), true), [
      'stopped: the node hit a fatal error (its log says which, e.g. a full disk) and commits nothing until restarted',
      'quorum: 4/5 validators reachable, 4 needed',
    ]);
    assert.deepEqual(headline({ blocks: 3 }, true), [UNHEALTHY_LINE]);
  });
});
