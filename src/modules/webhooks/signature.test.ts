import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { backoffMs, verifyWebhookSignature, webhookSignature, webhookSignatures } from './signature.js';

describe('webhook signature', () => {
  it('is the HMAC-SHA256 of timestamp "." body, hex, prefixed sha256=', () => {
    const body = '{"id":1}';
    const want = createHmac('sha256', 'k').update(`1700000000000.${body}`).digest('hex');
    assert.equal(webhookSignature('k', 1_700_000_000_000, body), `sha256=${want}`);
  });

  it('verifies only the same secret, timestamp and body', () => {
    const sig = webhookSignature('s', 5, 'b');
    assert.ok(verifyWebhookSignature('s', 5, 'b', sig));
    assert.ok(!verifyWebhookSignature('s', 6, 'b', sig));
    assert.ok(!verifyWebhookSignature('s', 5, 'c', sig));
    assert.ok(!verifyWebhookSignature('t', 5, 'b', sig));
    assert.ok(!verifyWebhookSignature('s', 5, 'b', 'sha256=00'));
  });
});

describe('webhook signatures during a rotation overlap', () => {
  it('are comma-separated, newest first, and either secret verifies the header', () => {
    const header = webhookSignatures(['new', 'old'], 7, 'b');
    assert.equal(header, `${webhookSignature('new', 7, 'b')},${webhookSignature('old', 7, 'b')}`);
    assert.ok(verifyWebhookSignature('new', 7, 'b', header));
    assert.ok(verifyWebhookSignature('old', 7, 'b', header));
    assert.ok(!verifyWebhookSignature('other', 7, 'b', header));
    assert.ok(!verifyWebhookSignature('old', 8, 'b', header));
  });
});

describe('backoff', () => {
  it('doubles from the base, caps at the max, and jitters within the upper half', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 10].map((a) => backoffMs(a, 1000, 60_000, () => 1)),
      [1000, 2000, 4000, 8000, 60_000],
    );
    assert.deepEqual(
      [1, 2, 10].map((a) => backoffMs(a, 1000, 60_000, () => 0)),
      [500, 1000, 30_000],
    );
  });
});
