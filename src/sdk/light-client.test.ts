// The light client follows a validator-set change only when the set it trusts vouches for it: a header
// certified by a new roster is taken when more than a third (f + 1) of the trusted validators are among
// its signers, and refused (`validator_set_unvouched`) when the new roster's signers are strangers, even
// with a valid quorum of their own. Headers are served by a fake `fetch` over real BLS certificates.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aggregateCertificate, voteMessage } from '../consensus/certificate.js';
import { ValidatorSet } from '../consensus/validator-set.js';
import { BlsKeyPair } from '../crypto/bls.js';
import { hash } from '../crypto/hash.js';
import { publicKeyToText } from '../crypto/keys.js';
import { type BlockHeader, blockHash, type CommitCertificate } from '../model/block.js';
import { type LedgerCertifiedHeader, LedgerHeadersView } from '../proofs/views.js';
import { ToranaLightClientError } from './errors.js';
import { Ed25519KeyPair } from './keys.js';
import { LightClient } from './light-client.js';

const CHAIN = 'light-sets';
const people = Array.from({ length: 8 }, (_, i) => ({
  peer: Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(40 + i)).publicKeyText(),
  bls: BlsKeyPair.fromSeed(new Uint8Array(32).fill(80 + i)),
}));
const rosterOf = (ids: number[]) =>
  ids.map((i) => ({ peer: people[i]!.peer, blsKey: publicKeyToText(people[i]!.bls.publicKey) }));

function header(height: number): BlockHeader {
  return {
    height,
    prevHash: hash(Uint8Array.of(height - 1)),
    transactionsRoot: hash(new Uint8Array(0)),
    resultsRoot: hash(new Uint8Array(0)),
    stateRoot: hash(Uint8Array.of(height)),
    creationTimeMs: 1_700_000_000_000 + height,
    view: 0,
    transactionCount: 0,
  };
}

function certify(h: BlockHeader, set: ValidatorSet, signers: number[]): CommitCertificate {
  const subject = {
    phase: { kind: 'Commit' as const },
    height: h.height,
    view: 0,
    epoch: 0,
    blockHash: blockHash(h),
    validatorSetHash: set.hash,
  };
  const msg = voteMessage(CHAIN, subject);
  const votes = signers.map((p) => ({
    index: set.indexOf(people[p]!.peer),
    signature: people[p]!.bls.sign(msg),
  }));
  return aggregateCertificate(subject, votes, set);
}

/** Heights 1..n: `setOf(h)` certifies h, signed by `signersOf(h)`; the roster rides on each change. */
function chain(n: number, setOf: (h: number) => number[], signersOf: (h: number) => number[]) {
  const items: LedgerCertifiedHeader[] = [];
  let prev = '';
  for (let h = 1; h <= n; h++) {
    const ids = setOf(h);
    const set = new ValidatorSet(rosterOf(ids));
    const hd = header(h);
    const key = ids.join();
    items.push({
      height: h,
      hash: blockHash(hd),
      header: hd,
      certificate: certify(hd, set, signersOf(h)),
      ...(key !== prev ? { validators: rosterOf(ids) } : {}),
    });
    prev = key;
  }
  return items;
}

function fakeNode(items: LedgerCertifiedHeader[]): typeof fetch {
  return (async (input: string | URL | Request) => {
    const u = new URL(String(input));
    const from = Number(u.searchParams.get('from') ?? 1);
    const limit = Number(u.searchParams.get('limit') ?? 100);
    const page = items.filter((i) => i.height >= from && i.height < from + limit);
    const body = LedgerHeadersView.toJson({ chainId: CHAIN, tip: items.length, items: page });
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
}

const A = [0, 1, 2, 3];
const light = (items: LedgerCertifiedHeader[]) =>
  new LightClient({
    url: 'http://node.invalid',
    chainId: CHAIN,
    validators: rosterOf(A),
    fetch: fakeNode(items),
    headersPerRequest: 2,
  });

describe('light client: validator-set changes', () => {
  it('follows a change that f + 1 trusted validators signed', async () => {
    // Validator 3 leaves, 4 joins at height 4; 0, 1, 2 (trusted) sign it; 1, 2, 4 sign height 5.
    const items = chain(
      5,
      (h) => (h < 4 ? A : [0, 1, 2, 4]),
      (h) => (h < 4 ? [0, 1, 2] : h === 4 ? [0, 1, 2] : [1, 2, 4]),
    );
    const head = await light(items).sync();
    assert.equal(head.height, 5);
  });

  it('refuses a change signed only by validators it never trusted', async () => {
    const stranger = [4, 5, 6, 7];
    const items = chain(
      5,
      (h) => (h < 4 ? A : stranger),
      (h) => (h < 4 ? [0, 1, 2] : [4, 5, 6]),
    );
    await assert.rejects(light(items).sync(), (e: unknown) => {
      assert.ok(e instanceof ToranaLightClientError);
      assert.equal(e.reason, 'validator_set_unvouched', e.message);
      return true;
    });
    // One trusted validator among the signers is not enough either (f + 1 = 2 of 4).
    const mixed = [0, 5, 6, 7];
    const one = chain(
      5,
      (h) => (h < 4 ? A : mixed),
      (h) => (h < 4 ? [0, 1, 2] : [0, 5, 6]),
    );
    await assert.rejects(
      light(one).sync(),
      (e: unknown) => e instanceof ToranaLightClientError && e.reason === 'validator_set_unvouched',
    );
  });

  it('refuses a tip whose certificate lacks a quorum of the trusted set', async () => {
    const items = chain(
      3,
      () => A,
      (h) => (h < 3 ? [0, 1, 2] : [0, 1]),
    );
    await assert.rejects(
      light(items).sync(),
      (e: unknown) => e instanceof ToranaLightClientError && e.reason === 'no_quorum',
    );
  });
});
