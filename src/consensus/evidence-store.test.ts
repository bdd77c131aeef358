// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CODEC_VERSION, encode, encodeFrame } from '../codec/frame.js';
import { BlsKeyPair } from '../crypto/bls.js';
import { publicKeyToText } from '../crypto/keys.js';
import { Ed25519KeyPair } from '../crypto/signer.js';
import { createSchemaRegistry } from '../model/schema.js';
import { CONSENSUS_PROTOCOL, type VoteSubject, voteMessage } from './certificate.js';
import { type Evidence, EvidenceCodec } from './evidence.js';
import {
  type AdmitContext,
  admitEvidence,
  EVIDENCE_BYTES_MAX,
  type EvidenceEntry,
  EvidenceStore,
} from './evidence-store.js';
import { ValidatorSet } from './validator-set.js';

const CHAIN = 'evidence-store-test';
const bls = BlsKeyPair.fromSeed(new Uint8Array(32).fill(5));
const peer = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(2)).publicKeyText();
const set = new ValidatorSet([{ peer, blsKey: publicKeyToText(bls.publicKey) }]);
const registry = createSchemaRegistry([EvidenceCodec]);

function doubleCommit(a: number, b: number, height = 4): Evidence {
  const s = (block: number): VoteSubject => ({
    protocol: CONSENSUS_PROTOCOL,
    chainId: CHAIN,
    phase: { kind: 'Commit' },
    height,
    view: 0,
    epoch: 0,
    blockHash: new Uint8Array(32).fill(block),
    validatorSetHash: set.hash,
  });
  return {
    kind: 'DoubleCommitVote',
    first: s(a),
    second: s(b),
    validatorIndex: 0,
    firstSignature: bls.sign(voteMessage(CHAIN, s(a))),
    secondSignature: bls.sign(voteMessage(CHAIN, s(b))),
  };
}

const context = (store: EvidenceStore): AdmitContext => ({
  chainId: CHAIN,
  validatorSets: [set],
  store,
  nowMs: 1234,
  height: 9,
});
const framed = (e: Evidence) => encodeFrame(registry, EvidenceCodec, e);
const bare = (e: Evidence) => Uint8Array.of(CODEC_VERSION, ...encode(EvidenceCodec, e));

describe('admitEvidence', () => {
  it('stores framed or bare evidence once; the same offence again is a duplicate', () => {
    const store = new EvidenceStore();
    const first = admitEvidence(framed(doubleCommit(1, 2)), context(store));
    assert.ok(first.ok);
    assert.equal(first.status, 'accepted');
    assert.equal(first.kind, 'DoubleCommitVote');
    assert.match(first.id, /^[0-9a-f]{64}$/);
    const again = admitEvidence(bare(doubleCommit(1, 2)), context(store));
    assert.deepEqual(again, { ...first, status: 'duplicate' });
    const swapped = admitEvidence(framed(doubleCommit(2, 1)), context(store));
    assert.ok(swapped.ok);
    assert.equal(swapped.status, 'duplicate');
    assert.equal(store.count(), 1);
    const [entry] = store.list({ offset: 0, limit: 10 }).items;
    assert.equal(entry?.finding, 'double_vote');
    assert.equal(entry?.recordedAtMs, 1234);
    assert.equal(entry?.recordedAtHeight, 9);
  });

  it('refuses undecodable bytes and evidence that proves nothing, storing nothing', () => {
    const store = new EvidenceStore();
    const junk = admitEvidence(Uint8Array.of(0x54, 0x58, 0x4e, 0x43), context(store));
    assert.deepEqual(junk.ok ? 'ok' : [junk.code, junk.reason], ['evidence_malformed', 'codec_bad_magic']);
    const cut = framed(doubleCommit(1, 2)).subarray(0, 60);
    const truncated = admitEvidence(cut, context(store));
    assert.equal(truncated.ok ? 'ok' : truncated.code, 'evidence_malformed');
    const big = admitEvidence(new Uint8Array(EVIDENCE_BYTES_MAX + 1), context(store));
    assert.equal(big.ok ? 'ok' : big.reason, 'too_large');
    const same = admitEvidence(framed(doubleCommit(3, 3)), context(store));
    assert.deepEqual(same.ok ? 'ok' : [same.code, same.reason], ['evidence_invalid', 'same_block']);
    assert.equal(store.count(), 0);
  });
});

describe('EvidenceStore', () => {
  const entry = (n: number, kind: EvidenceEntry['kind'] = 'DoubleCommitVote'): EvidenceEntry => ({
    id: n.toString(16).padStart(64, '0'),
    kind,
    finding: 'double_vote',
    recordedAtMs: n,
    recordedAtHeight: n,
    evidence: doubleCommit(1, 2, n),
  });

  it('drops the oldest records beyond its capacity', () => {
    const store = new EvidenceStore(3);
    for (let n = 1; n <= 5; n++) assert.equal(store.add(entry(n)), 'accepted');
    assert.equal(store.count(), 3);
    assert.equal(store.dropped, 2);
    assert.deepEqual(
      store.list({ offset: 0, limit: 10 }).items.map((e) => e.recordedAtMs),
      [5, 4, 3],
    );
    assert.equal(store.add(entry(1)), 'accepted', 'a dropped record is forgotten');
    assert.equal(store.add(entry(5)), 'duplicate');
  });

  it('lists newest first with a kind filter, offset and limit; total counts every match', () => {
    const store = new EvidenceStore();
    for (let n = 1; n <= 6; n++) store.add(entry(n, n % 2 === 0 ? 'InvalidQc' : 'DoubleCommitVote'));
    const qcs = store.list({ kind: 'InvalidQc', offset: 1, limit: 1 });
    assert.equal(qcs.total, 3);
    assert.deepEqual(
      qcs.items.map((e) => e.recordedAtMs),
      [4],
    );
    assert.deepEqual(store.list({ kind: 'DoublePrepareVote', offset: 0, limit: 5 }), { total: 0, items: [] });
    assert.equal(store.list({ offset: 4, limit: 5 }).items.length, 2);
    assert.throws(() => new EvidenceStore(0), RangeError);
  });
});
