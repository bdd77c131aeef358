// `torana permission grant | revoke | tokens`, and the ids of what a command creates in its `--json`
// answer (domain, account, asset definition, multisig account and proposal), against one served node.

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../../src/modules/registry.js';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ed25519KeyPair } from '../../src/crypto/signer.js';
import { multisigAccountId } from '../../src/modules/multisig/model.js';
import { runCli } from '../helpers/cli-in-process.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

describe('torana permission and the ids in --json answers', () => {
  let t: ServedTestNode;
  let common: string[];
  const alice = `${Ed25519KeyPair.generate().publicKeyText()}@wonderland`;
  const bob = `${Ed25519KeyPair.generate().publicKeyText()}@wonderland`;
  const ok = async (args: string[]) => {
    const r = await runCli([...args, ...common, '--json']);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
    return JSON.parse(r.out) as Record<string, unknown>;
  };
  before(async () => {
    t = await startServedNode();
    common = ['--dir', t.dir, '--url', t.url];
  });
  after(async () => t.stopAll());

  it('answers with the id of each entity it creates', async () => {
    assert.equal((await ok(['domain', 'register', 'wonderland'])).domain, 'wonderland');
    assert.equal((await ok(['account', 'register', alice])).account, alice);
    await ok(['account', 'register', bob]);
    assert.equal((await ok(['asset', 'define', 'rose#wonderland'])).asset_definition, 'rose#wonderland');
    const reg = await ok([
      'multisig',
      'register',
      'wonderland',
      'board',
      '--quorum',
      '1',
      '--signatory',
      `${t.admin.id}=1`,
    ]);
    assert.equal(reg.status, 'Committed');
    assert.equal(reg.multisig_account_id, multisigAccountId('wonderland', 'board'));
    const batch = JSON.stringify([{ kind: 'Log', level: { kind: 'Info' }, message: 'm' }]);
    const proposed = await ok(['multisig', 'propose', String(reg.multisig_account_id), batch]);
    assert.match(String(proposed.proposal_id), /^[0-9a-f]{64}$/);
  });

  it('grants and revokes a token with the payload its option names', async () => {
    const granted = await ok(['permission', 'grant', bob, 'CanTransferFrom', '--of', alice]);
    const permission = { name: 'CanTransferFrom', payload: { account: alice } };
    assert.deepEqual([granted.status, granted.account, granted.permission], ['Committed', bob, permission]);
    assert.deepEqual(t.node.ledger.state.permissionsOfAccount(bob), [permission]);
    await ok(['permission', 'grant', bob, 'CanMintAssetWithDefinition', '--definition', 'rose#wonderland']);
    await ok(['permission', 'grant', bob, 'CanRegisterDomain']);
    assert.equal(t.node.ledger.state.permissionsOfAccount(bob).length, 3);
    await ok(['permission', 'revoke', bob, 'CanTransferFrom', '--of', alice]);
    await ok(['permission', 'revoke', bob, 'CanRegisterDomain']);
    assert.deepEqual(t.node.ledger.state.permissionsOfAccount(bob), [
      { name: 'CanMintAssetWithDefinition', payload: { asset_definition: 'rose#wonderland' } },
    ]);
    const notHeld = await runCli(['permission', 'revoke', bob, 'CanManagePeers', ...common, '--json']);
    assert.equal(notHeld.code, 3, notHeld.err);
    assert.equal(JSON.parse(notHeld.err).code, 'permission_not_held');
  });

  it('refuses a payload that does not fit the token before sending (exit 2)', async () => {
    for (const args of [
      ['CanTransferFrom'],
      ['CanTransferFrom', '--domain', 'wonderland'],
      ['CanRegisterDomain', '--of', alice],
      ['CanRegisterDomain', '--payload', '{"x":1}', '--of', alice],
    ]) {
      const r = await runCli(['permission', 'grant', bob, ...args, ...common]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
      assert.match(r.err, /^error \[invalid_argument\]: /);
    }
  });

  it('lists the tokens and the payload each takes', async () => {
    const r = await runCli(['permission', 'tokens', '--json']);
    assert.equal(r.code, 0, r.err);
    const tokens = JSON.parse(r.out) as { token: string; payload_field: string | null; source: string }[];
    assert.deepEqual(
      tokens.find((x) => x.token === 'CanTransferFrom'),
      { token: 'CanTransferFrom', payload_field: 'account', source: 'core' },
    );
    // The installed modules' tokens too (declared by the module registry, not a hand list).
    assert.deepEqual(
      tokens.find((x) => x.token === 'CanManageTransferControls'),
      { token: 'CanManageTransferControls', payload_field: 'asset_definition', source: 'module' },
    );
    const table = await runCli(['permission', 'tokens']);
    assert.match(table.out, /CanManageTransferControls\s+--definition asset_definition\s+module/);
  });
});
