// BLS12-381 (min-pk, POP ciphersuite). Known answers come from the Ethereum consensus-spec BLS
// test suite (github.com/ethereum/bls12-381-tests, shipped in consensus-spec-tests as
// tests/general/phase0/bls/...): sign_case_c82df61aa3ee60fb, sign_case_84d45c9c7cca6b92,
// aggregate_0xabab…ab and fast_aggregate_verify_valid_3d7576f3c0e3570a.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BLS_PUBLIC_KEY_BYTES,
  BLS_SIGNATURE_BYTES,
  BlsKeyPair,
  blsAggregatePublicKeys,
  blsAggregateSignatures,
  blsBatchFastAggregateVerify,
  blsFastAggregateVerify,
  blsProvePossession,
  blsVerify,
  blsVerifyPossession,
} from './bls.js';
import { isCryptoError } from './errors.js';
import { fromHex, toHex } from './hex.js';

const hex = (s: string) => fromHex(s)!;
const SK_A = '263dbd792f5b1be47ed85f8938c0f29586af0d3ac7b977f21c278fe1462040e3';
const SK_C = '328388aff0d4a5b7dc9205abd374e7e98f3cd9f3418edb4eafda5fb16473d216';
const PK_A =
  'a491d1b0ecd9bb917989f0e74f0dea0422eac4a873e5e2644f368dffb9a6e20fd6e10c1b77654d067c0618f6e5a7f79a';
const PK_B =
  'b301803f8b5ac4a1133581fc676dfedc60d891dd5fa99028805e5ea5b08d3491af75d0707adab3b70c6a6a580217bf81';
const PK_C =
  'b53d21a4cfd562c469cc81514d4ce5a6b577d8403d32a394dc265dd190b47fa9f829fdd7963afdf972e5e77854051f6f';
const MSG_ZERO = '00'.repeat(32);
const MSG_AB = 'ab'.repeat(32);
const SIG_A_ZERO =
  'b6ed936746e01f8ecf281f020953fbf1f01debd5657c4a383940b020b26507f6076334f91e2366c96e9ab279fb515809' +
  '0352ea1c5b0c9274504f4f0e7053af24802e51e4568d164fe986834f41e55c8e850ce1f98458c0cfc9ab380b55285a55';
const SIGS_AB = [
  '91347bccf740d859038fcdcaf233eeceb2a436bcaaee9b2aa3bfb70efe29dfb2677562ccbea1c8e061fb9971b0753c24' +
    '0622fab78489ce96768259fc01360346da5b9f579e5da0d941e4c6ba18a0e64906082375394f337fa1af2b7127b0d121',
  '9674e2228034527f4c083206032b020310face156d4a4685e2fcaec2f6f3665aa635d90347b6ce124eb879266b1e801d' +
    '185de36a0a289b85e9039662634f2eea1e02e670bc7ab849d006a70b2f93b84597558a05b879c8d445f387a5d5b653df',
  'ae82747ddeefe4fd64cf9cedb9b04ae3e8a43420cd255e3c7cd06a8d88b7c7f8638543719981c5d16fa3527c468c25f0' +
    '026704a6951bde891360c7e8d12ddee0559004ccdbe6046b55bae1b257ee97f7cdb955773d7cf29adf3ccbb9975e4eb9',
];
const AGG_AB =
  '9712c3edd73a209c742b8250759db12549b3eaf43b5ca61376d9f30e2747dbcf842d8b2ac0901d2a093713e20284a767' +
  '0fcf6954e9ab93de991bb9b313e664785a075fc285806fa5224c82bde146561b446ccfc706a64b8579513cfc4ff1d930';
const INFINITY_PK = `c0${'00'.repeat(47)}`;
const INFINITY_SIG = `c0${'00'.repeat(95)}`;

describe('bls: known answers (Ethereum consensus-spec BLS tests)', () => {
  it('derives the public key and signature of sign_case_c82df61aa3ee60fb and sign_case_84d45c9c7cca6b92', () => {
    const a = BlsKeyPair.fromSecretBytes(hex(SK_A));
    assert.equal(toHex(a.publicKey.bytes), PK_A);
    assert.equal(toHex(a.sign(hex(MSG_ZERO))), SIG_A_ZERO);
    assert.equal(blsVerify(hex(PK_A), hex(MSG_ZERO), hex(SIG_A_ZERO)), true);
    const c = BlsKeyPair.fromSecretBytes(hex(SK_C));
    assert.equal(toHex(c.publicKey.bytes), PK_C);
    assert.equal(toHex(c.sign(hex(MSG_AB))), SIGS_AB[2]);
    assert.equal(toHex(c.secretBytes()), SK_C);
  });

  it('aggregates the three signatures of aggregate_0xabab… and fast-verifies them', () => {
    const agg = blsAggregateSignatures(SIGS_AB.map(hex));
    assert.equal(toHex(agg), AGG_AB);
    const pks = [PK_A, PK_B, PK_C].map(hex);
    assert.equal(blsFastAggregateVerify(hex(MSG_AB), pks, agg), true);
    assert.equal(blsVerify(blsAggregatePublicKeys(pks), hex(MSG_AB), agg), true);
    assert.equal(blsFastAggregateVerify(hex(MSG_ZERO), pks, agg), false);
    assert.equal(blsFastAggregateVerify(hex(MSG_AB), pks.slice(0, 2), agg), false);
    assert.equal(blsFastAggregateVerify(hex(MSG_AB), [...pks, pks[2]!], agg), false);
    const tampered = hex(AGG_AB);
    tampered.set([0xff, 0xff, 0xff, 0xff], BLS_SIGNATURE_BYTES - 4);
    assert.equal(blsFastAggregateVerify(hex(MSG_AB), pks, tampered), false);
  });
});

