import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSignedNonceStore } from './signed-nonces.js';

const T0 = 1_700_000_000_000;
const WINDOW = 1_000;

describe('signed request nonce store', () => {
  it('refuses a nonce its account used within the window; another account may use the same text', () => {
    const s = createSignedNonceStore(10);
    assert.equal(s.checkAndAdd('a', 'n1', T0, T0, WINDOW), 'ok');
    assert.equal(s.checkAndAdd('a', 'n1', T0, T0 + 10, WINDOW), 'reused');
    assert.equal(s.checkAndAdd('b', 'n1', T0, T0 + 10, WINDOW), 'ok');
  });

  it("one account's flood (future-stamped) fills only its own quota: another account is never refused", () => {
    const s = createSignedNonceStore(5);
    const flood = Array.from({ length: 50 }, (_, i) =>
      s.checkAndAdd('attacker', `f${i}`, T0 + WINDOW - 1, T0, WINDOW),
    );
    assert.deepEqual(
      [flood.filter((o) => o === 'ok').length, flood.filter((o) => o === 'full').length],
      [5, 45],
    );
    for (let i = 0; i < 5; i++) assert.equal(s.checkAndAdd('honest', `h${i}`, T0, T0, WINDOW), 'ok');
    // The honest account's nonces are all still remembered: a replay of any is refused.
    assert.equal(s.checkAndAdd('honest', 'h0', T0, T0 + 1, WINDOW), 'reused');
    assert.equal(s.size(), 10);
  });

  it('forgets a nonce only once its request is stale, then frees the quota and the account', () => {
    const s = createSignedNonceStore(2);
    assert.equal(s.checkAndAdd('a', 'n1', T0, T0, WINDOW), 'ok');
    assert.equal(s.checkAndAdd('a', 'n2', T0 + 500, T0 + 500, WINDOW), 'ok');
    assert.equal(s.checkAndAdd('a', 'n3', T0 + 1_000, T0 + 1_000, WINDOW), 'full'); // n1 is still fresh
    assert.equal(s.checkAndAdd('a', 'n3', T0 + 1_001, T0 + 1_001, WINDOW), 'ok'); // n1 now stale
    // A wider window later keeps what it could accept: nothing is forgotten too early.
    assert.equal(s.checkAndAdd('b', 'm', T0 + 1_001, T0 + 1_001, 5_000), 'ok');
    assert.equal(s.checkAndAdd('a', 'n2', T0 + 500, T0 + 5_000, 5_000), 'reused');
    // Once every nonce is stale the sweep drops the accounts themselves.
    assert.equal(s.checkAndAdd('c', 'x', T0 + 20_000, T0 + 20_000, 5_000), 'ok');
    assert.deepEqual([s.accounts(), s.size()], [1, 1]);
  });
});
