// SDK against a real node (README.md "SDK"): every instruction builder round-trips
// encode → node → decode; cursor iteration over more items than one fetch; 429 back-off.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { encode, encodeFrame } from '../../src/codec/frame.js';
import { BlsKeyPair, blsProvePossession } from '../../src/crypto/bls.js';
import { hash } from '../../src/crypto/hash.js';
import { publicKeyToText } from '../../src/crypto/keys.js';
import { UpgradeManifestCodec } from '../../src/model/entities.js';
import { type Instruction, InstructionCodec } from '../../src/model/instructions.js';
import { defaultParameters, ParametersCodec } from '../../src/model/parameters.js';
import { SCHEMA } from '../../src/model/schema.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { isToranaApiError } from '../../src/sdk/errors.js';
import {
  contentBundleId,
  contentFile,
  multisigAccountId,
  multisigProposalId,
  multisigProposals,
  multisigSpec,
  repoAgreement,
  repoAgreementId,
  rwaLotId,
} from '../../src/sdk/index.js';
import { instructions as ix } from '../../src/sdk/instructions.js';
import { accountOf, generateKeyPair, importKeyPair } from '../../src/sdk/keys.js';
import { toHex } from '../../src/util/hex.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

async function waitFinal(client: ToranaClient, hashHex: string) {
  for (;;) {
    try {
      const s = await client.transactionStatus(hashHex);
      if (s.status !== 'Queued') return s;
    } catch (e) {
      if (!isToranaApiError(e, 'not_found')) throw e;
    }
    await new Promise((r) => setTimeout(r, 15));
  }
}

