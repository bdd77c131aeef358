// The SDK's light client against a real node, straight and through a man in the middle (a real HTTP
// proxy that rewrites the node's JSON answers): reading straight from the node it accepts the balance,
// the account and both a committed and a rejected transaction's status; through the proxy it refuses a
// rewritten balance, a rewritten transaction status (with or without a matching result swapped into the
// inclusion proof), a rewritten header and a validator set the trusted one never vouched for, each with
// `light_client_proof_invalid`. One served node.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { encode } from '../../src/codec/frame.js';
import { AssetCodec } from '../../src/model/entities.js';
import { numeric } from '../../src/model/numeric.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { isToranaApiError, ToranaLightClientError } from '../../src/sdk/errors.js';
import { instructions as ix } from '../../src/sdk/instructions.js';
import { accountOf, generateKeyPair } from '../../src/sdk/keys.js';
import { LightClient } from '../../src/sdk/light-client.js';
import { toHex } from '../../src/util/hex.js';
import { type RewriteProxy, startRewriteProxy } from '../helpers/rewrite-proxy.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

async function waitFinal(client: ToranaClient, hashHex: string) {
  for (;;) {
    try {
      const s = await client.transactionStatus(hashHex);
      if (s.status !== 'Queued') return s;
    } catch (e) {
      if (!isToranaApiError(e, 'not_found')) throw e;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function refused(p: Promise<unknown>, reason: string) {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof ToranaLightClientError, String(e));
    assert.equal(e.code, 'light_client_proof_invalid');
    assert.equal(e.reason, reason, e.message);
    return true;
  });
}

