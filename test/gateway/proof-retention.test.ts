// Proof retention, pins and batch queries through a real socket (docs/ledger-proofs.md "Retention and
// pins"): a pinned height keeps answering state proofs with its old value after the rolling window
// passed it (where an unpinned one answers 410), pins are bounded, operator-only and survive a restart,
// an unpin lets the next block prune the height, and a batch of proofs verifies with the SDK while a
// tampered one is refused. One served node keeping 3 state-tree versions and at most 2 pins.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ed25519KeyPair } from '../../src/crypto/signer.js';
import { signOperatorRequest } from '../../src/gateway/operator-message.js';
import { TABLE_TAGS } from '../../src/model/tags.js';
import { serveNode } from '../../src/node/serve.js';
import {
  LedgerHeadersView,
  LedgerStateProofView,
  ProofBatchView,
  ProofRetentionView,
} from '../../src/proofs/views.js';
import { decodeAnswer } from '../../src/sdk/answers.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { instructions as ix } from '../../src/sdk/instructions.js';
import { accountOf, generateKeyPair } from '../../src/sdk/keys.js';
import { verifyStateAnswer, verifyStateBatch } from '../../src/sdk/proofs.js';
import { stateKey } from '../../src/state/keys.js';
import { operatorAudience, type ServedTestNode, startServedNode } from '../helpers/served.js';

const OPERATOR_SEED = new Uint8Array(32).fill(0x37);
const OPERATOR_KEY = Ed25519KeyPair.fromSeed(OPERATOR_SEED).publicKeyText();

