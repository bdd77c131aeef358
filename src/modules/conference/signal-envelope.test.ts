import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { xchacha20poly1305 } from '@noble/ciphers/chacha';
import { ed25519, x25519 } from '@noble/curves/ed25519';
import { blake2b } from '@noble/hashes/blake2';
import { Ed25519KeyPair } from '../../crypto/signer.js';
import { accountId } from '../../model/ids.js';
import {
  openSignal,
  SIGNAL_ENVELOPE_OVERHEAD,
  SIGNAL_PLAINTEXT_BYTES_MAX,
  type SignalContext,
  sealSignal,
  signalAssociatedData,
} from './signal-envelope.js';

function party(seedByte: number) {
  const key = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(seedByte));
  return { key, id: accountId(key.publicKeyText(), 'wonderland'), pair: key.handshakeKeyPair() };
}

const host = party(1);
const guest = party(2);
const other = party(3);
const ctx: SignalContext = { callId: 'wonderland:tea', kind: 'offer', from: host.id, to: guest.id };
const sdp = new TextEncoder().encode('v=0\r\no=- 42 2 IN IP4 127.0.0.1\r\ns=-\r\n');

async function sealed(c: SignalContext = ctx, text = sdp): Promise<Uint8Array> {
  const r = await sealSignal(c, text, host.key);
  assert.ok(r.ok, JSON.stringify(r));
  return r.envelope;
}

