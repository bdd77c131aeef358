// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildTx, frameTx, newAccount } from '../../test/helpers/tx.js';
import { encodeFrame } from '../codec/frame.js';
import { ed25519Verify } from '../crypto/ed25519.js';
import type { Instruction } from '../model/instructions.js';
import { defaultParameters, ParametersCodec } from '../model/parameters.js';
import { SCHEMA } from '../model/schema.js';
import { signTransaction } from '../model/transaction.js';
import { transactionWeight } from '../model/weights.js';
import { type AdmissionLimits, admitTransaction } from './admission.js';

const NOW = 1_800_000_000_000;
const limits: AdmissionLimits = {
  transactionBytesMax: 64 * 1024,
  instructionsMax: 4,
  metadataBytesMax: 64,
  maxClockDriftMs: 1000,
  allowedAlgorithms: new Set(['ed25519']),
  decode: { bytesMax: 1 << 20, itemsMax: 10_000, depthMax: 32 },
};
const verify = async (pk: Uint8Array, m: Uint8Array, s: Uint8Array) => ed25519Verify(pk, m, s);
const alice = newAccount('wonderland', 7);
const log: Instruction = { kind: 'Log', level: { kind: 'Info' }, message: 'hello' };

async function admit(body: Uint8Array) {
  return admitTransaction(body, 'torana-test', NOW, limits, verify);
}

async function rejectionOf(body: Uint8Array): Promise<string> {
  const r = await admit(body);
  assert.equal(r.ok, false);
  if (r.ok) throw new Error('unreachable');
  return r.kind === 'codec' ? r.error.code : r.rejection.code;
}

describe('admission', () => {
  it('admits a valid framed transaction and reports its hash', async () => {
    const r = await admit(frameTx(buildTx(alice, [log], { creationTimeMs: NOW })));
    assert.equal(r.ok, true);
    if (r.ok) assert.match(r.hashHex, /^[0-9a-f]{64}$/);
  });

  it('admits the bare form (version byte + payload)', async () => {
    const framed = frameTx(buildTx(alice, [log], { creationTimeMs: NOW }));
    const bare = new Uint8Array([1, ...framed.subarray(22)]);
    assert.equal((await admit(bare)).ok, true);
  });

  it('rejects each failure with its stable code, in the documented order', async () => {
    assert.equal(
      await rejectionOf(frameTx(buildTx(alice, [log], { chainId: 'other', creationTimeMs: NOW }))),
      'chain_id_mismatch',
    );
    assert.equal(
      await rejectionOf(frameTx(buildTx(alice, [log], { creationTimeMs: NOW + 5000 }))),
      'creation_time_in_future',
    );
    assert.equal(
      await rejectionOf(frameTx(buildTx(alice, [log], { creationTimeMs: NOW - 10_000, ttlMs: 5000 }))),
      'transaction_expired',
    );
    const tx = buildTx(alice, [log], { creationTimeMs: NOW });
    const forged = { ...tx, signature: new Uint8Array(tx.signature).map((b, i) => (i === 0 ? b ^ 1 : b)) };
    assert.equal(await rejectionOf(frameTx(forged)), 'signature_invalid');
    assert.equal(await rejectionOf(frameTx(buildTx(alice, [], { creationTimeMs: NOW }))), 'no_instructions');
    assert.equal(
      await rejectionOf(frameTx(buildTx(alice, [log, log, log, log, log], { creationTimeMs: NOW }))),
      'too_many_instructions',
    );
    // Wrong chain AND bad signature: the chain check comes first.
    const both = buildTx(alice, [log], { chainId: 'other', creationTimeMs: NOW });
    assert.equal(await rejectionOf(frameTx({ ...both, signature: new Uint8Array(64) })), 'chain_id_mismatch');
  });

  it('refuses a transaction heavier than TransactionMaxWeight, after the other checks', async () => {
    const body = frameTx(buildTx(alice, [log, log], { creationTimeMs: NOW }));
    const weight = transactionWeight([log, log]);
    const capped = (max: number) =>
      admitTransaction(body, 'torana-test', NOW, { ...limits, transactionWeightMax: max }, verify);
    const ok = await capped(weight);
    assert.ok(ok.ok);
    assert.equal(ok.ok && ok.weight, weight);
    const r = await capped(weight - 1);
    assert.ok(!r.ok && r.kind === 'rejected');
    assert.equal(r.rejection.code, 'transaction_weight_exceeded');
    assert.equal(r.rejection.message, `weight ${weight} > TransactionMaxWeight ${weight - 1}`);
  });

  it('rejects oversize bodies before decoding', async () => {
    assert.equal(await rejectionOf(new Uint8Array(limits.transactionBytesMax + 1)), 'transaction_too_large');
  });

  it('rejects oversize metadata', async () => {
    const { payload } = buildTx(alice, [log], { creationTimeMs: NOW });
    payload.metadata.set('note', 'x'.repeat(100));
    assert.equal(await rejectionOf(frameTx(signTransaction(payload, alice.key))), 'metadata_too_large');
  });

  it('gives typed codec errors for malformed bytes and never throws', async () => {
    const framed = frameTx(buildTx(alice, [log], { creationTimeMs: NOW }));
    assert.equal(await rejectionOf(framed.subarray(0, framed.length - 1)), 'codec_truncated');
    assert.equal(await rejectionOf(new Uint8Array([...framed, 0])), 'codec_trailing_bytes');
    const flipped = framed.slice();
    flipped[flipped.length - 1]! ^= 0xff;
    assert.equal(await rejectionOf(flipped), 'codec_checksum_mismatch');
    const wrongType = encodeFrame(SCHEMA, ParametersCodec, defaultParameters());
    assert.equal(await rejectionOf(wrongType), 'codec_schema_mismatch');
    for (let i = 0; i < 200; i++) {
      const junk = new Uint8Array(1 + ((i * 37) % 300)).map((_, j) => (i * 31 + j * 17) & 0xff);
      const r = await admit(junk);
      assert.equal(r.ok, false);
    }
  });
});
