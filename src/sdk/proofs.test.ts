// The SDK's proof verifiers refuse tampered material: a header changed in any field, a certificate
// with too few signers, a bad signature, another chain or validator set, the unsigned genesis
// certificate; a state value, proof or root changed; an inclusion path shown for another transaction or
// result. Real BLS signatures (four validators) and a real state tree in memory.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aggregateCertificate, genesisCertificate, voteMessage } from '../consensus/certificate.js';
import { ValidatorSet } from '../consensus/validator-set.js';
import { BlsKeyPair } from '../crypto/bls.js';
import { hash } from '../crypto/hash.js';
import { publicKeyToText } from '../crypto/keys.js';
import { type BlockHeader, blockHash, blockMerklePath, merkleRoot } from '../model/block.js';
import { stateKey } from '../state/keys.js';
import { encodeStateProof } from '../state/merkle/proof.js';
import { memoryTree } from '../state/merkle/tree.js';
import { Ed25519KeyPair } from './keys.js';
import { validatorSetOf, verifyCertifiedHeader, verifyEntryProof, verifyStateAnswer } from './proofs.js';

const CHAIN = 'light-test';
const keys = [1, 2, 3, 4].map((i) => BlsKeyPair.fromSeed(new Uint8Array(32).fill(i)));
const roster = keys.map((k, i) => ({
  peer: Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(10 + i)).publicKeyText(),
  blsKey: publicKeyToText(k.publicKey),
  key: k,
}));
const set = new ValidatorSet(roster.map(({ peer, blsKey }) => ({ peer, blsKey })));
const signerOf = (i: number) => roster.find((r) => r.peer === set.validators[i]!.peer)!.key;

function header(over: Partial<BlockHeader> = {}): BlockHeader {
  return {
    height: 7,
    prevHash: hash(Uint8Array.of(6)),
    transactionsRoot: hash(Uint8Array.of(1)),
    resultsRoot: hash(Uint8Array.of(2)),
    stateRoot: hash(Uint8Array.of(3)),
    creationTimeMs: 1_700_000_000_000,
    view: 0,
    transactionCount: 1,
    ...over,
  };
}

function certify(h: BlockHeader, signers: number[], chainId = CHAIN, s = set) {
  const subject = {
    phase: { kind: 'Commit' as const },
    height: h.height,
    view: 0,
    epoch: 0,
    blockHash: blockHash(h),
    validatorSetHash: s.hash,
  };
  const msg = voteMessage(chainId, subject);
  return aggregateCertificate(
    subject,
    signers.map((index) => ({ index, signature: signerOf(index).sign(msg) })),
    s,
  );
}

