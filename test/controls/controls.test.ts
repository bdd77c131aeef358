// Transfer controls through real sockets (docs/controls.md):
// each rule refuses what it should and allows what it should, caps roll over at period boundaries of
// block time (fast block clock), the read routes (ids or aliases; all clear, 404, 400), and the state
// root after a rebuild from blocks.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  assetTransferControl,
  definitionTransferControl,
  instructions,
  ToranaClient,
} from '../../src/sdk/index.js';
import { toHex } from '../../src/util/hex.js';
import { runCli as cli } from '../helpers/cli-in-process.js';
import { type ControlsFixture, controlsFixture, USD } from '../helpers/controls-fixture.js';

const DAY = 86_400_000;
const GET = '/v1/controls/asset-transfer/get';
const DEF_GET = '/v1/controls/asset-definition/get';

describe('transfer controls (served node)', () => {
  let f: ControlsFixture;
  before(async () => {
    f = await controlsFixture();
  });
  after(async () => {
    await f.t.stopAll();
  });

  const control = async (account: string, definition = USD) =>
    (await f.post(GET, { account_id: account, asset_definition_id: definition })).body;

  it('reads all clear without a record; 404 for unknown ids, 400 for malformed ones; aliases work', async () => {
    const r = await f.post(GET, { account_id: f.alice.id, asset_definition_id: USD });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.control, { outgoing_frozen: false, blacklisted: false, limits: [] });
    assert.deepEqual(r.body.usages, []);
    assert.equal(r.body.definition.allow_list_active, false);
    const nobody = `${'ed0120'}${'AB'.repeat(32)}@wonderland`;
    assert.equal((await f.post(GET, { account_id: nobody, asset_definition_id: USD })).status, 404);
    assert.equal(
      (await f.post(GET, { account_id: f.alice.id, asset_definition_id: 'no#wonderland' })).status,
      404,
    );
    assert.equal((await f.post(GET, { account_id: 'not an id', asset_definition_id: USD })).status, 400);
    assert.equal((await f.post(DEF_GET, { asset_definition_id: 'no#wonderland' })).status, 404);
    assert.equal(
      (await f.post(GET, { account_id: 'ghost@wonderland', asset_definition_id: USD })).status,
      404,
    );
    assert.equal(
      await f.tx(f.t.admin, [
        { kind: 'RegisterAccountAlias', alias: 'alice@wonderland', account: f.alice.id },
        { kind: 'SetAssetAlias', alias: 'usd', definition: USD },
      ]),
      'Committed',
    );
    const byAlias = await f.post(GET, { account_id: 'alice@wonderland', asset_definition_id: 'usd' });
    assert.equal(byAlias.status, 200);
    assert.equal(byAlias.body.account_id, f.alice.id);
    assert.equal(byAlias.body.asset_definition_id, USD);
  });

  it('only the definition owner or a CanManageTransferControls holder sets rules', async () => {
    assert.equal(await f.tx(f.bob, [f.ins.freeze(f.alice.id)]), 'permission_denied');
    const grant = { name: 'CanManageTransferControls', payload: { asset_definition: USD } };
    assert.equal(
      await f.tx(f.t.admin, [{ kind: 'GrantPermission', account: f.bob.id, permission: grant }]),
      'Committed',
    );
    assert.equal(await f.tx(f.bob, [f.ins.freeze(f.carol.id)]), 'Committed');
    assert.equal((await control(f.carol.id)).control.outgoing_frozen, true);
    assert.equal(await f.tx(f.bob, [f.ins.freeze(f.carol.id, false)]), 'Committed');
    assert.equal(
      await f.tx(f.t.admin, [{ kind: 'RevokePermission', account: f.bob.id, permission: grant }]),
      'Committed',
    );
  });

  it('freeze: the account cannot send but receives; unfrozen, it sends', async () => {
    assert.equal(await f.tx(f.t.admin, [f.ins.freeze(f.alice.id)]), 'Committed');
    assert.equal((await control(f.alice.id)).control.outgoing_frozen, true);
    const before = f.balance(f.alice);
    assert.equal(await f.tx(f.alice, [f.ins.transfer(f.alice.id, f.bob.id, '1')]), 'transfer_frozen');
    assert.equal(f.balance(f.alice), before);
    assert.equal(await f.tx(f.bob, [f.ins.transfer(f.bob.id, f.alice.id, '1')]), 'Committed');
    assert.equal(await f.tx(f.t.admin, [f.ins.freeze(f.alice.id, false)]), 'Committed');
    assert.equal(await f.tx(f.alice, [f.ins.transfer(f.alice.id, f.bob.id, '1')]), 'Committed');
    assert.equal((await control(f.alice.id)).control.outgoing_frozen, false);
  });

  it('blacklist: the account neither sends nor receives (transfers and mints); cleared, it does', async () => {
    assert.equal(await f.tx(f.t.admin, [f.ins.blacklist(f.bob.id)]), 'Committed');
    assert.equal((await control(f.bob.id)).control.blacklisted, true);
    assert.equal(await f.tx(f.alice, [f.ins.transfer(f.alice.id, f.bob.id, '1')]), 'account_blacklisted');
    assert.equal(await f.tx(f.bob, [f.ins.transfer(f.bob.id, f.alice.id, '1')]), 'account_blacklisted');
    const mint = {
      kind: 'MintAsset' as const,
      asset: `${USD}#${f.bob.id}`,
      amount: { mantissa: 1n, scale: 0 },
    };
    assert.equal(await f.tx(f.t.admin, [mint]), 'account_blacklisted');
    assert.equal(await f.tx(f.alice, [f.ins.transfer(f.alice.id, f.carol.id, '1')]), 'Committed');
    assert.equal(await f.tx(f.t.admin, [f.ins.blacklist(f.bob.id, false)]), 'Committed');
    assert.equal(await f.tx(f.alice, [f.ins.transfer(f.alice.id, f.bob.id, '1')]), 'Committed');
  });

  it('allow and deny lists of the definition, readable on the definition route', async () => {
    assert.equal(await f.tx(f.t.admin, [f.ins.list('Deny', f.carol.id)]), 'Committed');
    assert.equal(await f.tx(f.alice, [f.ins.transfer(f.alice.id, f.carol.id, '1')]), 'on_deny_list');
    assert.equal(
      await f.tx(f.t.admin, [f.ins.list('Deny', f.carol.id, false), f.ins.list('Allow', f.alice.id)]),
      'Committed',
    );
    assert.equal(await f.tx(f.alice, [f.ins.transfer(f.alice.id, f.bob.id, '1')]), 'not_on_allow_list');
    const def = await f.post(DEF_GET, { asset_definition_id: USD });
    assert.equal(def.status, 200);
    assert.deepEqual(def.body.control.allow_list, [f.alice.id]);
    assert.deepEqual(def.body.control.deny_list, []);
    assert.equal((await control(f.alice.id)).definition.on_allow_list, true);
    assert.equal(await f.tx(f.t.admin, [f.ins.list('Allow', f.bob.id)]), 'Committed');
    assert.equal(await f.tx(f.alice, [f.ins.transfer(f.alice.id, f.bob.id, '1')]), 'Committed');
    assert.equal(
      await f.tx(f.t.admin, [f.ins.list('Allow', f.alice.id, false), f.ins.list('Allow', f.bob.id, false)]),
      'Committed',
    );
    assert.equal((await f.post(DEF_GET, { asset_definition_id: USD })).body.control.allow_list.length, 0);
  });

  it('caps count the sender side per transaction and per day of block time, and roll over', async () => {
    assert.equal(
      await f.tx(f.t.admin, [f.ins.cap(f.alice.id, 'Tx', '8'), f.ins.cap(f.alice.id, 'Day', '10')]),
      'Committed',
    );
    assert.equal(
      await f.tx(f.alice, [f.ins.transfer(f.alice.id, f.bob.id, '8.01')]),
      'transfer_cap_exceeded',
    );
    assert.equal(await f.tx(f.alice, [f.ins.transfer(f.alice.id, f.bob.id, '6')]), 'Committed');
    // Several instructions of one transaction (a batch of transfers) count together.
    assert.equal(
      await f.tx(f.alice, [
        f.ins.transfer(f.alice.id, f.bob.id, '2'),
        f.ins.transfer(f.alice.id, f.carol.id, '2.01'),
      ]),
      'transfer_cap_exceeded',
    );
    assert.equal(
      await f.tx(f.bob, [f.ins.transfer(f.bob.id, f.alice.id, '50')]),
      'Committed',
      'receiving is not capped',
    );
    const c = await control(f.alice.id);
    assert.deepEqual(c.control.limits, [
      { window: 'tx', cap_amount: '8.00' },
      { window: 'day', cap_amount: '10.00' },
    ]);
    assert.equal(c.usages.length, 1);
    assert.equal(c.usages[0].window, 'day');
    assert.equal(c.usages[0].spent_amount, '6.00');
    assert.equal(c.usages[0].cap_amount, '10.00');
    assert.equal(c.usages[0].current, true);
    const firstBucket = c.usages[0].bucket_start;
    assert.equal(firstBucket % DAY, 0);
    // The next block is a day later (block time): a new bucket, the old usage replaced.
    f.clock.jump(DAY);
    assert.equal(
      await f.tx(f.alice, [
        f.ins.transfer(f.alice.id, f.bob.id, '4'),
        f.ins.transfer(f.alice.id, f.bob.id, '4'),
      ]),
      'Committed',
    );
    const next = await control(f.alice.id);
    assert.equal(next.usages.length, 1);
    assert.equal(next.usages[0].bucket_start, firstBucket + DAY);
    assert.equal(next.usages[0].spent_amount, '8.00');
    assert.equal(
      await f.tx(f.alice, [f.ins.transfer(f.alice.id, f.bob.id, '2.01')]),
      'transfer_cap_exceeded',
    );
    assert.equal(
      await f.tx(f.t.admin, [f.ins.cap(f.alice.id, 'Tx'), f.ins.cap(f.alice.id, 'Day')]),
      'Committed',
    );
  });

  it('a definition-wide monthly cap applies to every holder separately and rolls over by month', async () => {
    assert.equal(await f.tx(f.t.admin, [f.ins.cap(undefined, 'Month', '100')]), 'Committed');
    assert.equal(await f.tx(f.alice, [f.ins.transfer(f.alice.id, f.carol.id, '100')]), 'Committed');
    assert.equal(await f.tx(f.bob, [f.ins.transfer(f.bob.id, f.carol.id, '100')]), 'Committed');
    assert.equal(
      await f.tx(f.alice, [f.ins.transfer(f.alice.id, f.carol.id, '0.01')]),
      'transfer_cap_exceeded',
    );
    const burn = {
      kind: 'BurnAsset' as const,
      asset: `${USD}#${f.alice.id}`,
      amount: { mantissa: 1n, scale: 2 },
    };
    assert.equal(await f.tx(f.alice, [burn]), 'transfer_cap_exceeded', 'a burn moves value out too');
    const usage = (await control(f.alice.id)).usages[0];
    assert.equal(usage.window, 'month');
    assert.equal(new Date(usage.bucket_start).getUTCDate(), 1);
    f.clock.jump(32 * DAY);
    assert.equal(await f.tx(f.alice, [f.ins.transfer(f.alice.id, f.carol.id, '100')]), 'Committed');
    assert.equal(await f.tx(f.t.admin, [f.ins.cap(undefined, 'Month')]), 'Committed');
  });

  it('SDK: builds the control instructions and reads both routes', async () => {
    const client = new ToranaClient({ url: f.t.url, account: f.t.admin.id, signer: f.t.admin.key });
    await client.submitAndWait(
      await client.build([
        instructions.setTransferCap(USD, 'hour', '3', f.carol.id),
        instructions.setTransferListEntry(USD, 'deny', f.bob.id),
      ]),
    );
    const c = await assetTransferControl(client, f.carol.id, USD);
    assert.deepEqual(c.control.limits, [{ window: 'hour', capAmount: { mantissa: 300n, scale: 2 } }]);
    const d = await definitionTransferControl(client, USD);
    assert.deepEqual(d.control.denyList, [f.bob.id]);
    assert.throws(() => instructions.setTransferCap(USD, 'year' as 'day', '1'), RangeError);
    await assert.rejects(
      assetTransferControl(client, f.carol.id, 'no#wonderland'),
      (e: { code?: string }) => e.code === 'not_found',
    );
    await client.submitAndWait(
      await client.build([
        instructions.setTransferCap(USD, 'hour', undefined, f.carol.id),
        instructions.setTransferListEntry(USD, 'deny', f.bob.id, false),
      ]),
    );
  });

  it('CLI: torana controls freeze|unfreeze|blacklist|clear|allow|deny|cap|get', async () => {
    const common = ['--dir', f.t.dir, '--url', f.t.url, '--json'];
    const ok = async (args: string[]) => {
      const r = await cli([...args, ...common]);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
      return JSON.parse(r.out);
    };
    const get = (holder?: string) =>
      ok(['controls', 'get', 'usd', ...(holder === undefined ? [] : [holder])]);
    assert.equal((await ok(['controls', 'freeze', USD, 'alice@wonderland'])).status, 'Committed');
    assert.equal((await get('alice@wonderland')).control.outgoing_frozen, true);
    await ok(['controls', 'unfreeze', USD, f.alice.id]);
    await ok(['controls', 'blacklist', 'usd', f.carol.id]);
    assert.equal((await get(f.carol.id)).control.blacklisted, true);
    await ok(['controls', 'clear', 'usd', f.carol.id]);
    await ok(['controls', 'deny', USD, f.carol.id]);
    await ok(['controls', 'allow', USD, f.bob.id]);
    const rules = await get();
    assert.deepEqual([rules.control.allow_list, rules.control.deny_list], [[f.bob.id], [f.carol.id]]);
    await ok(['controls', 'allow', USD, f.bob.id, '--remove']);
    await ok(['controls', 'deny', USD, f.carol.id, '--remove']);
    await ok(['controls', 'cap', USD, 'week', '7.5', '--holder', f.carol.id]);
    assert.deepEqual((await get(f.carol.id)).control.limits, [{ window: 'week', cap_amount: '7.50' }]);
    await ok(['controls', 'cap', USD, 'week', '--holder', f.carol.id]);
    assert.deepEqual((await get(f.carol.id)).control.limits, []);
    const bad = await cli(['controls', 'cap', USD, 'year', '1', ...common]);
    assert.equal(bad.code, 2);
  });

  it('a frozen definition stops every sender; a rebuild from blocks gives the same state root', async () => {
    assert.equal(
      await f.tx(f.t.admin, [f.ins.freeze(), f.ins.blacklist(f.carol.id), f.ins.cap(f.bob.id, 'Week', '5')]),
      'Committed',
    );
    assert.equal(await f.tx(f.bob, [f.ins.transfer(f.bob.id, f.alice.id, '1')]), 'transfer_frozen');
    assert.equal((await f.post(DEF_GET, { asset_definition_id: USD })).body.control.outgoing_frozen, true);
    const { t } = f;
    const root = toHex(t.node.ledger.state.stateRoot());
    await t.node.stop();
    const rebuilt = await cli(['rebuild', '--dir', t.dir, '--json']);
    assert.equal(rebuilt.code, 0, rebuilt.err);
    assert.equal(JSON.parse(rebuilt.out).state_root, root);
    const node = await t.restart();
    assert.equal(toHex(node.ledger.state.stateRoot()), root);
    assert.equal(node.ledger.state.tables.assetControl.get(`${USD}#${f.carol.id}`)?.blacklisted, true);
  });
});
