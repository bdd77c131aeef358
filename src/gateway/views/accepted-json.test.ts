import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ed25519KeyPair } from '../../crypto/signer.js';
import { fromHex, toHex } from '../../util/hex.js';
import { transactionAcceptedJson } from './accepted-json.js';
import { TransactionAcceptedView } from './common.js';

describe('transactionAcceptedJson', () => {
  it('writes exactly the JSON form of TransactionAcceptedView', () => {
    for (let i = 0; i < 20; i++) {
      const txHash = toHex(new Uint8Array(32).fill(i * 13));
      const receipt = {
        txHash,
        submittedAtMs: 1_764_120_000_000 + i * 997,
        submittedAtHeight: i * i * 1000,
        nodePublicKey: Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(i + 1)).publicKeyText(),
        signature: toHex(new Uint8Array(64).fill(255 - i)),
      };
      const queue = { depth: i, capacity: 65_536 + i };
      const { signature, ...payload } = receipt;
      const view = {
        txHash,
        status: 'Queued',
        receipt: { payload, signature: fromHex(signature)! },
        queue,
      };
      assert.equal(
        transactionAcceptedJson({ txHash, receipt, queue }),
        JSON.stringify(TransactionAcceptedView.toJson(view)),
      );
    }
  });
});
