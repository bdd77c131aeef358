import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EgressLimiter } from './egress.js';

describe('content egress budgets', () => {
  it('per client and per node within a window; refused whole with the seconds to the next window', () => {
    let now = 1_000_000;
    const e = new EgressLimiter({ windowMs: 60_000, nodeBytes: 250, clientBytes: 100 }, () => now);
    assert.deepEqual(e.take('a', 60), { ok: true });
    assert.deepEqual(e.take('a', 40), { ok: true });
    const refused = e.take('a', 1);
    assert.equal(refused.ok, false);
    assert.ok(!refused.ok && refused.scope === 'client' && refused.used === 100 && refused.limit === 100);
    // 1,000,000 ms is 40 s into its window: 20 s left.
    assert.ok(!refused.ok && refused.retryAfterS === 20);
    assert.deepEqual(e.take('b', 100), { ok: true });
    const node = e.take('c', 60);
    assert.ok(!node.ok && node.scope === 'node' && node.used === 200);
    assert.deepEqual(e.take('c', 50), { ok: true }, 'a refused download counted nothing');
    now += 20_000;
    assert.deepEqual(e.take('a', 100), { ok: true }, 'a new window');
  });
});
