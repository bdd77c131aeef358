import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ed25519KeyPair } from '../crypto/signer.js';
import { toHex } from '../util/hex.js';
import { receiptMessage, receiptMessages } from './receipt.js';

describe('receiptMessages', () => {
  it('gives the same message as receiptMessage for every shape of payload', () => {
    const key = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(5)).publicKeyText();
    const message = receiptMessages(key);
    const cases: Array<[number, number]> = [
      [0, 0],
      [127, 128],
      [1_764_120_000_123, 17],
      [Number.MAX_SAFE_INTEGER, 2 ** 40],
    ];
    for (const [i, [submittedAtMs, submittedAtHeight]] of cases.entries()) {
      const txHash = new Uint8Array(32).fill(i * 37 + 1);
      const expected = receiptMessage({
        txHash: toHex(txHash),
        submittedAtMs,
        submittedAtHeight,
        nodePublicKey: key,
      });
      assert.deepEqual(message(txHash, submittedAtMs, submittedAtHeight), expected);
    }
  });

  it('refuses a hash of the wrong length instead of signing something else', () => {
    const key = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(6)).publicKeyText();
    assert.throws(() => receiptMessages(key)(new Uint8Array(31), 1, 1), { code: 'codec_invalid_value' });
  });
});
