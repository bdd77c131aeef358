// Aliases through real sockets: register, resolve both ways and
// by index, transfer, remove, set primary, conflicts and permission refusals, asset alias leases across
// block time, aliases in place of ids on the app routes, and the state root after a rebuild from blocks.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Instruction } from '../../src/model/instructions.js';
import { accountAlias, assetAlias } from '../../src/modules/aliases/reads.js';
import {
  aliasesOfAccount,
  instructions,
  resolveAccountAlias,
  resolveAliasIndex,
  resolveAssetAlias,
  ToranaClient,
} from '../../src/sdk/index.js';
import { toHex } from '../../src/util/hex.js';
import { type AppFixture, alice, bob, carol, enc, rose, startAppFixture } from '../gateway/app-fixture.js';
import { runCli as cli } from '../helpers/cli-in-process.js';
import { JumpClock } from '../helpers/jump-clock.js';
import { run } from '../helpers/node.js';
import type { TestAccount } from '../helpers/tx.js';

/**
 * A lease (and its grace) long enough that a loaded machine's pauses between committing the lease and the
 * next block cannot end it: the clock's jumps move it on. Short enough that the node's clock, ahead of the
 * wall clock by both jumps afterwards, still takes the signed queries of later tests (max age 60 s).
 */
const LEASE_MS = 15_000;