describe('signal envelope v1', () => {
  it('round trips to the recipient, with the documented size', async () => {
    const env = await sealed();
    assert.equal(env.length, sdp.length + SIGNAL_ENVELOPE_OVERHEAD);
    assert.equal(env[0], 1);
    const r = await openSignal(ctx, guest.pair, env);
    assert.ok(r.ok);
    assert.deepEqual(r.plaintext, sdp);
    assert.equal(Buffer.from(env).indexOf(Buffer.from('IN IP4')), -1, 'no plaintext in the envelope');
  });

  it('two seals of one message differ (fresh ephemeral key and nonce)', async () => {
    assert.notDeepEqual(await sealed(), await sealed());
  });

  it('fails for a wrong recipient, including the sender', async () => {
    const env = await sealed();
    for (const wrong of [other.pair, host.pair]) {
      assert.deepEqual(await openSignal(ctx, wrong, env), { ok: false, code: 'signal_open_failed' });
    }
  });

  it('fails for another call, kind, sender or recipient in the associated data', async () => {
    const env = await sealed();
    const changed: SignalContext[] = [
      { ...ctx, callId: 'wonderland:tea2' },
      { ...ctx, kind: 'answer' },
      { ...ctx, from: other.id },
      { ...ctx, to: accountId(guest.key.publicKeyText(), 'looking_glass') },
    ];
    for (const c of changed) {
      assert.deepEqual(
        await openSignal(c, guest.pair, env),
        { ok: false, code: 'signal_open_failed' },
        c.callId,
      );
    }
  });

  it('fails when any byte after the version is changed (key, nonce, ciphertext, tag)', async () => {
    const env = await sealed();
    for (const at of [1, 20, 33, 50, 57, 60, env.length - 17, env.length - 1]) {
      const bad = env.slice();
      bad[at]! ^= 0x01;
      const r = await openSignal(ctx, guest.pair, bad);
      assert.equal(r.ok, false, `byte ${at}`);
    }
    const version = env.slice();
    version[0] = 2;
    assert.deepEqual(await openSignal(ctx, guest.pair, version), {
      ok: false,
      code: 'signal_envelope_version',
    });
    const short = env.subarray(0, SIGNAL_ENVELOPE_OVERHEAD - 1);
    assert.deepEqual(await openSignal(ctx, guest.pair, short), {
      ok: false,
      code: 'signal_envelope_malformed',
    });
  });

  it('an envelope sealed by anyone but the named sender does not open (signature)', async () => {
    const forged = await sealSignal(ctx, sdp, other.key);
    assert.ok(forged.ok);
    assert.deepEqual(await openSignal(ctx, guest.pair, forged.envelope), {
      ok: false,
      code: 'signal_signature_invalid',
    });
    assert.deepEqual(await sealSignal({ ...ctx, from: 'nobody@wonderland' }, sdp, host.key), {
      ok: false,
      code: 'signal_sender_invalid',
    });
  });

  it('refuses a bad recipient id and an oversized plaintext', async () => {
    assert.deepEqual(await sealSignal({ ...ctx, to: 'nobody@wonderland' }, sdp, host.key), {
      ok: false,
      code: 'signal_recipient_invalid',
    });
    const big = new Uint8Array(SIGNAL_PLAINTEXT_BYTES_MAX + 1);
    assert.deepEqual(await sealSignal(ctx, big, host.key), { ok: false, code: 'signal_plaintext_too_large' });
    const max = await sealed(ctx, new Uint8Array(SIGNAL_PLAINTEXT_BYTES_MAX));
    assert.equal(max.length, 16 * 1024);
  });

  it('derives its key as documented: crypto_kx over the converted Ed25519 key (independent check)', async () => {
    const seed = new Uint8Array(32).fill(9);
    const nonce = new Uint8Array(24).fill(7);
    const r = await sealSignal(ctx, sdp, host.key, { ephemeralSeed: seed, nonce });
    assert.ok(r.ok);
    const ephemeral = r.envelope.subarray(1, 33);
    assert.deepEqual(r.envelope.subarray(33, 57), nonce);
    // Recipient side with noble: Ed25519 secret → X25519 secret, shared point, BLAKE2b-512(q ‖ E ‖ R), second half.
    const recipientX = ed25519.utils.toMontgomery(guest.pair.publicKey);
    const q = x25519.getSharedSecret(
      ed25519.utils.toMontgomerySecret(guest.pair.secretKey.subarray(0, 32)),
      ephemeral,
    );
    const keys = blake2b(new Uint8Array([...q, ...ephemeral, ...recipientX]), { dkLen: 64 });
    const ad = signalAssociatedData(ctx)!;
    const plain = xchacha20poly1305(keys.subarray(32), nonce, ad).decrypt(r.envelope.subarray(57));
    assert.deepEqual(plain.subarray(64), sdp);
    const signed = new Uint8Array([...ad, ...sdp]);
    assert.ok(
      ed25519.verify(plain.subarray(0, 64), signed, host.pair.publicKey),
      'the sender signed AD ‖ payload',
    );
  });

  // Sealed by the first implementation (libsodium-wrappers: crypto_kx_seed_keypair, crypto_kx_client_session_keys,
  // crypto_aead_xchacha20poly1305_ietf_encrypt) with a fixed ephemeral seed and nonce: the wire format is unchanged.
  const LIBSODIUM_VECTOR =
    '01328244f6cdf5f1272250d7cfbba26834fbef25e846db8baf890faa8d7ef6e673070707070707070707070707070707070707070707' +
    '0707073559f545136596cd087409241a6d0856573da2e31c2d26224564b5ab93c16a0c95b6d90ac85b202413d66e3e7b1cdfad6a3a02' +
    '7201291a1f39d6caa27d36930b48664d98f0f2ebe372a41266e0835663169ff32a34132bb02a88';
  const vectorText = new TextEncoder().encode('v=0\r\ns=-\r\n');

  it('seals the bytes libsodium sealed (fixed ephemeral seed and nonce) and opens them', async () => {
    const r = await sealSignal(ctx, vectorText, host.key, {
      ephemeralSeed: new Uint8Array(32).fill(9),
      nonce: new Uint8Array(24).fill(7),
    });
    assert.ok(r.ok);
    assert.equal(Buffer.from(r.envelope).toString('hex'), LIBSODIUM_VECTOR);
    const opened = await openSignal(ctx, guest.pair, Buffer.from(LIBSODIUM_VECTOR, 'hex'));
    assert.ok(opened.ok);
    assert.deepEqual(opened.plaintext, vectorText);
  });

  it('lays the associated data out as documented', () => {
    const ad = signalAssociatedData({ callId: 'd:c', kind: 'answer', from: 'a', to: 'bb' })!;
    const expected = Buffer.concat([
      Buffer.from('torana-signal-v1'),
      Buffer.from([0, 3]),
      Buffer.from('d:c'),
      Buffer.from([0, 6]),
      Buffer.from('answer'),
      Buffer.from([0, 1, 0x61, 0, 2, 0x62, 0x62]),
    ]);
    assert.deepEqual(Buffer.from(ad), expected);
  });
});