describe('bls: sign, verify, aggregate', () => {
  const message = new TextEncoder().encode('block 42');
  const signers = [1, 2, 3, 4].map((i) => BlsKeyPair.fromSeed(new Uint8Array(32).fill(i)));
  const pks = signers.map((s) => s.publicKey.bytes);
  const sigs = signers.map((s) => s.sign(message));

  it('signs 96-byte signatures over 48-byte keys that verify, and rejects other messages and keys', () => {
    assert.equal(pks[0]!.length, BLS_PUBLIC_KEY_BYTES);
    assert.equal(sigs[0]!.length, BLS_SIGNATURE_BYTES);
    assert.equal(signers[0]!.publicKey.algorithm, 'bls12_381');
    assert.equal(blsVerify(pks[0]!, message, sigs[0]!), true);
    assert.equal(blsVerify(pks[0]!, new TextEncoder().encode('block 43'), sigs[0]!), false);
    assert.equal(blsVerify(pks[1]!, message, sigs[0]!), false);
  });

  it('is deterministic from the seed and random from generate()', () => {
    assert.deepEqual(BlsKeyPair.fromSeed(new Uint8Array(32).fill(1)).publicKey, signers[0]!.publicKey);
    assert.notDeepEqual(BlsKeyPair.generate().publicKey, BlsKeyPair.generate().publicKey);
    assert.throws(
      () => BlsKeyPair.fromSeed(new Uint8Array(31)),
      (e) => isCryptoError(e) && e.code === 'invalid_secret',
    );
    assert.throws(
      () => BlsKeyPair.fromSecretBytes(new Uint8Array(32)),
      (e) => isCryptoError(e) && e.code === 'invalid_secret',
    );
  });

  it('verifies an aggregate of 4 and fails when one signer is missing or swapped', () => {
    const agg = blsAggregateSignatures(sigs);
    assert.equal(blsFastAggregateVerify(message, pks, agg), true);
    assert.equal(blsFastAggregateVerify(message, pks.slice(0, 3), agg), false);
    assert.equal(blsFastAggregateVerify(message, pks, blsAggregateSignatures(sigs.slice(0, 3))), false);
    const outsider = BlsKeyPair.fromSeed(new Uint8Array(32).fill(9)).publicKey.bytes;
    assert.equal(blsFastAggregateVerify(message, [...pks.slice(0, 3), outsider], agg), false);
    assert.equal(blsFastAggregateVerify(message, [], agg), false);
  });

  it('answers false, never throws, on malformed bytes', () => {
    const good = { pk: pks[0]!, sig: sigs[0]! };
    const junk = [new Uint8Array(0), new Uint8Array(47), new Uint8Array(48).fill(0xff), new Uint8Array(96)];
    for (const j of junk) {
      assert.equal(blsVerify(j, message, good.sig), false);
      assert.equal(blsVerify(good.pk, message, j), false);
      assert.equal(blsFastAggregateVerify(message, [good.pk, j], good.sig), false);
      assert.equal(blsFastAggregateVerify(message, [good.pk], j), false);
    }
    // Uncompressed encodings (96-byte keys, 192-byte signatures) are refused: one form per value.
    assert.equal(blsVerify(new Uint8Array(96), message, good.sig), false);
    assert.equal(blsVerify(good.pk, message, new Uint8Array(192)), false);
    assert.equal(blsVerify(null as never, message, good.sig), false);
    assert.equal(blsVerify(good.pk, 'block 42' as never, good.sig), false);
    assert.equal(blsFastAggregateVerify(message, null as never, good.sig), false);
  });

  it('rejects the point at infinity as a key or signature', () => {
    // With an infinity key and an infinity signature the pairing equation holds for any message.
    assert.equal(blsVerify(hex(INFINITY_PK), message, hex(INFINITY_SIG)), false);
    assert.equal(blsVerify(pks[0]!, message, hex(INFINITY_SIG)), false);
    assert.equal(blsFastAggregateVerify(message, [hex(INFINITY_PK)], hex(INFINITY_SIG)), false);
    assert.equal(
      blsFastAggregateVerify(message, [...pks, hex(INFINITY_PK)], blsAggregateSignatures(sigs)),
      false,
    );
    assert.throws(
      () => blsAggregatePublicKeys([pks[0]!, hex(INFINITY_PK)]),
      (e) => isCryptoError(e) && e.code === 'bls_invalid_input',
    );
  });

  it('refuses empty or malformed aggregation input with a typed error', () => {
    for (const bad of [[], [new Uint8Array(96)], [sigs[0]!, new Uint8Array(95)]]) {
      assert.throws(
        () => blsAggregateSignatures(bad),
        (e) => isCryptoError(e) && e.code === 'bls_invalid_input',
      );
    }
    assert.throws(
      () => blsAggregatePublicKeys([]),
      (e) => isCryptoError(e) && e.code === 'bls_invalid_input',
    );
  });

  it('proves possession of a key, bound to that key', () => {
    const proof = blsProvePossession(signers[0]!);
    assert.equal(blsVerifyPossession(pks[0]!, proof), true);
    assert.equal(blsVerifyPossession(pks[1]!, proof), false);
    // A proof is not a signature over the bare key bytes (domain separation).
    assert.equal(blsVerifyPossession(pks[0]!, signers[0]!.sign(pks[0]!)), false);
  });
});