describe('aliases (served node)', () => {
  let f: AppFixture;
  /** The node's block clock: the lease test jumps it instead of sleeping. */
  const clock = new JumpClock();
  before(async () => {
    f = await startAppFixture({ clock });
  });
  after(async () => {
    await f.t.stopAll();
  });

  /** Runs one transaction; returns its status kind, or the rejection code. */
  async function tx(signer: TestAccount, instructions: Instruction[]): Promise<string> {
    const r = await run(f.t, signer, instructions);
    return r.status.kind === 'Rejected' ? r.status.reason.code : r.status.kind;
  }
  const reg = (alias: string, account: string): Instruction => ({
    kind: 'RegisterAccountAlias',
    alias,
    account,
  });

  it('registers, resolves by literal, by index and by account; the first alias is primary', async () => {
    assert.equal(
      await tx(alice, [reg('alice@wonderland', alice.id), reg('al.2@wonderland', alice.id)]),
      'Committed',
    );
    const r = await f.post('/v1/aliases/resolve', { alias: 'alice@wonderland' });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, {
      alias: 'alice@wonderland',
      account_id: alice.id,
      index: 1,
      is_primary: true,
      source: 'ledger',
    });
    const byIndex = await f.post('/v1/aliases/resolve_index', { index: 2 });
    assert.deepEqual(byIndex.body, {
      index: 2,
      alias: 'al.2@wonderland',
      account_id: alice.id,
      source: 'ledger',
    });
    const list = await f.post('/v1/aliases/by_account', { account_id: alice.id });
    assert.deepEqual(list.body, {
      account_id: alice.id,
      total: 2,
      items: [
        { alias: 'al.2@wonderland', domain: 'wonderland', index: 2, is_primary: false },
        { alias: 'alice@wonderland', domain: 'wonderland', index: 1, is_primary: true },
      ],
      source: 'ledger',
    });
    // By alias, a domain filter, and a page.
    const page = await f.post('/v1/aliases/by_account', {
      account_id: 'alice@wonderland',
      limit: 1,
      offset: 1,
    });
    assert.deepEqual(
      page.body.items.map((i: { alias: string }) => i.alias),
      ['alice@wonderland'],
    );
    assert.equal(
      (await f.post('/v1/aliases/by_account', { account_id: alice.id, domain: 'looking_glass' })).body.total,
      0,
    );
    const unbound = await f.refused('/v1/aliases/resolve', 404, 'not_found', { alias: 'nobody@wonderland' });
    assert.equal(
      unbound.message,
      'no account alias nobody@wonderland is bound',
      'the answer names the alias',
    );
    const noIndex = await f.refused('/v1/aliases/resolve_index', 404, 'not_found', { index: 99 });
    assert.equal(noIndex.message, 'no account alias has index 99');
    await f.refused('/v1/aliases/resolve', 400, 'bad_request', { alias: alice.id });
    await f.refused('/v1/aliases/by_account', 404, 'not_found', { account_id: 'nobody@wonderland' });
    // The VOPRF route of the reference is absent, not a mock.
    assert.equal((await f.post('/v1/aliases/voprf/evaluate', { blinded_element_hex: '00' })).status, 404);
  });

  it('sets the primary alias: exactly one per account', async () => {
    assert.equal(
      await tx(alice, [{ kind: 'SetPrimaryAccountAlias', alias: 'al.2@wonderland' }]),
      'Committed',
    );
    const items = (await f.post('/v1/aliases/by_account', { account_id: alice.id })).body.items;
    assert.deepEqual(
      items.map((i: { alias: string; is_primary: boolean }) => [i.alias, i.is_primary]),
      [
        ['al.2@wonderland', true],
        ['alice@wonderland', false],
      ],
    );
  });

  it('refuses conflicts with stable codes', async () => {
    assert.equal(await tx(bob, [reg('alice@wonderland', bob.id)]), 'alias_already_bound');
    assert.equal(await tx(bob, [reg('Bad Alias@wonderland', bob.id)]), 'alias_invalid');
    assert.equal(await tx(bob, [reg('bob', bob.id)]), 'alias_invalid');
    assert.equal(await tx(bob, [reg(carol.id, bob.id)]), 'alias_is_account_id');
    assert.equal(await tx(bob, [reg('bob@nowhere', bob.id)]), 'domain_not_found');
    assert.equal(
      await tx(f.t.admin, [reg('ghost@wonderland', `${carol.id.split('@')[0]}@wonderland`)]),
      'account_not_found',
    );
    assert.equal(
      await tx(bob, [{ kind: 'RemoveAccountAlias', alias: 'gone@wonderland' }]),
      'alias_not_found',
    );
  });

  it('refuses binding to an account the authority does not control, or in a foreign domain', async () => {
    assert.equal(await tx(bob, [reg('bobby@wonderland', alice.id)]), 'permission_denied');
    // carol lives in looking_glass: a name in wonderland needs wonderland's owner.
    assert.equal(await tx(carol, [reg('carol@wonderland', carol.id)]), 'permission_denied');
    assert.equal(await tx(f.t.admin, [reg('carol@wonderland', carol.id)]), 'Committed');
    assert.equal(
      await tx(bob, [{ kind: 'SetPrimaryAccountAlias', alias: 'alice@wonderland' }]),
      'permission_denied',
    );
    assert.equal(
      await tx(bob, [{ kind: 'RemoveAccountAlias', alias: 'alice@wonderland' }]),
      'permission_denied',
    );
  });

  it('transfers an alias only with control of both accounts, keeping its index', async () => {
    const move: Instruction = {
      kind: 'TransferAccountAlias',
      alias: 'alice@wonderland',
      destination: bob.id,
    };
    assert.equal(await tx(alice, [move]), 'permission_denied');
    assert.equal(await tx(f.t.admin, [move]), 'Committed');
    const r = await f.post('/v1/aliases/resolve', { alias: 'alice@wonderland' });
    assert.deepEqual(r.body, {
      alias: 'alice@wonderland',
      account_id: bob.id,
      index: 1,
      is_primary: true,
      source: 'ledger',
    });
    assert.equal((await f.post('/v1/aliases/by_account', { account_id: alice.id })).body.total, 1);
  });

  it('removes an alias; its index is never reused', async () => {
    assert.equal(await tx(bob, [{ kind: 'RemoveAccountAlias', alias: 'alice@wonderland' }]), 'Committed');
    await f.refused('/v1/aliases/resolve', 404, 'not_found', { alias: 'alice@wonderland' });
    await f.refused('/v1/aliases/resolve_index', 404, 'not_found', { index: 1 });
    assert.equal(await tx(alice, [reg('alice@wonderland', alice.id)]), 'Committed');
    assert.equal((await f.post('/v1/aliases/resolve', { alias: 'alice@wonderland' })).body.index, 4);
  });

  it('accepts an account alias in place of the id on the account routes', async () => {
    const byId = await f.get(`/v1/accounts/${enc(alice.id)}`);
    const byAlias = await f.get(`/v1/accounts/${enc('alice@wonderland')}`);
    assert.equal(byAlias.status, 200);
    assert.deepEqual(byAlias.body, byId.body);
    const assets = await f.get(`/v1/accounts/${enc('al.2@wonderland')}/assets`);
    assert.deepEqual(assets.body, (await f.get(`/v1/accounts/${enc(alice.id)}/assets`)).body);
    const history = await f.get(`/v1/accounts/${enc('alice@wonderland')}/transactions`);
    assert.equal(history.status, 200);
    assert.ok(history.body.total > 0);
    await f.refused(`/v1/accounts/${enc('nobody@wonderland')}`, 404, 'not_found');
    // The explorer's detail routes resolve through the same resolver.
    const explorer = await f.get(`/v1/explorer/accounts/${enc('alice@wonderland')}`);
    assert.deepEqual(explorer.body, (await f.get(`/v1/explorer/accounts/${enc(alice.id)}`)).body);
    assert.equal((await f.get(`/v1/explorer/accounts/${enc('alice@wonderland')}/qr`)).status, 200);
    await f.refused(`/v1/accounts/${enc('No Such')}`, 400, 'bad_request');
  });

  it('binds asset aliases for the definition owner only, and resolves them in place of ids', async () => {
    const set = (alias: string, definition: string): Instruction => ({
      kind: 'SetAssetAlias',
      alias,
      definition,
    });
    assert.equal(await tx(alice, [set('tulip', 'tulip#wonderland')]), 'permission_denied');
    assert.equal(await tx(f.t.admin, [set('rose#x', rose)]), 'alias_invalid');
    assert.equal(await tx(f.t.admin, [set('rose', 'nope#wonderland')]), 'asset_definition_not_found');
    assert.equal(await tx(f.t.admin, [set('rose', rose)]), 'Committed');
    assert.equal(await tx(f.t.admin, [set('rose', 'tulip#wonderland')]), 'alias_already_bound');
    const r = await f.post('/v1/assets/aliases/resolve', { alias: 'rose' });
    assert.deepEqual(r.body, {
      alias: 'rose',
      asset_definition_id: rose,
      name: 'rose',
      lease_status: 'permanent',
      source: 'ledger',
    });
    assert.deepEqual(
      (await f.get('/v1/assets/definitions/rose')).body,
      (await f.get(`/v1/assets/definitions/${enc(rose)}`)).body,
    );
    assert.deepEqual(
      (await f.get('/v1/explorer/asset-definitions/rose')).body,
      (await f.get(`/v1/explorer/asset-definitions/${enc(rose)}`)).body,
    );
    // The definition's history and the explorer's statistics take the alias too.
    for (const path of ['/transactions', '/transactions?status=ok']) {
      const byAlias = await f.get(`/v1/assets/definitions/rose${path}`);
      assert.equal(byAlias.status, 200, path);
      assert.deepEqual(byAlias.body, (await f.get(`/v1/assets/definitions/${enc(rose)}${path}`)).body);
    }
    for (const stat of ['snapshot', 'econometrics']) {
      const byAlias = await f.get(`/v1/explorer/asset-definitions/rose/${stat}`);
      assert.equal(byAlias.status, 200, stat);
      assert.deepEqual(
        byAlias.body,
        (await f.get(`/v1/explorer/asset-definitions/${enc(rose)}/${stat}`)).body,
      );
    }
    await f.refused('/v1/assets/definitions/nothing/transactions', 404, 'not_found');
    await f.refused('/v1/explorer/asset-definitions/nothing/snapshot', 404, 'not_found');
    const holders = await f.get('/v1/assets/definitions/rose/holders');
    assert.equal(holders.status, 200);
    assert.equal(holders.body.total, 2);
    await f.refused('/v1/assets/definitions/nothing/holders', 404, 'not_found');
    await f.refused('/v1/assets/aliases/resolve', 404, 'not_found', { alias: 'nothing' });
  });

  it('moves an expiring lease through active, grace and expired by block time', async () => {
    const now = clock.nowMs();
    const lease = (expiresAtMs: number, graceMs: number) => ({
      expiresAtMs: BigInt(expiresAtMs),
      graceMs: BigInt(graceMs),
    });
    const set: Instruction = {
      kind: 'SetAssetAlias',
      alias: 'gem',
      definition: 'gem#looking_glass',
      lease: lease(now + LEASE_MS, LEASE_MS),
    };
    assert.equal(await tx(f.t.admin, [{ ...set, lease: lease(now - 1, 10) }]), 'alias_lease_invalid');
    assert.equal(await tx(f.t.admin, [set]), 'Committed');
    const status = async () =>
      (await f.post('/v1/assets/aliases/resolve', { alias: 'gem' })).body.lease_status;
    const tick = () => tx(f.t.admin, [{ kind: 'Log', level: { kind: 'Info' }, message: 'tick' }]);
    assert.equal(await status(), 'leased_active');
    clock.jump(LEASE_MS + 100);
    assert.equal(await status(), 'leased_active', 'no block since: the committed time has not moved');
    await tick();
    assert.equal(await status(), 'leased_grace');
    assert.equal((await f.get('/v1/assets/definitions/gem')).body.id, 'gem#looking_glass');
    clock.jump(LEASE_MS + 100);
    await tick();
    assert.equal(await status(), 'expired_pending_cleanup');
    await f.refused('/v1/assets/definitions/gem', 404, 'not_found');
    assert.equal(
      await tx(f.t.admin, [
        { kind: 'RenewAssetAlias', alias: 'gem', expiresAtMs: BigInt(clock.nowMs() + 60_000) },
      ]),
      'alias_lease_expired',
    );
    // Another definition takes the expired alias over.
    assert.equal(
      await tx(f.t.admin, [{ kind: 'SetAssetAlias', alias: 'gem', definition: 'tulip#wonderland' }]),
      'Committed',
    );
    assert.equal(
      (await f.post('/v1/assets/aliases/resolve', { alias: 'gem' })).body.asset_definition_id,
      'tulip#wonderland',
    );
    assert.equal(await tx(f.t.admin, [{ kind: 'RemoveAssetAlias', alias: 'gem' }]), 'Committed');
    await f.refused('/v1/assets/aliases/resolve', 404, 'not_found', { alias: 'gem' });
  });

  it('SDK: builds the alias instructions and resolves through the routes', async () => {
    const client = new ToranaClient({ url: f.t.url, account: f.t.admin.id, signer: f.t.admin.key });
    const expiresAtMs = Date.now() + 3_600_000;
    await client.submitAndWait(
      await client.build([
        instructions.registerAccountAlias('sdk@looking_glass', carol.id),
        instructions.setAssetAlias('tulip.leased', 'tulip#wonderland', { expiresAtMs, graceMs: 1_000 }),
      ]),
    );
    const r = await resolveAccountAlias(client, 'sdk@looking_glass');
    assert.equal(r.accountId, carol.id);
    assert.equal((await resolveAliasIndex(client, r.index)).alias, 'sdk@looking_glass');
    const list = await aliasesOfAccount(client, carol.id, { domain: 'looking_glass' });
    assert.deepEqual(
      list.items.map((i) => [i.alias, i.isPrimary]),
      [['sdk@looking_glass', false]],
    );
    const asset = await resolveAssetAlias(client, 'tulip.leased');
    assert.equal(asset.leaseStatus, 'leased_active');
    assert.equal(asset.leaseExpiresAtMs, BigInt(expiresAtMs));
    await assert.rejects(
      resolveAccountAlias(client, 'nobody@wonderland'),
      (e: { code?: string }) => e.code === 'not_found',
    );
  });

  it('drives aliases from the CLI, and takes aliases where it takes ids', async () => {
    const common = ['--dir', f.t.dir, '--url', f.t.url, '--json'];
    const ok = async (args: string[]) => {
      const r = await cli([...args, ...common]);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
      return JSON.parse(r.out);
    };
    assert.equal((await ok(['alias', 'register', 'bobby@wonderland', bob.id])).status, 'Committed');
    const { index } = (await f.post('/v1/aliases/resolve', { alias: 'bobby@wonderland' })).body;
    assert.equal((await ok(['alias', 'resolve', String(index)])).account_id, bob.id);
    // Ids given as aliases: mint rose (by its asset alias) to bob (by his account alias).
    await ok(['asset', 'mint', 'rose', 'bobby@wonderland', '1']);
    assert.equal((await ok(['asset', 'balance', 'rose', 'bobby@wonderland'])).balance, '26.25');
    await ok(['alias', 'transfer', 'bobby@wonderland', 'al.2@wonderland']);
    const ls = await ok(['alias', 'ls', alice.id]);
    assert.ok(ls.items.some((i: { alias: string }) => i.alias === 'bobby@wonderland'));
    await ok(['alias', 'rm', 'bobby@wonderland']);
    assert.equal((await f.post('/v1/aliases/resolve', { alias: 'bobby@wonderland' })).status, 404);
    assert.equal((await ok(['alias', 'asset', 'resolve', 'rose'])).asset_definition_id, rose);
  });

  it('keeps aliases across a restart, and a rebuild from blocks gives the same state root', async () => {
    const { t } = f;
    const root = toHex(t.node.ledger.state.stateRoot());
    await t.node.stop();
    const rebuilt = await cli(['rebuild', '--dir', t.dir, '--json']);
    assert.equal(rebuilt.code, 0, rebuilt.err);
    assert.equal(JSON.parse(rebuilt.out).state_root, root);
    const node = await t.restart();
    assert.equal(toHex(node.ledger.state.stateRoot()), root);
    assert.equal(accountAlias(node.ledger.state, 'alice@wonderland')?.account, alice.id);
    assert.equal(assetAlias(node.ledger.state, 'rose')?.definition, rose);
  });
});
