// Tables and records for people (output.ts): times as ISO-8601 UTC rather than epoch milliseconds, and
// short texts rather than JSON documents in cells.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { amountText, cellText, tableLines } from './output.js';

describe('CLI tables', () => {
  it('shows epoch milliseconds of time columns as UTC times, and leaves durations alone', () => {
    assert.equal(cellText('created_at_ms', 1767225600000), '2026-01-01T00:00:00Z');
    assert.equal(cellText('block_time_ms', '1767225600123'), '2026-01-01T00:00:00.123Z');
    assert.equal(cellText('expiresAtMs', 1767225600000), '2026-01-01T00:00:00Z');
    assert.equal(cellText('ttl_ms', 3600000), '3600000');
    assert.equal(cellText('anchor_time_ms', 3600000), '3600000', 'an offset in a day, not a point in time');
  });

  it('puts no JSON document in a cell', () => {
    assert.equal(cellText('level', { kind: 'Info' }), 'Info');
    assert.equal(cellText('mintable', { kind: 'Once', left: 2 }), 'Once left=2');
    assert.equal(cellText('metadata', { a: 1, b: 'x' }), 'a=1 b=x');
    assert.equal(cellText('metadata', { a: { deep: 1 } }), '1 fields');
    assert.equal(cellText('tags', ['a', 'b']), 'a, b');
    assert.equal(cellText('instructions', [{ kind: 'Log' }, { kind: 'Log' }]), '2 items');
    assert.equal(cellText('x', null), '');
  });

  it('aligns columns and names a time column without its unit', () => {
    const lines = tableLines([
      { id: 'wonderland', created_at_ms: 1767225600000, metadata: { owner: 'alice' } },
      { id: 'w2', created_at_ms: 1767225660000, metadata: {} },
    ]);
    assert.deepEqual(lines, [
      'ID          CREATED_AT            METADATA',
      'wonderland  2026-01-01T00:00:00Z  owner=alice',
      'w2          2026-01-01T00:01:00Z',
    ]);
    for (const l of lines) assert.doesNotMatch(l, /[{}"]/);
  });

  it('groups the whole part of amounts by thousands in amount columns, and nothing else', () => {
    assert.equal(cellText('amount', '1234567890.000001'), '1,234,567,890.000001');
    assert.equal(cellText('balance', '-25000000'), '-25,000,000');
    assert.equal(cellText('total_billed_gas', 1500), '1,500');
    assert.equal(cellText('gasRatePerMinute', '100000.5'), '100,000.5');
    assert.equal(cellText('amount', '999.99'), '999.99');
    assert.equal(cellText('block_height', 1234567), '1234567');
    assert.equal(cellText('id', '1234567'), '1234567');
    assert.equal(amountText('12e5'), undefined);
    const lines = tableLines([{ asset: 'usd#bank', amount: '1000000000' }]);
    assert.deepEqual(lines, ['ASSET     AMOUNT', 'usd#bank  1,000,000,000']);
  });
});
