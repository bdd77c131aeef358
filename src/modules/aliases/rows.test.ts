import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { leaseStatus } from './rows.js';

describe('leaseStatus', () => {
  it('is decided by the block time alone, boundaries included', () => {
    const lease = { expiresAtMs: 10_000n, graceMs: 500n };
    assert.equal(leaseStatus(undefined, 1e15), 'permanent');
    assert.equal(leaseStatus(lease, 9_999), 'leased_active');
    assert.equal(leaseStatus(lease, 10_000), 'leased_grace');
    assert.equal(leaseStatus(lease, 10_499), 'leased_grace');
    assert.equal(leaseStatus(lease, 10_500), 'expired_pending_cleanup');
    assert.equal(leaseStatus({ expiresAtMs: 10_000n, graceMs: 0n }, 10_000), 'expired_pending_cleanup');
  });
});
