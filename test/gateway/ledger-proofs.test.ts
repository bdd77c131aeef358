// The ledger-proofs routes through a real socket (docs/ledger-proofs.md): certified headers whose
// certificates verify against the validator roster they carry, state proofs that verify against the
// header's state root (present and absent keys, every key form), transaction inclusion proofs, the
// stable errors of a pruned height and of a value changed since, and bounded parameters. One served
// node keeping 3 state-tree versions.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ValidatorSet } from '../../src/consensus/validator-set.js';
import { TABLE_TAGS } from '../../src/model/tags.js';
import { LedgerEntryProofView, LedgerHeadersView, LedgerStateProofView } from '../../src/proofs/views.js';
import { decodeAnswer } from '../../src/sdk/answers.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { instructions as ix } from '../../src/sdk/instructions.js';
import { accountOf, generateKeyPair } from '../../src/sdk/keys.js';
import { verifyCertifiedHeader, verifyEntryProof, verifyStateAnswer } from '../../src/sdk/proofs.js';
import { stateKey } from '../../src/state/keys.js';
import { fromHex, toHex } from '../../src/util/hex.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

describe('ledger proofs routes (/v1/ledger/*)', () => {
  let t: ServedTestNode;
  let client: ToranaClient;
  const alice = accountOf(generateKeyPair(), 'wonderland');
  let mintHash = '';
  let mintHeight = 0;
  const get = async (path: string) => {
    const res = await fetch(`${t.url}${path}`, { headers: { accept: 'application/json' } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  before(async () => {
    t = await startServedNode({ 'storage.state_tree_versions_kept': 3 });
    client = new ToranaClient({ url: t.url, account: t.admin.id, signer: t.admin.key });
    await client.submitAndWait(
      await client.build([
        ix.registerDomain('wonderland'),
        ix.registerAccount(alice),
        ix.registerAssetDefinition('rose#wonderland', { scale: 2 }),
      ]),
    );
    const mint = await client.build([ix.mintAsset('rose#wonderland', alice, '12.5')]);
    ({ hash: mintHash, blockHeight: mintHeight } = await client.submitAndWait(mint));
  });
  after(async () => t.stopAll());

  async function headers(from: number, limit?: number) {
    const q = limit === undefined ? `from=${from}` : `from=${from}&limit=${limit}`;
    const { status, body } = await get(`/v1/ledger/headers?${q}`);
    assert.equal(status, 200, JSON.stringify(body));
    return decodeAnswer(LedgerHeadersView, body, 'headers');
  }

  it('serves certified headers whose certificates verify against the roster they carry', async () => {
    const page = await headers(1);
    assert.equal(page.chainId, t.node.config.node.chainId);
    assert.equal(page.items.length, page.tip);
    assert.ok(page.items[0]!.validators !== undefined, 'the first item carries the roster');
    const set = new ValidatorSet(page.items[0]!.validators!);
    for (const item of page.items) {
      assert.equal(verifyCertifiedHeader(page.chainId, item.header, item.certificate, set), undefined);
      if (item !== page.items[0])
        assert.equal(item.validators, undefined, 'an unchanged roster is not repeated');
    }
    // A header changed in one field no longer matches its certificate.
    const h = page.items.at(-1)!;
    const forged = { ...h.header, stateRoot: new Uint8Array(32) };
    assert.equal(verifyCertifiedHeader(page.chainId, forged, h.certificate, set), 'block_hash_mismatch');
    assert.equal((await headers(2, 1)).items.map((i) => i.height).join(), '2');
  });

  it('bounds limit and from (invalid_pagination)', async () => {
    for (const q of ['limit=501', 'limit=0', 'from=0', 'from=x']) {
      const { status, body } = await get(`/v1/ledger/headers?${q}`);
      assert.equal(status, 400, q);
      assert.equal(body.code, 'invalid_pagination', q);
    }
  });

  it('proves a balance, an account, a definition and an absent key against the header state root', async () => {
    const tip = (await headers(1)).tip;
    const root = (await headers(tip, 1)).items[0]!.header.stateRoot;
    const forms: [string, Uint8Array, boolean][] = [
      [
        `asset=${encodeURIComponent(`rose#wonderland#${alice}`)}`,
        stateKey(TABLE_TAGS.asset, `rose#wonderland#${alice}`),
        true,
      ],
      [`account=${encodeURIComponent(alice)}`, stateKey(TABLE_TAGS.account, alice), true],
      ['definition=rose%23wonderland', stateKey(TABLE_TAGS.assetDefinition, 'rose#wonderland'), true],
      ['domain=nowhere', stateKey(TABLE_TAGS.domain, 'nowhere'), false],
      [`key=${toHex(stateKey(TABLE_TAGS.account, alice))}`, stateKey(TABLE_TAGS.account, alice), true],
    ];
    for (const [q, key, present] of forms) {
      const { status, body } = await get(`/v1/ledger/state-proof/${tip}?${q}`);
      assert.equal(status, 200, `${q}: ${JSON.stringify(body)}`);
      const p = decodeAnswer(LedgerStateProofView, body, 'state-proof');
      assert.equal(p.present, present, q);
      assert.deepEqual(p.key, key, q);
      assert.deepEqual(p.stateRoot, root);
      assert.ok(verifyStateAnswer(root, key, p.value, p.proof), `${q} verifies`);
      if (present) {
        // The same proof does not pass for another value, nor for absence.
        const other = p.value!.slice();
        other[other.length - 1]! ^= 1;
        assert.ok(!verifyStateAnswer(root, key, other, p.proof), `${q}: a changed value`);
        assert.ok(!verifyStateAnswer(root, key, undefined, p.proof), `${q}: absence`);
      }
    }
    const { body } = await get(
      `/v1/ledger/state-proof/${tip}?asset=${encodeURIComponent(`rose#wonderland#${alice}`)}`,
    );
    assert.equal(body.table, 'asset');
    assert.deepEqual((body.decoded as { value: unknown }).value, '12.50');
  });

  it('answers state_proof_value_changed for a value changed since, and state_proof_height_pruned past the kept versions', async () => {
    const asset = `asset=${encodeURIComponent(`rose#wonderland#${alice}`)}`;
    const before = (await headers(1)).tip;
    await client.submitAndWait(await client.build([ix.mintAsset('rose#wonderland', alice, '1')]));
    const changed = await get(`/v1/ledger/state-proof/${before}?${asset}`);
    assert.equal(changed.status, 409, JSON.stringify(changed.body));
    assert.equal(changed.body.code, 'state_proof_value_changed');
    // Three more blocks push `before` out of the 3 kept versions.
    for (let i = 0; i < 3; i++)
      await client.submitAndWait(await client.build([ix.registerDomain(`filler${i}`)]));
    const pruned = await get(`/v1/ledger/state-proof/1?${asset}`);
    assert.equal(pruned.status, 410, JSON.stringify(pruned.body));
    assert.equal(pruned.body.code, 'state_proof_height_pruned');
    const tip = (await headers(1)).tip;
    assert.equal((await get(`/v1/ledger/state-proof/${tip + 5}?${asset}`)).status, 404);
    for (const q of ['', 'key=zz', `${asset}&domain=x`, 'account=nobody', 'asset=x']) {
      const r = await get(`/v1/ledger/state-proof/${tip}?${q}`);
      assert.equal(r.status, 400, q);
      assert.equal(r.body.code, 'bad_request', q);
    }
  });

  it("proves a transaction and its result in the block's roots", async () => {
    const page = await headers(mintHeight, 1);
    const header = page.items[0]!.header;
    const { status, body } = await get(`/v1/ledger/block/${mintHeight}/proof/${mintHash}`);
    assert.equal(status, 200, JSON.stringify(body));
    const p = decodeAnswer(LedgerEntryProofView, body, 'entry');
    assert.equal(p.result.kind, 'Committed');
    const entry = fromHex(mintHash, 32)!;
    assert.ok(verifyEntryProof(header, entry, p));
    // The same path does not show a Rejected result, nor another transaction.
    const rejected = { ...p, resultBytes: Uint8Array.of(1, ...p.resultBytes.subarray(1)) };
    assert.ok(!verifyEntryProof(header, entry, rejected));
    assert.ok(!verifyEntryProof(header, new Uint8Array(32), { ...p, entryHash: new Uint8Array(32) }));
    const missing = await get(`/v1/ledger/block/${mintHeight}/proof/${'0'.repeat(64)}`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'not_found');
  });
});
