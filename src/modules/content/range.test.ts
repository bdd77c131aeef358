import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRange } from './range.js';

describe('content Range header', () => {
  it('one range: a-b, a-, -n; an end past the file is cut at its end', () => {
    assert.deepEqual(parseRange(undefined, 10), { kind: 'whole' });
    assert.deepEqual(parseRange('bytes=0-4', 10), { kind: 'part', start: 0, end: 4 });
    assert.deepEqual(parseRange('bytes=7-', 10), { kind: 'part', start: 7, end: 9 });
    assert.deepEqual(parseRange('bytes=-3', 10), { kind: 'part', start: 7, end: 9 });
    assert.deepEqual(parseRange('bytes=-30', 10), { kind: 'part', start: 0, end: 9 });
    assert.deepEqual(parseRange('bytes=5-99', 10), { kind: 'part', start: 5, end: 9 });
    // Not a byte range unit: ignored, the whole file (RFC 9110 §14.2).
    assert.deepEqual(parseRange('items=0-1', 10), { kind: 'whole' });
  });

  it('several ranges, a start past the end, reversed or empty ranges: unsatisfiable', () => {
    for (const h of [
      'bytes=0-1,4-5',
      'bytes=10-',
      'bytes=10-20',
      'bytes=5-2',
      'bytes=-0',
      'bytes=-',
      'bytes=a-b',
    ])
      assert.equal(parseRange(h, 10).kind, 'unsatisfiable', h);
    assert.equal(parseRange('bytes=0-', 0).kind, 'unsatisfiable');
    assert.deepEqual(parseRange('bytes=0-1,4-5', 10), {
      kind: 'unsatisfiable',
      reason: 'one range only (no multipart answers)',
    });
  });
});