describe('SDK against a served node', () => {
  let t: ServedTestNode;
  let client: ToranaClient;
  before(async () => {
    t = await startServedNode();
    client = new ToranaClient({ url: t.url, account: t.admin.id, signer: t.admin.key });
  });
  after(async () => t.stopAll());

  it('imports and exports keys in the CLI text forms', () => {
    const k = generateKeyPair();
    const again = importKeyPair(k.privateKeyText());
    assert.equal(again.publicKeyText(), k.publicKeyText());
    assert.match(accountOf(k, 'wonderland'), /^ed0120[0-9A-F]{64}@wonderland$/);
  });

  it('round-trips every instruction builder through the node', async () => {
    const alice = generateKeyPair();
    const bob = generateKeyPair();
    const a = accountOf(alice, 'wonderland');
    const b = accountOf(bob, 'wonderland');
    const peer = generateKeyPair().publicKeyText();
    const bls = BlsKeyPair.generate();
    const blsKey = publicKeyToText(bls.publicKey);
    const pop = toHex(blsProvePossession(bls));
    const manifest = (n: number) => ({
      name: `up${n}`,
      description: 'test',
      abiVersion: 1 + n,
      abiHash: toHex(hash(new Uint8Array([n]))),
      startHeight: 1000 + n,
    });
    const upgradeId = (n: number) => toHex(hash(encode(UpgradeManifestCodec, manifest(n))));
    const steps: Instruction[][] = [
      [
        ix.registerDomain('wonderland', { motto: 'curiouser' }),
        ix.registerAccount(a),
        ix.registerAccount(b, { nick: 'bob' }),
      ],
      [
        ix.registerAssetDefinition('rose#wonderland', { scale: 2, mintable: 'infinitely' }),
        ix.registerNft('deed$wonderland', { acres: 3 }),
      ],
      [
        ix.registerRole('auditor', [{ name: 'CanRegisterDomain', payload: null }]),
        ix.registerPeer(peer, '127.0.0.1:9999', blsKey, pop),
      ],
      [
        ix.mintAsset('rose#wonderland', a, '10.50'),
        ix.burnAsset('rose#wonderland', a, 1n),
        ix.transferAsset('rose#wonderland', a, b, '2.25'),
      ],
      [ix.transferNft('deed$wonderland', t.admin.id, a), ix.transferDomain('wonderland', t.admin.id, a)],
      [
        ix.setKeyValue({ kind: 'Account', id: a }, 'score', [1, 2, 3]),
        ix.removeKeyValue({ kind: 'Account', id: a }, 'score'),
      ],
      [
        ix.grantPermission(b, 'CanRegisterDomain'),
        ix.revokePermission(b, 'CanRegisterDomain'),
        ix.grantRole(b, 'auditor'),
        ix.revokeRole(b, 'auditor'),
      ],
      [
        ix.setParameter('blockMaxTransactions', 256),
        ix.setCustomParameter('fee_policy', { flat: '0.01' }),
        ix.log('hello', 'Warn'),
      ],
      [
        ix.proposeRuntimeUpgrade(manifest(1)),
        ix.activateRuntimeUpgrade(upgradeId(1)),
        ix.proposeRuntimeUpgrade(manifest(2)),
        ix.cancelRuntimeUpgrade(upgradeId(2)),
      ],
      [
        ix.unregisterRole('auditor'),
        ix.unregisterPeer(peer),
        ix.transferNft('deed$wonderland', a, t.admin.id),
        ix.unregisterNft('deed$wonderland'),
      ],
      [
        ix.burnAsset('rose#wonderland', b, '2.25'),
        ix.burnAsset('rose#wonderland', a, '7.25'),
        ix.unregisterAccount(b),
        ix.unregisterAssetDefinition('rose#wonderland'),
      ],
    ];
    // Conference calls and relays (docs/conference.md): a transparent call through its whole life.
    const key = (n: number) => String(n).padStart(2, '0').repeat(32);
    const hops = ['r1', 'r2', 'r3'].map((relay, i) => ({ relay, publicKey: key(i + 1), weight: 10 }));
    steps.push(
      [
        ix.registerDomain('studio'),
        ...hops.map((h) =>
          ix.registerConferenceRelay(h.relay, h.publicKey, `wss://${h.relay}.example`, 'eu'),
        ),
        ix.reportConferenceRelayHealth('r1', { available: true, latencyMs: 20, lossPermille: 1 }),
      ],
      [
        ix.createConference('studio:standup', {
          title: 'Standup',
          scheduledStartMs: 0,
          maxParticipants: 4,
          gasRatePerMinute: '0',
          billingAccount: t.admin.id,
        }),
        ix.setConferenceRelayManifest('studio:standup', { hops, expiresAtMs: 4_000_000_000_000n }),
      ],
      [
        ix.joinConference('studio:standup', { participant: t.admin.id, answer: 'c0ffee' }),
        ix.recordConferenceUsage('studio:standup', { segment: 1, durationMs: 1, billedGas: '0' }),
        ix.leaveConference('studio:standup', { participant: t.admin.id }),
        ix.endConference('studio:standup'),
      ],
    );
    // Aliases (docs/data-model.md §Aliases): every alias instruction once.
    steps.push([
      ix.registerAssetDefinition('lily#wonderland'),
      ix.registerAccountAlias('al@wonderland', a),
      ix.registerAccountAlias('al2@wonderland', a),
      ix.setPrimaryAccountAlias('al2@wonderland'),
      ix.transferAccountAlias('al2@wonderland', t.admin.id),
      ix.removeAccountAlias('al2@wonderland'),
      ix.setAssetAlias('lily', 'lily#wonderland', { expiresAtMs: 4_000_000_000_000n, graceMs: 0 }),
      ix.renewAssetAlias('lily', 4_000_000_000_001n),
      ix.removeAssetAlias('lily'),
    ]);
    // Transfer controls (docs/controls.md): every control instruction once, set then cleared.
    steps.push([
      ix.setTransferFreeze('lily#wonderland', true, a),
      ix.setTransferFreeze('lily#wonderland', false, a),
      ix.setTransferBlacklist('lily#wonderland', true),
      ix.setTransferBlacklist('lily#wonderland', false),
      ix.setTransferListEntry('lily#wonderland', 'allow', a),
      ix.setTransferListEntry('lily#wonderland', 'allow', a, false),
      ix.setTransferCap('lily#wonderland', 'month', '5', a),
      ix.setTransferCap('lily#wonderland', 'month', undefined, a),
    ]);
    const kinds = new Set<string>();
    for (const instructions of steps) {
      const tx = await client.build(instructions);
      await client.submit(tx);
      const s = await waitFinal(client, tx.hash);
      assert.equal(
        s.status,
        'Committed',
        `${instructions.map((i) => i.kind).join(', ')}: ${JSON.stringify(s.reason)}`,
      );
      const out = await client.find({ kind: 'FindTransactionByHash', hash: tx.hash });
      assert.equal(out.kind, 'Transaction');
      if (out.kind !== 'Transaction') return;
      const back = out.value.transaction.payload.instructions;
      assert.deepEqual(
        back.map((i) => InstructionCodec.toJson(i)),
        instructions.map((i) => InstructionCodec.toJson(i)),
      );
      for (const i of instructions) kinds.add(i.kind);
    }
    // unregisterDomain: a domain must be empty, so it gets its own domain.
    const tx = await client.build([ix.registerDomain('ephemeral'), ix.unregisterDomain('ephemeral')]);
    await client.submit(tx);
    assert.equal((await waitFinal(client, tx.hash)).status, 'Committed');
    kinds.add('UnregisterDomain').add('RegisterDomain');
    // ShieldAsset needs the shielded pool and verifying keys this node is not given (docs/conference.md
    // "Shielded fee"): it must still reach a block and decode back unchanged, committed or rejected.
    const shield = ix.shieldAsset('1', '07'.padStart(64, '0'));
    const stx = await client.build([shield]);
    await client.submit(stx);
    assert.ok(['Committed', 'Rejected'].includes((await waitFinal(client, stx.hash)).status));
    const stored = await client.find({ kind: 'FindTransactionByHash', hash: stx.hash });
    assert.ok(stored.kind === 'Transaction');
    assert.deepEqual(
      stored.value.transaction.payload.instructions.map((i) => InstructionCodec.toJson(i)),
      [InstructionCodec.toJson(shield)],
    );
    kinds.add('ShieldAsset');
    // Triggers and subscriptions (docs/triggers.md, docs/subscriptions.md): alice provides, the admin
    // subscribes; ChargeSubscription runs only inside a billing trigger, so from a transaction it is refused.
    const asAlice = new ToranaClient({ url: t.url, account: a, signer: alice });
    const runAs = async (c: ToranaClient, list: Instruction[], want = 'Committed') => {
      const built = await c.build(list);
      await c.submit(built);
      const s = await waitFinal(c, built.hash);
      assert.equal(s.status, want, `${list.map((i) => i.kind).join(', ')}: ${JSON.stringify(s.reason)}`);
      for (const i of list) kinds.add(i.kind);
    };
    const usage = { usage: { unitPrice: '0.5', unitKey: 'calls', assetDefinition: 'lily#wonderland' } };
    await runAs(asAlice, [
      ix.registerSubscriptionPlan('metered', {
        cadence: { monthlyCalendar: { anchorDay: 1 } },
        retryBackoffMs: 60_000,
        maxFailures: 2,
        pricing: usage,
      }),
      ix.registerTrigger('tick', { height: 1_000_000 }, [ix.log('tick')], { everyBlocks: 10 }),
      ix.unregisterTrigger('tick'),
    ]);
    await runAs(client, [
      ix.subscribe('s1', 'metered'),
      ix.pauseSubscription('s1'),
      ix.resumeSubscription('s1'),
      ix.cancelSubscription('s1', true),
      ix.keepSubscription('s1'),
      ix.chargeSubscriptionNow('s1'),
    ]);
    await runAs(asAlice, [ix.recordSubscriptionUsage('s1', 'calls', '3'), ix.cancelSubscription('s1')]);
    await runAs(client, [{ kind: 'ChargeSubscription', id: 's1' }], 'Rejected');
    // Multisig (docs/multisig.md): a 2-of-2 of the admin and alice executes a batch, cancels another, and
    // changes its own spec through a third.
    const vault = multisigAccountId('wonderland', 'sdkvault');
    const signatories = { [t.admin.id]: 1, [a]: 1 };
    await runAs(client, [ix.registerMultisig('wonderland', 'sdkvault', { signatories, quorum: 2 })]);
    const executed = [ix.log('executed')];
    await runAs(client, [ix.proposeMultisig(vault, executed)]);
    await runAs(asAlice, [ix.approveMultisig(vault, multisigProposalId(executed))]);
    const canceled = [ix.log('canceled')];
    await runAs(client, [
      ix.proposeMultisig(vault, canceled),
      ix.cancelMultisig(vault, multisigProposalId(canceled)),
    ]);
    await runAs(asAlice, [ix.cancelMultisig(vault, multisigProposalId(canceled))]);
    const respec = [ix.setMultisigSpec(vault, { signatories, quorum: 1 })];
    await runAs(client, [ix.proposeMultisig(vault, respec)]);
    await runAs(asAlice, [ix.approveMultisig(vault, multisigProposalId(respec))]);
    const proposals = await multisigProposals(client, vault, { status: ['FINALIZED', 'CANCELED'] });
    assert.deepEqual(proposals.items.map((p) => p.status).sort(), ['CANCELED', 'FINALIZED', 'FINALIZED']);
    // SetMultisigSpec ran inside the executed proposal: the quorum is now 1.
    assert.equal((await multisigSpec(client, vault)).quorum, 1);
    // RWA lots (docs/rwas.md): the admin registers two lots (it is their controller), holds, releases,
    // freezes, unfreezes, redeems, splits one to alice and one to her by force, and merges what it kept.
    const lot = rwaLotId(t.admin.id, 'sdklot');
    const lot2 = rwaLotId(t.admin.id, 'sdklot2');
    await runAs(client, [
      ix.registerRwa('sdklot', { spec: 'bond', quantity: '10.00', owner: t.admin.id }),
      ix.registerRwa('sdklot2', { spec: 'bond', quantity: '5.00', owner: t.admin.id }),
    ]);
    await runAs(client, [
      ix.holdRwa(lot, '1.00'),
      ix.releaseRwa(lot, '1.00'),
      ix.freezeRwa(lot),
      ix.unfreezeRwa(lot),
      ix.redeemRwa(lot, '1.00'),
      ix.setRwaControls(lot),
      ix.transferRwa(lot, a, '2.00'),
      ix.forceTransferRwa(lot, a, '1.00'),
    ]);
    await runAs(client, [ix.mergeRwas([lot, lot2])]);
    // Content bundles (docs/content.md): the admin registers a bundle, lets alice alone download it, and
    // retires it.
    const files = [contentFile('sdk/a.txt', new TextEncoder().encode('a'), 'text/plain')];
    const bundle = contentBundleId(t.admin.id, files);
    await runAs(client, [ix.registerContentBundle(files)]);
    await runAs(client, [ix.setContentBundleAccess(bundle, { allow: [a] }), ix.retireContentBundle(bundle)]);
    // Repo agreements (docs/repo.md): alice borrows the admin's cash against her bonds, tops up and
    // substitutes her collateral, and both unwind early; SettleRepo runs only in the agreement's own
    // scheduled run, so from a transaction it is refused.
    const escrow = accountOf(generateKeyPair(), 'wonderland');
    const repo = repoAgreementId(a, 'sdkrepo');
    await runAs(client, [
      ix.registerAccount(escrow),
      ix.registerAssetDefinition('rcash#wonderland', { scale: 2, mintable: 'infinitely' }),
      ix.registerAssetDefinition('rbond#wonderland', { mintable: 'infinitely' }),
      ix.mintAsset('rcash#wonderland', t.admin.id, '100'),
      ix.mintAsset('rbond#wonderland', a, '20'),
      ix.setCustomParameter('repo_escrow_account', escrow),
    ]);
    await runAs(asAlice, [
      ix.initiateRepo('sdkrepo', {
        counterparty: t.admin.id,
        cash: { definition: 'rcash#wonderland', quantity: '10.00' },
        collateral: { definition: 'rbond#wonderland', quantity: '2', metadata: { isin: 'XS1' } },
        rateBps: 100,
        haircutBps: 0,
        maturityMs: Date.now() + 365 * 86_400_000,
        collateralPrice: '10',
        marginWindowMs: 60_000,
      }),
    ]);
    await runAs(client, [
      ix.acceptRepo(repo),
      ix.setRepoPrice(repo, 'rbond#wonderland', '10'),
      ix.checkRepoMargin(repo),
    ]);
    await runAs(asAlice, [
      ix.topUpRepoMargin(repo, '1'),
      ix.substituteRepoCollateral(repo, { definition: 'rbond#wonderland', quantity: '2' }),
      ix.unwindRepo(repo),
    ]);
    await runAs(client, [ix.unwindRepo(repo)]);
    await runAs(client, [ix.settleRepo(repo)], 'Rejected');
    assert.equal((await repoAgreement(client, repo)).status, 'unwound');
    kinds.add('SetMultisigSpec');
    const all = (InstructionCodec.describe(() => 'x') as { variants: { name: string }[] }).variants.map(
      (v) => v.name,
    );
    assert.deepEqual(
      all.filter((k) => !kinds.has(k)),
      [],
      'every instruction kind was built by the SDK and committed',
    );
  });

  it('iterates a query over more items than one fetch, following cursors', async () => {
    const instructions = Array.from({ length: 230 }, (_, i) =>
      ix.registerDomain(`page${String(i).padStart(3, '0')}`),
    );
    const tx = await client.build(instructions);
    await client.submit(tx);
    assert.equal((await waitFinal(client, tx.hash)).status, 'Committed');
    const ids: string[] = [];
    for await (const item of client.iterate(
      { kind: 'FindDomains' },
      {
        fetchSize: 50,
        sort: 'id:desc',
        filter: { in: ['id', instructions.map((i) => (i as { id: string }).id)] },
      },
    )) {
      if (item.kind === 'Domain') ids.push(item.value.id);
    }
    assert.equal(ids.length, 230);
    assert.equal(ids[0], 'page229');
    assert.equal(ids[229], 'page000');
  });

  it('backs off on 429 queue_full with Retry-After and succeeds once the queue drains', async () => {
    const small = await startServedNode({ 'queue.capacity': 2, 'queue.per_account_max': 2 });
    try {
      const c = new ToranaClient({
        url: small.url,
        account: small.admin.id,
        signer: small.admin.key,
        retries: 5,
      });
      await small.node.engine.stop();
      await c.submit(await c.build([ix.log('1')], { nonce: 1 }));
      await c.submit(await c.build([ix.log('2')], { nonce: 2 }));
      const started = Date.now();
      setTimeout(() => small.node.engine.start(), 300); // the queue drains while the SDK waits
      const third = await c.build([ix.log('3')], { nonce: 3 });
      const accepted = await c.submit(third);
      assert.equal(accepted.txHash, third.hash);
      assert.ok(Date.now() - started >= 900, 'the SDK waited for Retry-After (1 s) before retrying');
      const noRetry = new ToranaClient({
        url: small.url,
        account: small.admin.id,
        signer: small.admin.key,
        retries: 0,
      });
      await small.node.engine.stop();
      await noRetry.submit(await noRetry.build([ix.log('4')], { nonce: 4 }));
      await noRetry.submit(await noRetry.build([ix.log('5')], { nonce: 5 })).catch(() => undefined);
      await assert.rejects(
        noRetry.submit(await noRetry.build([ix.log('6')], { nonce: 6 })),
        (e: unknown) => isToranaApiError(e) && e.status === 429 && e.retryAfterS === 1,
      );
      small.node.engine.start();
    } finally {
      await small.stopAll();
    }
  });

  it('reads typed JSON routes decoded with the gateway views', async () => {
    const status = await client.status();
    assert.ok(status.blocks >= 1);
    const caps = await client.capabilities();
    assert.equal(caps.chainId, t.chainId);
    const params = await client.parameters();
    assert.equal(typeof params.blockMaxTransactions, 'number');
    assert.deepEqual(await client.peers(), []);
  });

  it('raises typed errors with the gateway codes', async () => {
    const bad = {
      signed: undefined as never,
      bytes: encodeFrame(SCHEMA, ParametersCodec, defaultParameters()),
      hash: '',
    };
    await assert.rejects(client.submit(bad), (e: unknown) => isToranaApiError(e, 'invalid_codec_body'));
  });
});