describe('SDK proof verifiers', () => {
  it('a certified header verifies; any change to it, its certificate or the set is refused', () => {
    const h = header();
    const cert = certify(h, [0, 1, 2]);
    assert.equal(set.quorum, 3);
    assert.equal(verifyCertifiedHeader(CHAIN, h, cert, set), undefined);
    assert.equal(
      verifyCertifiedHeader(CHAIN, header({ stateRoot: hash(Uint8Array.of(4)) }), cert, set),
      'block_hash_mismatch',
    );
    assert.equal(verifyCertifiedHeader(CHAIN, header({ height: 8 }), cert, set), 'height_mismatch');
    assert.equal(verifyCertifiedHeader(CHAIN, h, certify(h, [0, 1]), set), 'no_quorum');
    assert.equal(verifyCertifiedHeader('other-chain', h, cert, set), 'bad_signature');
    assert.equal(verifyCertifiedHeader(CHAIN, h, certify(h, [0, 1, 2], 'other-chain'), set), 'bad_signature');
    const flipped = { ...cert, signers: Uint8Array.of(0b1011) };
    assert.equal(verifyCertifiedHeader(CHAIN, h, flipped, set), 'bad_signature');
    assert.equal(
      verifyCertifiedHeader(CHAIN, h, { ...cert, signers: Uint8Array.of(0xff) }, set),
      'bad_bitmap',
    );
    assert.equal(
      verifyCertifiedHeader(CHAIN, h, { ...cert, phase: { kind: 'Prepare' } }, set),
      'not_a_commit',
    );
    const three = new ValidatorSet(set.validators.slice(0, 3));
    assert.equal(verifyCertifiedHeader(CHAIN, h, cert, three), 'wrong_validator_set');
    const g = header({ height: 1 });
    assert.equal(
      verifyCertifiedHeader(CHAIN, g, genesisCertificate(blockHash(g), set), set),
      'unsigned_genesis_certificate',
    );
    assert.equal(validatorSetOf([]), undefined);
    assert.equal(validatorSetOf([{ peer: roster[0]!.peer, blsKey: 'not a key' }]), undefined);
  });

  it('a state proof verifies its value or absence; a changed value, proof or root is refused', () => {
    const tree = memoryTree();
    const rows = Array.from({ length: 40 }, (_, i) => ({
      key: stateKey(0x04, `rose#wonderland#acct${i}`),
      value: Uint8Array.of(i, 1, 2),
    }));
    tree.apply(tree.prepare(rows, 1));
    const root = tree.stateRoot();
    const { key, value } = rows[17]!;
    const proof = encodeStateProof(tree.prove(key));
    assert.ok(verifyStateAnswer(root, key, value, proof));
    assert.ok(!verifyStateAnswer(root, key, Uint8Array.of(17, 1, 3), proof), 'another value');
    assert.ok(!verifyStateAnswer(root, key, undefined, proof), 'claimed absent');
    assert.ok(!verifyStateAnswer(root, rows[18]!.key, value, proof), 'another key');
    for (let i = 2; i < proof.length; i += 7) {
      const bad = proof.slice();
      bad[i]! ^= 0x10;
      assert.ok(!verifyStateAnswer(root, key, value, bad), `proof byte ${i} changed`);
    }
    assert.ok(!verifyStateAnswer(root, key, value, proof.subarray(0, proof.length - 1)), 'truncated');
    const v1 = root.slice();
    v1[31]! |= 1; // a version-1 (multiset) root
    assert.ok(!verifyStateAnswer(v1, key, value, proof));
    const absent = stateKey(0x04, 'rose#wonderland#nobody');
    const none = encodeStateProof(tree.prove(absent));
    assert.ok(verifyStateAnswer(root, absent, undefined, none));
    assert.ok(!verifyStateAnswer(root, absent, Uint8Array.of(1), none), 'claimed present');
  });

  it('an inclusion proof shows one transaction and its result; another is refused', () => {
    const txs = Array.from({ length: 5 }, (_, i) => hash(Uint8Array.of(9, i)));
    const resultBytes = txs.map((_, i) => Uint8Array.of(i === 3 ? 1 : 0));
    const results = resultBytes.map((b) => hash(b));
    const h = header({
      transactionCount: 5,
      transactionsRoot: merkleRoot(txs),
      resultsRoot: merkleRoot(results),
    });
    const proofOf = (i: number) => ({
      entryHash: txs[i]!,
      index: i,
      transactionsPath: blockMerklePath(i, txs),
      resultBytes: resultBytes[i]!,
      resultsPath: blockMerklePath(i, results),
    });
    for (let i = 0; i < 5; i++) assert.ok(verifyEntryProof(h, txs[i]!, proofOf(i)), `tx ${i}`);
    const p = proofOf(3);
    assert.ok(!verifyEntryProof(h, txs[2]!, p), 'another transaction');
    assert.ok(!verifyEntryProof(h, txs[3]!, { ...p, resultBytes: Uint8Array.of(0) }), 'another result');
    assert.ok(!verifyEntryProof(h, txs[3]!, { ...p, index: 2 }), 'another index');
    // The last of 5 sits one level under the root; with a count of 8 its path would need 3 siblings.
    assert.ok(
      !verifyEntryProof(header({ ...h, transactionCount: 8 }), txs[4]!, proofOf(4)),
      "another header's count",
    );
  });
});