describe('bls: batched fast aggregate verification', () => {
  const enc = (t: string) => new TextEncoder().encode(t);
  const signers = [1, 2, 3, 4].map((i) => BlsKeyPair.fromSeed(new Uint8Array(32).fill(i)));
  const outsider = BlsKeyPair.fromSeed(new Uint8Array(32).fill(9)).publicKey.bytes;
  /** Certificates of blocks 1..8: block n signed by the first 1 + n % 4 signers, aggregated. */
  const checks = Array.from({ length: 8 }, (_, n) => {
    const message = enc(`block ${n + 1}`);
    const by = signers.slice(0, 1 + (n % 4));
    return {
      message,
      publicKeys: by.map((s) => s.publicKey.bytes),
      signature: blsAggregateSignatures(by.map((s) => s.sign(message))),
    };
  });

  it('accepts a list whose every check passes alone, and refuses one with any check failing', () => {
    for (const c of checks) assert.equal(blsFastAggregateVerify(c.message, c.publicKeys, c.signature), true);
    assert.equal(blsBatchFastAggregateVerify(checks), true);
    assert.equal(blsBatchFastAggregateVerify(checks.slice(0, 1)), true);
    assert.equal(blsBatchFastAggregateVerify([]), true);
    for (const at of [0, 3, 7]) {
      const other = enc('another block');
      const bad = [
        { ...checks[at]!, signature: signers[0]!.sign(other) }, // a signature over another message
        { ...checks[at]!, publicKeys: [...checks[at]!.publicKeys, outsider] }, // a key that did not sign
        { ...checks[at]!, message: other }, // a signature valid for another message
        { ...checks[at]!, signature: checks[(at + 1) % 8]!.signature }, // another check's signature
      ];
      for (const b of bad) {
        assert.equal(blsFastAggregateVerify(b.message, b.publicKeys, b.signature), false);
        assert.equal(blsBatchFastAggregateVerify(checks.map((c, i) => (i === at ? b : c))), false);
      }
    }
  });

  it('is randomized: two wrong signatures whose errors cancel in a plain sum are refused', () => {
    // One key signs m1 and m2; swapping the two signatures leaves their sum, and so an unweighted
    // product of the pairings, unchanged. Each swapped check fails alone, and the weighted batch too.
    const [a, b] = [enc('m1'), enc('m2')];
    const k = signers[0]!;
    const swapped = [
      { message: a, publicKeys: [k.publicKey.bytes], signature: k.sign(b) },
      { message: b, publicKeys: [k.publicKey.bytes], signature: k.sign(a) },
    ];
    assert.deepEqual(
      blsAggregateSignatures(swapped.map((c) => c.signature)),
      blsAggregateSignatures([k.sign(a), k.sign(b)]),
    );
    for (let i = 0; i < 8; i++) assert.equal(blsBatchFastAggregateVerify(swapped), false);
  });

  it('answers false, never throws, on malformed checks, keys at infinity and bad points', () => {
    const c = checks[1]!;
    const variants = [
      { ...c, signature: new Uint8Array(96) },
      { ...c, signature: hex(INFINITY_SIG) },
      { ...c, publicKeys: [] },
      { ...c, publicKeys: [new Uint8Array(48).fill(0xff)] },
      { ...c, publicKeys: [...c.publicKeys, hex(INFINITY_PK)] },
      { ...c, message: 'block 2' as never },
      { ...c, publicKeys: null as never },
      null as never,
    ];
    for (const v of variants) assert.equal(blsBatchFastAggregateVerify([checks[0]!, v]), false);
    assert.equal(blsBatchFastAggregateVerify(null as never), false);
  });
});
