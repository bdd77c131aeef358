import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boundErrorBody, ERROR_DETAILS_BYTES_MAX, ERROR_MESSAGE_BYTES_MAX } from './error-bounds.js';

const bytes = (v: unknown) => Buffer.byteLength(typeof v === 'string' ? v : JSON.stringify(v));

describe('boundErrorBody', () => {
  it('returns small bodies unchanged', () => {
    const body = { code: 'invalid_filter', message: 'bad', details: { path: '$.x', n: 1 } };
    assert.equal(boundErrorBody(body), body);
  });

  it('cuts a long message to the ErrorBody limit, also inside multi-byte characters', () => {
    const r = boundErrorBody({ code: 'x', message: 'é'.repeat(2_000), details: {} });
    assert.ok(bytes(r.message) <= ERROR_MESSAGE_BYTES_MAX, `${bytes(r.message)} bytes`);
    assert.ok(r.message.endsWith('…'));
  });

  it('shrinks oversized details (a 70 KB echoed key and value) and marks them truncated', () => {
    const key = 'k'.repeat(70_000);
    const r = boundErrorBody({ code: 'x', message: 'm', details: { path: `$.${key}`, [key]: 1, at: 3 } });
    assert.ok(bytes(r.details) <= ERROR_DETAILS_BYTES_MAX);
    assert.equal(r.details.truncated, true);
    assert.equal(r.details.at, 3);
    assert.ok(String(r.details.path).startsWith('$.kkk'));
  });

  it('replaces details that stay too large after shrinking by {truncated: true}', () => {
    const wide = Object.fromEntries(
      Array.from({ length: 32 }, (_, i) => [`k${i}`, Array(32).fill('v'.repeat(200))]),
    );
    const r = boundErrorBody({ code: 'x', message: 'm', details: wide });
    assert.deepEqual(r.details, { truncated: true });
  });
});
