import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keepsCurrent } from './tie-break.js';

const low = new Uint8Array(32).fill(1);
const high = new Uint8Array(32).fill(2);

describe('p2p: tie-break between two connections to one peer', () => {
  it('keeps the connection dialed by the smaller key, whichever opened first, on both ends', () => {
    // At the low node: its own dial is open, the high node's arrives → keep its own.
    assert.equal(keepsCurrent(low, high, { currentDialer: low, incomingDialer: high }), true);
    // At the low node, the other order: the high node's dial is open, its own arrives → replace.
    assert.equal(keepsCurrent(low, high, { currentDialer: high, incomingDialer: low }), false);
    // At the high node: same two connections, same verdicts.
    assert.equal(keepsCurrent(high, low, { currentDialer: low, incomingDialer: high }), true);
    assert.equal(keepsCurrent(high, low, { currentDialer: high, incomingDialer: low }), false);
  });

  it('lets the newer win between two dialed by the same node', () => {
    for (const [self, remote] of [
      [low, high],
      [high, low],
    ] as const) {
      for (const dialer of [low, high]) {
        assert.equal(
          keepsCurrent(self, remote, { currentDialer: dialer, incomingDialer: dialer.slice() }),
          false,
        );
      }
    }
  });
});