describe('proof retention and pins (/v1/proofs/*)', () => {
  let t: ServedTestNode;
  let client: ToranaClient;
  const alice = accountOf(generateKeyPair(), 'wonderland');
  const assetId = `rose#wonderland#${alice}`;
  const assetQ = `asset=${encodeURIComponent(assetId)}`;
  const assetKey = stateKey(TABLE_TAGS.asset, assetId);
  let pinned = 0;

  const call = async (method: string, path: string, body?: unknown, signed = false) => {
    const text = body === undefined ? '' : JSON.stringify(body);
    const auth = signed
      ? signOperatorRequest({
          method,
          url: path,
          body: text,
          seed: OPERATOR_SEED,
          ...operatorAudience(t.node),
        })
      : {};
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...auth,
      },
      ...(body === undefined ? {} : { body: text }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const get = (path: string) => call('GET', path);
  const block = async (name: string) => client.submitAndWait(await client.build([ix.registerDomain(name)]));
  const headerRoot = async (height: number) => {
    const r = await get(`/v1/ledger/headers?from=${height}&limit=1`);
    return decodeAnswer(LedgerHeadersView, r.body, 'headers').items[0]!.header.stateRoot;
  };
  const retention = async () =>
    decodeAnswer(ProofRetentionView, (await get('/v1/proofs/retention')).body, 'r');

  before(async () => {
    t = await startServedNode({
      'storage.state_tree_versions_kept': 3,
      'storage.state_proof_pins_max': 2,
      'operator.public_keys': [OPERATOR_KEY],
    });
    client = new ToranaClient({ url: t.url, account: t.admin.id, signer: t.admin.key });
    await client.submitAndWait(
      await client.build([
        ix.registerDomain('wonderland'),
        ix.registerAccount(alice),
        ix.registerAssetDefinition('rose#wonderland', { scale: 2 }),
      ]),
    );
    ({ blockHeight: pinned } = await client.submitAndWait(
      await client.build([ix.mintAsset('rose#wonderland', alice, '12.5')]),
    ));
  });
  after(async () => {
    await t.served.close();
    await t.cleanup();
  });

  it('reports the heights it can prove, and pins a height for operators only', async () => {
    const r0 = await retention();
    assert.equal(r0.newestHeight, pinned);
    assert.equal(r0.oldestHeight, Math.max(1, pinned - 3));
    assert.equal(r0.versionsKept, 3);
    assert.equal(r0.blockLogBase, 1);
    assert.equal(r0.pinsMax, 2);
    assert.deepEqual(r0.pins, []);
    assert.equal(r0.oldValuesKept, false);
    const unsigned = await call('POST', '/v1/proofs/retention/pins', { height: pinned });
    assert.equal(unsigned.status, 401, JSON.stringify(unsigned.body));
    const pin = await call('POST', '/v1/proofs/retention/pins', { height: pinned }, true);
    assert.equal(pin.status, 200, JSON.stringify(pin.body));
    assert.deepEqual(pin.body, { height: pinned, pinned: true, complete: true });
    const r1 = await retention();
    assert.deepEqual(r1.pins, [{ height: pinned, complete: true }]);
    assert.equal(r1.oldValuesKept, true);
  });

  it('proves the old value at the pinned height after the window passed it; an unpinned height answers 410', async () => {
    await client.submitAndWait(await client.build([ix.mintAsset('rose#wonderland', alice, '1')]));
    for (let i = 0; i < 4; i++) await block(`filler${i}`);
    const tip = (await retention()).newestHeight;
    assert.ok(tip - 3 > pinned, `the window (${tip - 3}..${tip}) is past the pin ${pinned}`);
    const old = await get(`/v1/ledger/state-proof/${pinned}?${assetQ}`);
    assert.equal(old.status, 200, JSON.stringify(old.body));
    const p = decodeAnswer(LedgerStateProofView, old.body, 'state-proof');
    assert.equal((old.body.decoded as { value: unknown }).value, '12.50');
    const root = await headerRoot(pinned);
    assert.ok(
      verifyStateAnswer(root, assetKey, p.value, p.proof),
      'the old value verifies at the pinned root',
    );
    const unpinned = await get(`/v1/ledger/state-proof/${pinned - 1}?${assetQ}`);
    assert.equal(unpinned.status, 410, JSON.stringify(unpinned.body));
    assert.equal(unpinned.body.code, 'state_proof_height_pruned');
    // The current value at the tip is the new one.
    const now = await get(`/v1/ledger/state-proof/${tip}?${assetQ}`);
    assert.equal((now.body.decoded as { value: unknown }).value, '13.50');
  });

  it('answers a batch of keys at a pinned height that the SDK verifies, and refuses a tampered batch', async () => {
    const keys = [
      { asset: assetId },
      { account: alice },
      { domain: 'nowhere' },
      { definition: 'rose#wonderland' },
    ];
    const asked = [
      assetKey,
      stateKey(TABLE_TAGS.account, alice),
      stateKey(TABLE_TAGS.domain, 'nowhere'),
      stateKey(TABLE_TAGS.assetDefinition, 'rose#wonderland'),
    ];
    const r = await call('POST', '/v1/proofs/query', { height: pinned, keys });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const batch = decodeAnswer(ProofBatchView, r.body, 'query');
    const root = await headerRoot(pinned);
    assert.deepEqual(batch.stateRoot, root);
    assert.deepEqual(
      batch.items.map((i) => i.present),
      [true, true, false, true],
    );
    assert.equal(verifyStateBatch(root, asked, batch.items), undefined);
    // Tampered: a changed value, a swapped item, a dropped item, a root of another height.
    const changed = batch.items.map((i) => ({ ...i }));
    const v = changed[0]!.value!.slice();
    v[v.length - 1]! ^= 1;
    changed[0]!.value = v;
    assert.deepEqual(verifyStateBatch(root, asked, changed), { index: 0, reason: 'state_proof_invalid' });
    const swapped = [batch.items[1]!, batch.items[0]!, ...batch.items.slice(2)];
    assert.deepEqual(verifyStateBatch(root, asked, swapped), { index: 0, reason: 'key_mismatch' });
    assert.deepEqual(verifyStateBatch(root, asked, batch.items.slice(0, 3)), {
      index: 3,
      reason: 'wrong_count',
    });
    const hidden = batch.items.map((i, n) => (n === 1 ? { ...i, present: false, value: undefined } : i));
    assert.deepEqual(verifyStateBatch(root, asked, hidden), { index: 1, reason: 'state_proof_invalid' });
    const tip = (await retention()).newestHeight;
    assert.notEqual(verifyStateBatch(await headerRoot(tip), asked, batch.items), undefined);
  });

  it('bounds the batch and the pins', async () => {
    const tip = (await retention()).newestHeight;
    for (const body of [
      { height: tip, keys: [] },
      { height: tip, keys: Array.from({ length: 257 }, () => ({ domain: 'wonderland' })) },
      { height: tip, keys: [{ domain: 'a', account: alice }] },
    ]) {
      const r = await call('POST', '/v1/proofs/query', body);
      assert.equal(r.status, 400, JSON.stringify(r.body).slice(0, 300));
      assert.equal(r.body.code, 'bad_request');
    }
    const pruned = await call('POST', '/v1/proofs/query', { height: 1, keys: [{ domain: 'wonderland' }] });
    assert.equal(pruned.status, 410);
    const old = await call('POST', '/v1/proofs/retention/pins', { height: 1 }, true);
    assert.equal(old.status, 410, JSON.stringify(old.body));
    assert.equal(old.body.code, 'state_proof_height_pruned');
    assert.equal((await call('POST', '/v1/proofs/retention/pins', { height: tip }, true)).status, 200);
    const full = await call('POST', '/v1/proofs/retention/pins', { height: tip - 1 }, true);
    assert.equal(full.status, 409, JSON.stringify(full.body));
    assert.equal(full.body.code, 'proof_pins_full');
    assert.equal((await call('DELETE', `/v1/proofs/retention/pins/${tip}`, undefined, true)).status, 200);
    const missing = await call('DELETE', `/v1/proofs/retention/pins/${tip}`, undefined, true);
    assert.equal(missing.status, 404);
  });

  it('keeps pins across a restart; after an unpin the next block prunes the height (410)', async () => {
    await t.served.close();
    await t.restart();
    const served = await serveNode(t.node, { dir: t.dir });
    Object.assign(t, { url: served.url, served });
    client = new ToranaClient({ url: t.url, account: t.admin.id, signer: t.admin.key });
    assert.deepEqual((await retention()).pins, [{ height: pinned, complete: true }]);
    await block('after-restart');
    const kept = await get(`/v1/ledger/state-proof/${pinned}?${assetQ}`);
    assert.equal(kept.status, 200, JSON.stringify(kept.body));
    assert.equal((kept.body.decoded as { value: unknown }).value, '12.50');
    const unpin = await call('DELETE', `/v1/proofs/retention/pins/${pinned}`, undefined, true);
    assert.deepEqual(unpin.body, { height: pinned, pinned: false });
    await block('after-unpin');
    const gone = await get(`/v1/ledger/state-proof/${pinned}?${assetQ}`);
    assert.equal(gone.status, 410, JSON.stringify(gone.body));
    const r = await retention();
    assert.deepEqual(r.pins, []);
    assert.equal(r.oldValuesKept, false);
  });
});
