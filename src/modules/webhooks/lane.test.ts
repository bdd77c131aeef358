import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DELIVERY_HEADERS, deliveryHeaders, signingSecrets } from './lane.js';
import { verifyWebhookSignature } from './signature.js';

const item = { deliveryId: 'd', eventId: 3, body: '{"id":3}', attempt: 1 };

describe('delivery signing secrets', () => {
  const rotated = { secret: 'new', previousSecret: 'old', previousUntilMs: 1000 };

  it('signs with the new and the rotated-out secret until the overlap ends, then with the new one only', () => {
    assert.deepEqual(signingSecrets(rotated, 999), ['new', 'old']);
    assert.deepEqual(signingSecrets(rotated, 1000), ['new']);
    assert.deepEqual(signingSecrets({}, 0), []);
    const during = deliveryHeaders('h', item, rotated, 999)[DELIVERY_HEADERS.signature]!;
    assert.ok(verifyWebhookSignature('old', 999, item.body, during));
    assert.ok(verifyWebhookSignature('new', 999, item.body, during));
    const afterwards = deliveryHeaders('h', item, rotated, 1000)[DELIVERY_HEADERS.signature]!;
    assert.ok(!verifyWebhookSignature('old', 1000, item.body, afterwards));
    assert.ok(verifyWebhookSignature('new', 1000, item.body, afterwards));
  });

  it('sends no signature header without a secret', () => {
    assert.equal(deliveryHeaders('h', item, {}, 5)[DELIVERY_HEADERS.signature], undefined);
  });
});