describe('light client: straight from the node and through a man in the middle', () => {
  let t: ServedTestNode;
  let proxy: RewriteProxy;
  let client: ToranaClient;
  const alice = accountOf(generateKeyPair(), 'wonderland');
  let committed = '';
  let rejected = '';
  const light = (url: string) =>
    new LightClient({
      url,
      chainId: t.node.config.node.chainId,
      validators: [...t.node.validatorSet.validators],
    });

  before(async () => {
    t = await startServedNode();
    proxy = await startRewriteProxy(t.url);
    client = new ToranaClient({ url: t.url, account: t.admin.id, signer: t.admin.key });
    await client.submitAndWait(
      await client.build([
        ix.registerDomain('wonderland'),
        ix.registerAccount(alice),
        ix.registerAssetDefinition('rose#wonderland', { scale: 2 }),
      ]),
    );
    committed = (
      await client.submitAndWait(await client.build([ix.mintAsset('rose#wonderland', alice, '12.5')]))
    ).hash;
    // Minting an asset nobody defined: committed in a block as Rejected.
    const bad = await client.build([ix.mintAsset('tulip#wonderland', alice, '1')]);
    await client.submit(bad);
    rejected = bad.hash;
    assert.equal((await waitFinal(client, rejected)).status, 'Rejected');
  });
  after(async () => {
    await proxy?.close();
    await t?.stopAll();
  });

  it('reading straight from the node, it accepts the balance, the account and both statuses', async () => {
    const lc = light(t.url);
    const head = await lc.sync();
    assert.ok(head.height >= 3);
    const bal = await lc.balance(alice, 'rose#wonderland');
    assert.equal(bal.value?.value.mantissa, 1250n);
    assert.equal((await lc.account(alice)).value?.id, alice);
    assert.equal((await lc.balance(alice, 'tulip#wonderland')).value, undefined, 'a proved absence');
    assert.equal((await lc.assetDefinition('rose#wonderland')).value?.id, 'rose#wonderland');
    const ok = await lc.transactionStatus(committed);
    assert.equal(ok.status, 'Committed');
    const no = await lc.transactionStatus(rejected);
    assert.equal(no.status, 'Rejected');
    assert.equal(no.result.kind === 'Rejected' && typeof no.result.reason.code, 'string');
  });

  it('through the proxy unchanged, it accepts the same answers', async () => {
    proxy.rewrite = undefined;
    const lc = light(proxy.url);
    assert.equal((await lc.balance(alice, 'rose#wonderland')).value?.value.mantissa, 1250n);
    assert.equal((await lc.transactionStatus(committed)).status, 'Committed');
  });

  it('refuses a rewritten balance', async () => {
    const lc = light(proxy.url);
    await lc.sync();
    const forged = toHex(
      encode(AssetCodec, { id: `rose#wonderland#${alice}`, value: numeric('1000000.00') }),
    );
    proxy.rewrite = (path, json) => {
      if (!path.startsWith('/v1/ledger/state-proof/')) return undefined;
      return { ...json, value: forged, decoded: { id: `rose#wonderland#${alice}`, value: '1000000.00' } };
    };
    const before = proxy.rewritten;
    await refused(lc.balance(alice, 'rose#wonderland'), 'state_proof_invalid');
    assert.ok(proxy.rewritten > before, 'the proxy did rewrite the answer');
    // A balance claimed absent is refused too (the proof shows a leaf for the key).
    proxy.rewrite = (path, json) =>
      path.startsWith('/v1/ledger/state-proof/') ? { ...json, present: false, value: undefined } : undefined;
    await refused(lc.balance(alice, 'rose#wonderland'), 'state_proof_invalid');
    proxy.rewrite = undefined;
  });

  it('refuses a rewritten transaction status, even with the result swapped in the proof', async () => {
    const lc = light(proxy.url);
    const rejectedProof = (await (
      await fetch(
        `${t.url}/v1/ledger/block/${(await client.transactionStatus(rejected)).blockHeight}/proof/${rejected}`,
      )
    ).json()) as Record<string, unknown>;
    const realStatus = (await (
      await fetch(`${t.url}/v1/pipeline/transactions/status?hash=${rejected}`)
    ).json()) as Record<string, unknown>;
    const asRejected = (path: string, json: Record<string, unknown>) =>
      path === '/v1/pipeline/transactions/status'
        ? { ...json, status: 'Rejected', reason: realStatus.reason }
        : undefined;
    proxy.rewrite = asRejected;
    await refused(lc.transactionStatus(committed), 'status_mismatch');
    proxy.rewrite = (path, json) =>
      asRejected(path, json) ??
      (path.includes('/proof/')
        ? { ...json, result: rejectedProof.result, result_bytes: rejectedProof.result_bytes }
        : undefined);
    await refused(lc.transactionStatus(committed), 'entry_proof_invalid');
    proxy.rewrite = undefined;
  });

  it('refuses a rewritten header and a validator set nobody trusted vouched for', async () => {
    proxy.rewrite = (path, json) => {
      if (path !== '/v1/ledger/headers') return undefined;
      const items = (json.items as Record<string, Record<string, unknown>>[]).map((i) => ({
        ...i,
        header: { ...i.header, state_root: '00'.repeat(32) },
      }));
      return { ...json, items };
    };
    await refused(light(proxy.url).sync(), 'block_hash_mismatch');
    // Another roster in the last header: its hash is not what the trusted validators signed.
    const other = generateKeyPair().publicKeyText();
    proxy.rewrite = (path, json) => {
      if (path !== '/v1/ledger/headers') return undefined;
      const items = json.items as Record<string, Record<string, unknown>>[];
      const last = items.at(-1);
      if (last === undefined) return undefined;
      const cert = { ...last.certificate, validator_set_hash: 'ab'.repeat(32) };
      const validators = [{ peer: other, bls_key: t.node.validatorSet.validators[0]!.blsKey }];
      return { ...json, items: [...items.slice(0, -1), { ...last, certificate: cert, validators }] };
    };
    await refused(light(proxy.url).sync(), 'validator_set_unproved');
    proxy.rewrite = undefined;
  });
});
