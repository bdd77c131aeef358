// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decode, encode } from '../codec/frame.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { BlsKeyPair } from '../crypto/bls.js';
import { publicKeyToText } from '../crypto/keys.js';
import { Ed25519KeyPair } from '../crypto/signer.js';
import type { CommitCertificate } from '../model/block.js';
import { aggregateCertificate, CONSENSUS_PROTOCOL, type VoteSubject, voteMessage } from './certificate.js';
import {
  canonicalEvidence,
  type Evidence,
  EvidenceCodec,
  type EvidenceContext,
  evidenceId,
  verifyEvidence,
} from './evidence.js';
import { ValidatorSet } from './validator-set.js';

const CHAIN = 'evidence-test';
const bls = BlsKeyPair.fromSeed(new Uint8Array(32).fill(7));
const other = BlsKeyPair.fromSeed(new Uint8Array(32).fill(8));
const peer = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(1)).publicKeyText();
const set = new ValidatorSet([{ peer, blsKey: publicKeyToText(bls.publicKey) }]);
const ctx: EvidenceContext = { chainId: CHAIN, validatorSets: [set] };

function subject(block: number, over: Partial<VoteSubject> = {}): VoteSubject {
  return {
    protocol: CONSENSUS_PROTOCOL,
    chainId: CHAIN,
    phase: { kind: 'Commit' },
    height: 5,
    view: 0,
    epoch: 0,
    blockHash: new Uint8Array(32).fill(block),
    validatorSetHash: set.hash,
    ...over,
  };
}

/** Signs the way the engine does (certificate.ts voteMessage) with the validator's key. */
const sign = (s: VoteSubject, key = bls) => key.sign(voteMessage(s.chainId, s));

function doubleVote(
  a: VoteSubject,
  b: VoteSubject,
  kind: 'DoubleCommitVote' | 'DoublePrepareVote' = 'DoubleCommitVote',
) {
  return {
    kind,
    first: a,
    second: b,
    validatorIndex: 0,
    firstSignature: sign(a),
    secondSignature: sign(b),
  } satisfies Evidence;
}

function certificate(block: number): CommitCertificate {
  const s = {
    phase: { kind: 'Commit' as const },
    height: 3,
    view: 0,
    epoch: 0,
    blockHash: new Uint8Array(32).fill(block),
    validatorSetHash: set.hash,
  };
  return aggregateCertificate(s, [{ index: 0, signature: bls.sign(voteMessage(CHAIN, s)) }], set);
}

const refusal = (e: Evidence) => {
  const v = verifyEvidence(e, ctx);
  return v.ok ? 'accepted' : v.reason;
};

describe('consensus evidence: double votes', () => {
  it('accepts two signed votes of one phase, height and view for different blocks', () => {
    assert.deepEqual(verifyEvidence(doubleVote(subject(1), subject(2)), ctx), {
      ok: true,
      finding: 'double_vote',
    });
    const p = { phase: { kind: 'Prepare' as const } };
    assert.equal(refusal(doubleVote(subject(1, p), subject(2, p), 'DoublePrepareVote')), 'accepted');
  });

  it('refuses votes that do not conflict or are not this chain', () => {
    const cases: [string, Evidence][] = [
      ['same_block', doubleVote(subject(1), subject(1))],
      ['not_conflicting', doubleVote(subject(1), subject(2, { height: 6 }))],
      ['not_conflicting', doubleVote(subject(1), subject(2, { view: 1 }))],
      ['not_conflicting', doubleVote(subject(1), subject(2, { epoch: 1 }))],
      ['wrong_phase', doubleVote(subject(1), subject(2), 'DoublePrepareVote')],
      ['wrong_chain', doubleVote(subject(1, { chainId: 'other' }), subject(2, { chainId: 'other' }))],
      ['wrong_protocol', doubleVote(subject(1, { protocol: 'x/1' }), subject(2, { protocol: 'x/1' }))],
      [
        'unknown_validator_set',
        doubleVote(
          subject(1, { validatorSetHash: new Uint8Array(32) }),
          subject(2, { validatorSetHash: new Uint8Array(32) }),
        ),
      ],
      ['validator_index', { ...doubleVote(subject(1), subject(2)), validatorIndex: 1 }],
    ];
    for (const [reason, e] of cases) assert.equal(refusal(e), reason, reason);
  });

  it('refuses signatures that are not the validator’s over these votes', () => {
    const e = doubleVote(subject(1), subject(2));
    assert.equal(refusal({ ...e, secondSignature: sign(subject(2), other) }), 'bad_signature');
    assert.equal(
      refusal({ ...e, firstSignature: e.secondSignature, secondSignature: e.firstSignature }),
      'bad_signature',
    );
    assert.equal(refusal({ ...e, firstSignature: new Uint8Array(96) }), 'bad_signature');
  });

  it('swapping the two votes gives the same canonical record and id', () => {
    const ab = doubleVote(subject(1), subject(2));
    const ba = doubleVote(subject(2), subject(1));
    assert.deepEqual(canonicalEvidence(ab), canonicalEvidence(ba));
    assert.deepEqual(evidenceId(ab), evidenceId(ba));
    assert.equal(refusal(canonicalEvidence(ba)), 'accepted', 'signatures stay with their votes');
    assert.notDeepEqual(evidenceId(ab), evidenceId(doubleVote(subject(1), subject(3))));
    const bytes = encode(EvidenceCodec, ab);
    const back = decode(EvidenceCodec, bytes, DEFAULT_DECODE_LIMITS);
    assert.ok(back.ok);
    assert.deepEqual(back.value, ab);
  });
});

