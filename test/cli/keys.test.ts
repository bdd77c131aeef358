// Named identities (`torana keys add | list | show | remove`, `--as NAME`): keys stored with mode 0600,
// private keys printed only with --show-private, and commands signed as the identity named.

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../../src/modules/registry.js';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildProgram } from '../../src/cli/main.js';
import { runCli } from '../helpers/cli-in-process.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

const mode = (path: string) => statSync(path).mode & 0o777;

describe('torana keys: named identities and --as', () => {
  let t: ServedTestNode;
  let common: string[];
  const json = async (args: string[]) => {
    const r = await runCli([...args, '--json']);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
    return JSON.parse(r.out);
  };
  before(async () => {
    t = await startServedNode();
    common = ['--dir', t.dir, '--url', t.url];
  });
  after(async () => t.stopAll());

  it('prints a private key only with --show-private', async () => {
    const plain = await json(['keys', 'generate']);
    assert.deepEqual(Object.keys(plain), ['public_key']);
    const text = await runCli(['keys', 'generate']);
    assert.doesNotMatch(text.out, /private_key/);
    const shown = await json(['keys', 'generate', '--show-private']);
    assert.match(shown.private_key, /^802620[0-9A-F]{64}$/);
  });

  it('adds, lists, shows and removes identities stored with mode 0600', async () => {
    const alice = await json(['keys', 'add', 'alice', '--domain', 'wonderland', '--dir', t.dir]);
    assert.equal(alice.account, `${alice.public_key}@wonderland`);
    assert.equal(alice.private_key, undefined);
    assert.equal(mode(alice.key_file), 0o600);
    assert.equal(mode(join(t.dir, 'keys', 'alice.json')), 0o600);
    assert.equal(mode(join(t.dir, 'keys')), 0o700);
    // Imported: the key file `keys generate --show-private` writes; the account domain from client.json.
    const keyFile = join(t.dir, 'bob.key.json');
    await writeFile(keyFile, (await runCli(['keys', 'generate', '--json', '--show-private'])).out);
    const bob = await json(['keys', 'add', 'bob', '--import', keyFile, '--dir', t.dir]);
    assert.equal(bob.account, `${bob.public_key}@${t.admin.id.split('@')[1]}`);
    const again = await runCli(['keys', 'add', 'bob', '--dir', t.dir, '--json']);
    assert.equal(again.code, 2);
    assert.equal(JSON.parse(again.err).code, 'identity_exists');

    const list = await json(['keys', 'list', '--dir', t.dir]);
    assert.deepEqual(
      list.map((r: { name: string }) => r.name),
      ['alice', 'bob'],
    );
    assert.ok(!JSON.stringify(list).includes('private'));
    const shown = await json(['keys', 'show', 'alice', '--dir', t.dir]);
    assert.equal(shown.private_key, undefined);
    const secret = await json(['keys', 'show', 'alice', '--show-private', '--dir', t.dir]);
    assert.match(secret.private_key, /^802620/);
    await json(['keys', 'remove', 'bob', '--dir', t.dir]);
    assert.deepEqual(
      (await json(['keys', 'list', '--dir', t.dir])).map((r: { name: string }) => r.name),
      ['alice'],
    );
    const gone = await runCli(['keys', 'show', 'bob', '--dir', t.dir]);
    assert.equal(gone.code, 2);
    assert.match(gone.err, /^error \[identity_not_found\]: /);
  });

  it('signs as the identity --as names, before or after the command', async () => {
    const alice = await json(['keys', 'show', 'alice', '--dir', t.dir]);
    await json(['domain', 'register', 'wonderland', ...common]);
    await json(['account', 'register', alice.account, ...common]);
    const who = await json(['whoami', '--as', 'alice', ...common]);
    assert.deepEqual([who.account, who.public_key], [alice.account, alice.public_key]);
    const before = await json(['--as', 'alice', 'whoami', ...common]);
    assert.equal(before.account, alice.account);
    // A transaction signed by alice: only the owner may set the account's metadata without a grant.
    const file = join(t.dir, 'kv.json');
    const kv = {
      kind: 'SetKeyValue',
      target: { kind: 'Account', id: alice.account },
      key: 'email',
      value: 'a@x',
    };
    await writeFile(file, JSON.stringify([kv]));
    await json(['--as', 'alice', 'tx', 'submit', '--file', file, ...common]);
    assert.equal(t.node.ledger.state.account(alice.account)?.metadata.get('email'), 'a@x');
    const both = await runCli(['whoami', '--as', 'alice', '--account', alice.account, ...common]);
    assert.equal(both.code, 2);
    assert.match(both.err, /--as replaces --account and --key-file/);
  });

  it("leaves a command's own --as to it (iso20022 report --as <type>)", () => {
    const iso = buildProgram().commands.find((c) => c.name() === 'iso20022')!;
    const report = iso.commands.find((c) => c.name() === 'report')!;
    const as = report.options.filter((o) => o.long === '--as');
    assert.equal(as.length, 1);
    assert.match(as[0]!.description, /report type/);
  });
});
