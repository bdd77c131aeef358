// Consensus evidence through a real socket: real double votes signed with the node's
// own consensus key, invalid QCs made from real certificates, operator authentication, listing and count.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CODEC_VERSION, encode, encodeFrame } from '../../src/codec/frame.js';
import { CONSENSUS_PROTOCOL, type VoteSubject, voteMessage } from '../../src/consensus/certificate.js';
import { type Evidence, EvidenceCodec } from '../../src/consensus/evidence.js';
import { BlsKeyPair } from '../../src/crypto/bls.js';
import { Ed25519KeyPair } from '../../src/crypto/signer.js';
import { signOperatorRequest } from '../../src/gateway/operator-message.js';
import { createSchemaRegistry } from '../../src/model/schema.js';
import { loadConsensusKey } from '../../src/node/consensus-key.js';
import { toHex } from '../../src/util/hex.js';
import { operatorAudience, type ServedTestNode, startServedNode } from '../helpers/served.js';

const OPERATOR_SEED = new Uint8Array(32).fill(0x42);
const OPERATOR_KEY = Ed25519KeyPair.fromSeed(OPERATOR_SEED).publicKeyText();
const registry = createSchemaRegistry([EvidenceCodec]);
const PATH = '/v1/consensus/evidence/submit';

async function submit(t: ServedTestNode, body: string, signed = true) {
  const auth = signed
    ? signOperatorRequest({
        method: 'POST',
        url: PATH,
        body,
        seed: OPERATOR_SEED,
        ...operatorAudience(t.node),
      })
    : {};
  const res = await fetch(`${t.url}${PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth },
    body,
  });
  return { status: res.status, body: JSON.parse(await res.text()) };
}
async function get(url: string) {
  const res = await fetch(url);
  const body = JSON.parse(await res.text());
  return { status: res.status, json: () => body };
}
const hexBody = (bytes: Uint8Array) => JSON.stringify({ evidence_hex: toHex(bytes) });
const framed = (e: Evidence) => encodeFrame(registry, EvidenceCodec, e);

describe('consensus evidence (operators configured)', () => {
  let t: ServedTestNode;
  let key: BlsKeyPair;
  before(async () => {
    t = await startServedNode({ 'telemetry.profile': 'full', 'operator.public_keys': [OPERATOR_KEY] });
    key = await loadConsensusKey(join(t.dir, 'consensus.key.json'));
  });
  after(async () => t.stopAll());

  /** Two commit votes by the node's validator for the tip height: the real block and another one. */
  async function doubleVote(other: number, signer?: BlsKeyPair): Promise<Evidence> {
    const tip = (await t.node.ledger.block(t.node.ledger.height()))!;
    const subject = (blockHash: Uint8Array): VoteSubject => ({
      protocol: CONSENSUS_PROTOCOL,
      chainId: t.chainId,
      phase: { kind: 'Commit' },
      height: tip.header.height,
      view: 0,
      epoch: 0,
      blockHash,
      validatorSetHash: t.node.validatorSet.hash,
    });
    const a = subject(tip.certificate.blockHash);
    const b = subject(other === 0 ? tip.certificate.blockHash : new Uint8Array(32).fill(other));
    const k = signer ?? key;
    return {
      kind: 'DoubleCommitVote',
      first: a,
      second: b,
      validatorIndex: 0,
      firstSignature: k.sign(voteMessage(t.chainId, a)),
      secondSignature: k.sign(voteMessage(t.chainId, b)),
    };
  }

  it('accepts real double-vote evidence once, then answers duplicate (also with the votes swapped)', async () => {
    const e = await doubleVote(7);
    const r = await submit(t, hexBody(framed(e)));
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal(r.body.status, 'accepted');
    assert.equal(r.body.kind, 'DoubleCommitVote');
    assert.match(r.body.id, /^[0-9a-f]{64}$/);
    const again = await submit(t, hexBody(framed(e)));
    assert.deepEqual([again.status, again.body], [202, { ...r.body, status: 'duplicate' }]);
    if (e.kind === 'InvalidQc' || e.kind === 'InvalidProposal') throw new Error('unreachable');
    const swapped = {
      ...e,
      first: e.second,
      second: e.first,
      firstSignature: e.secondSignature,
      secondSignature: e.firstSignature,
    };
    const bare = Uint8Array.of(CODEC_VERSION, ...encode(EvidenceCodec, swapped));
    assert.equal((await submit(t, hexBody(bare))).body.status, 'duplicate');
    const list = (await get(`${t.url}/v1/consensus/evidence?kind=DoubleCommitVote`)).json();
    assert.equal(list.total, 1);
    assert.equal(list.items[0].id, r.body.id);
    assert.equal(list.items[0].finding, 'double_vote');
    assert.equal(list.items[0].evidence.kind, 'DoubleCommitVote');
    assert.equal((await get(`${t.url}/v1/consensus/evidence/count`)).json().count, 1);
  });

  it('accepts an invalid QC made from a real certificate; refuses the real certificate itself', async () => {
    const cert = (await t.node.ledger.block(1))!.certificate;
    const forged = { ...cert, blockHash: new Uint8Array(32).fill(3) };
    const r = await submit(t, hexBody(framed({ kind: 'InvalidQc', certificate: forged })));
    assert.deepEqual([r.status, r.body.status, r.body.kind], [202, 'accepted', 'InvalidQc']);
    const real = await submit(t, hexBody(framed({ kind: 'InvalidQc', certificate: cert })));
    assert.deepEqual(
      [real.status, real.body.code, real.body.details.reason],
      [400, 'evidence_invalid', 'certificate_valid'],
    );
    const qcs = (await get(`${t.url}/v1/consensus/evidence?kind=InvalidQc`)).json();
    assert.deepEqual([qcs.total, qcs.items[0].finding], [1, 'bad_signature']);
    const page = (await get(`${t.url}/v1/consensus/evidence?limit=1&offset=1`)).json();
    assert.deepEqual([page.total, page.items.length, page.items[0].kind], [2, 1, 'DoubleCommitVote']);
  });

  it('refuses evidence that proves nothing, with a precise reason', async () => {
    const same = await submit(t, hexBody(framed(await doubleVote(0))));
    assert.deepEqual(
      [same.status, same.body.code, same.body.details.reason],
      [400, 'evidence_invalid', 'same_block'],
    );
    const stranger = await submit(t, hexBody(framed(await doubleVote(9, BlsKeyPair.generate()))));
    assert.deepEqual([stranger.status, stranger.body.details.reason], [400, 'bad_signature']);
    const notHex = await submit(t, JSON.stringify({ evidence_hex: 'zz' }));
    assert.deepEqual(
      [notHex.status, notHex.body.code, notHex.body.details.reason],
      [400, 'evidence_malformed', 'not_hex'],
    );
    const proposal = await submit(
      t,
      hexBody(
        framed({
          kind: 'InvalidProposal',
          height: 2,
          view: 0,
          validatorSetHash: t.node.validatorSet.hash,
          proposerIndex: 0,
          blockHash: new Uint8Array(32).fill(4),
          reason: 'state_root_mismatch',
        }),
      ),
    );
    assert.deepEqual([proposal.status, proposal.body.details.reason], [400, 'not_verifiable']);
    const junk = await submit(t, hexBody(Uint8Array.of(1, 200, 1)));
    assert.deepEqual([junk.status, junk.body.code], [400, 'evidence_malformed']);
    const huge = await submit(t, JSON.stringify({ evidence_hex: 'ab'.repeat(20_000) }));
    assert.deepEqual([huge.status, huge.body.code], [413, 'body_too_large']);
    const shape = await submit(t, JSON.stringify({ evidence: 'ab' }));
    assert.deepEqual([shape.status, shape.body.code], [400, 'bad_request']);
    assert.equal((await get(`${t.url}/v1/consensus/evidence/count`)).json().count, 2, 'nothing more stored');
  });

  it('needs a signed operator request; listing parameters are checked', async () => {
    const r = await submit(t, hexBody(framed(await doubleVote(11))), false);
    assert.deepEqual([r.status, r.body.code], [401, 'operator_auth_missing']);
    for (const q of ['limit=0', 'limit=501', 'offset=-1']) {
      const l = await get(`${t.url}/v1/consensus/evidence?${q}`);
      assert.deepEqual([l.status, l.json().code], [400, 'invalid_pagination'], q);
    }
    assert.equal((await get(`${t.url}/v1/consensus/evidence?kind=Bogus`)).status, 400);
  });
});

describe('consensus evidence (no operators configured)', () => {
  let t: ServedTestNode;
  before(async () => {
    t = await startServedNode();
  });
  after(async () => t.stopAll());

  it('answers 403 operator_access_disabled', async () => {
    const r = await submit(t, JSON.stringify({ evidence_hex: '00' }));
    assert.deepEqual([r.status, r.body.code], [403, 'operator_access_disabled']);
  });
});