describe('consensus evidence: invalid QC', () => {
  it('refuses a certificate that verifies', () => {
    assert.equal(refusal({ kind: 'InvalidQc', certificate: certificate(1) }), 'certificate_valid');
  });

  it('accepts a certificate that fails verification, naming the failure', () => {
    const good = certificate(1);
    const forged = { ...good, blockHash: new Uint8Array(32).fill(9) };
    assert.deepEqual(verifyEvidence({ kind: 'InvalidQc', certificate: forged }, ctx), {
      ok: true,
      finding: 'bad_signature',
    });
    const empty = { ...good, signers: new Uint8Array(1) };
    assert.deepEqual(verifyEvidence({ kind: 'InvalidQc', certificate: empty }, ctx), {
      ok: true,
      finding: 'no_quorum',
    });
    const wide = { ...good, signers: new Uint8Array(2) };
    assert.deepEqual(verifyEvidence({ kind: 'InvalidQc', certificate: wide }, ctx), {
      ok: true,
      finding: 'bad_bitmap',
    });
  });

  it('refuses a certificate for a validator set this chain never had', () => {
    const c = { ...certificate(1), validatorSetHash: new Uint8Array(32).fill(3) };
    assert.equal(refusal({ kind: 'InvalidQc', certificate: c }), 'unknown_validator_set');
  });
});

describe('consensus evidence: invalid proposal', () => {
  const proposal = (reason: string): Evidence => ({
    kind: 'InvalidProposal',
    height: 12,
    view: 3,
    validatorSetHash: set.hash,
    proposerIndex: 0,
    blockHash: new Uint8Array(32).fill(6),
    reason,
  });

  it('is appended as a new variant: the earlier tags keep their bytes', () => {
    const bytes = encode(EvidenceCodec, proposal('state_root_mismatch'));
    assert.equal(bytes[0], 3, 'tag 3 follows DoublePrepareVote, DoubleCommitVote, InvalidQc');
    const back = decode(EvidenceCodec, bytes, DEFAULT_DECODE_LIMITS);
    assert.ok(back.ok);
    assert.deepEqual(back.value, proposal('state_root_mismatch'));
  });

  it('bounds the reason to 64 bytes', () => {
    assert.ok(
      decode(EvidenceCodec, encode(EvidenceCodec, proposal('r'.repeat(64))), DEFAULT_DECODE_LIMITS).ok,
    );
    const long = decode(
      EvidenceCodec,
      encode(EvidenceCodec, proposal('r'.repeat(65))),
      DEFAULT_DECODE_LIMITS,
    );
    assert.equal(long.ok, false);
  });

  it('cannot be verified by others: not_verifiable; its id is stable', () => {
    const e = proposal('wrong_leader');
    assert.deepEqual(
      (({ ok, ...rest }) => [ok, 'reason' in rest ? rest.reason : ''])(verifyEvidence(e, ctx)),
      [false, 'not_verifiable'],
    );
    assert.equal(canonicalEvidence(e), e);
    assert.deepEqual(evidenceId(e), evidenceId(proposal('wrong_leader')));
    assert.notDeepEqual(evidenceId(e), evidenceId(proposal('bad_justify')));
  });
});
