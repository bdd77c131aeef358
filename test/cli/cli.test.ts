// The CLI driven as a user would, against a started node (README.md "Command line"):
// register a domain and an account, define, mint and transfer an asset, read the balance, and follow
// the events of the transfer. The followers (they run until they are stopped) and a rejection's exit
// status run the CLI as a child process (bin/torana.js as a user starts it); the other commands run in
// this process (test/helpers/cli-in-process.ts: main() as the process runs it, its exit code and output).

import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { blsVerifyPossession } from '../../src/crypto/bls.js';
import { loadKeyFile } from '../../src/crypto/keyfile.js';
import { parsePublicKey } from '../../src/model/keys.js';
import { nodeFiles } from '../../src/node/files.js';
import { initNodeDir } from '../../src/node/init.js';
import { fromHex } from '../../src/util/hex.js';
import { runCli } from '../helpers/cli-in-process.js';
import { cli, spawnCli } from '../helpers/run-cli.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

/** Polls `ready` every 50 ms; fails after 30 s (a follower is a process of its own to start). */
async function waitFor(ready: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; !ready(); await new Promise((r) => setTimeout(r, 50)))
    assert.ok(Date.now() < deadline, `timed out waiting: ${what}`);
}

describe('torana CLI end to end', () => {
  let t: ServedTestNode;
  let common: string[];
  let follower: ChildProcess | undefined;
  before(async () => {
    t = await startServedNode();
    common = ['--dir', t.dir, '--url', t.url];
  });
  after(async () => {
    follower?.kill();
    await t.stopAll();
  });

  it('runs a whole asset lifecycle and follows the transfer events', async () => {
    const keys = await runCli(['keys', 'generate', '--json', '--show-private']);
    assert.equal(keys.code, 0, keys.err);
    const alice = JSON.parse(keys.out) as { public_key: string; private_key: string };
    assert.match(alice.public_key, /^ed0120[0-9A-F]{64}$/);
    const aliceKeyFile = join(t.dir, 'alice.key.json');
    await writeFile(aliceKeyFile, JSON.stringify(alice));
    const aliceId = `${alice.public_key}@wonderland`;
    const bob = JSON.parse((await runCli(['keys', 'generate', '--json'])).out) as { public_key: string };
    const bobId = `${bob.public_key}@wonderland`;

    for (const args of [
      ['domain', 'register', 'wonderland'],
      ['account', 'register', aliceId],
      ['account', 'register', bobId],
      ['asset', 'define', 'rose#wonderland', '--scale', '2'],
      ['asset', 'mint', 'rose#wonderland', aliceId, '100'],
    ]) {
      const r = await runCli([...args, ...common, '--json']);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
      assert.equal(JSON.parse(r.out).status, 'Committed');
    }

    // Follow events before the transfer; --json prints one JSON document per line. The stream starts
    // with the events the node holds (the registrations above), so a first line means it is connected.
    let followed = '';
    follower = spawnCli(['events', '--follow', '--since', 'genesis', '--json', ...common]);
    follower.stdout?.on('data', (d) => (followed += d));
    await waitFor(() => followed.includes('\n'), 'the follower printed the events before it');

    const transfer = await runCli([
      'asset',
      'transfer',
      'rose#wonderland',
      aliceId,
      bobId,
      '25.5',
      ...common,
      '--account',
      aliceId,
      '--key-file',
      aliceKeyFile,
      '--json',
    ]);
    assert.equal(transfer.code, 0, transfer.err);
    const txHash = JSON.parse(transfer.out).tx_hash as string;

    const balance = await runCli(['asset', 'balance', 'rose#wonderland', bobId, ...common]);
    assert.equal(balance.code, 0, balance.err);
    assert.equal(balance.out.trim(), '25.50');
    const aliceBalance = await runCli(['asset', 'balance', 'rose#wonderland', aliceId, ...common, '--json']);
    assert.equal(JSON.parse(aliceBalance.out).balance, '74.50');

    const deadline = Date.now() + 10_000;
    while (!followed.includes(txHash) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const lines = followed
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; event: Record<string, unknown> });
    const mine = lines.filter((l) => l.event.hash === txHash || l.event.transaction_hash === txHash);
    assert.ok(
      mine.some((l) => (l.event.status as { kind: string } | undefined)?.kind === 'Committed'),
      'the transfer committed event was followed',
    );
    assert.ok(
      mine.some((l) => (l.event.data as { kind: string } | undefined)?.kind === 'AssetAdded'),
      'the transfer data event was followed',
    );
    const ids = lines.map((l) => l.id);
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
      'events arrive in id order',
    );
  });

  it('exits non-zero with the code of a rejection and of bad usage', async () => {
    const r = await runCli(['asset', 'mint', 'nosuch#wonderland', 'not-an-account', '1', ...common]);
    assert.notEqual(r.code, 0);
    assert.equal(r.code, 2);
    // The account argument may be an id or an alias (docs/data-model.md §Aliases): neither here.
    assert.match(
      r.err,
      /error \[invalid_argument\]: not-an-account: expected <public key>@<domain> or an alias/,
    );
    // As a process too: the exit status of a rejection is the code main() answers.
    const rejected = await cli(['asset', 'define', 'rose#nowhere', ...common]);
    assert.equal(rejected.code, 3, rejected.err);
    assert.match(rejected.err, /rejected \[domain_not_found\]/);
    const usage = await runCli(['query', 'nothing', ...common]);
    assert.equal(usage.code, 2);
  });

  it('sets a weight cap with `parameter set` (a SetParameter transaction)', async () => {
    const r = await runCli(['parameter', 'set', 'BlockMaxWeight', '400000', ...common, '--json']);
    assert.equal(r.code, 0, r.err);
    assert.equal(JSON.parse(r.out).status, 'Committed');
    assert.equal(t.node.ledger.state.parameters().blockMaxWeight, 400_000);
    const low = await runCli(['parameter', 'set', 'TransactionMaxWeight', '999', ...common]);
    assert.equal(low.code, 3, low.err);
    assert.match(low.err, /rejected \[invalid_parameter\]/);
    assert.equal((await runCli(['parameter', 'set', 'NoSuchParameter', '5', ...common])).code, 2);
  });

  it('registers and unregisters a validator with the entry `keys validator` prints', async () => {
    const other = await mkdtemp(join(tmpdir(), 'torana-validator-'));
    try {
      await initNodeDir({ dir: other, overrides: { 'gateway.port': 0 } });
      const shown = await runCli(['keys', 'validator', '--dir', other, '--json']);
      assert.equal(shown.code, 0, shown.err);
      const v = JSON.parse(shown.out) as { peer: string; bls_key: string; pop: string };
      assert.equal(v.peer, (await loadKeyFile(nodeFiles(other).nodeKey)).publicKeyText());
      const bls = parsePublicKey(v.bls_key)!;
      assert.equal(bls.algorithm, 'bls12_381');
      assert.ok(blsVerifyPossession(bls.bytes, fromHex(v.pop, 96)!), 'the printed pop verifies');

      const register = ['peer', 'register', v.peer, '--address', '127.0.0.1:1', '--bls-key', v.bls_key];
      assert.notEqual(v.bls_key, t.node.validatorSet.validators[0]!.blsKey, 'another node’s key');
      const wrong = await runCli([...register, '--pop', '00'.repeat(96), ...common]);
      assert.equal(wrong.code, 3, wrong.err);
      assert.match(wrong.err, /rejected \[invalid_proof_of_possession\]/);
      const ok = await runCli([...register, '--pop', v.pop, ...common, '--json']);
      assert.equal(ok.code, 0, ok.err);
      assert.equal(JSON.parse(ok.out).status, 'Committed');
      assert.equal(t.node.ledger.state.peer(v.peer)?.blsKey, v.bls_key);
      const gone = await runCli(['peer', 'unregister', v.peer, ...common, '--json']);
      assert.equal(gone.code, 0, gone.err);
      assert.notEqual(t.node.ledger.state.peer(v.peer)?.disabledAt, undefined);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('prints help with examples', async () => {
    const r = await runCli(['asset', 'transfer', '--help']);
    assert.equal(r.code, 0);
    assert.match(r.out, /Example:/);
  });
});

describe('torana blocks', () => {
  it('prints committed blocks from a height and follows new ones', async () => {
    const t = await startServedNode();
    try {
      const common = ['--dir', t.dir, '--url', t.url];
      const r = await runCli(['blocks', '--from', '1', '--json', ...common]);
      assert.equal(r.code, 0, r.err);
      const blocks = r.out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { header: { height: number } });
      assert.deepEqual(
        blocks.map((b) => b.header.height),
        [1],
      );
      let followed = '';
      const follower = spawnCli(['blocks', '--follow', ...common]);
      follower.stdout?.on('data', (d) => (followed += d));
      await waitFor(() => /^\s+1\s/m.test(followed), 'the follower printed block 1');
      const d = await runCli(['domain', 'register', 'wonderland', ...common]);
      assert.equal(d.code, 0, d.err);
      const deadline = Date.now() + 10_000;
      while (!/^\s+2\s/m.test(followed) && Date.now() < deadline)
        await new Promise((res) => setTimeout(res, 100));
      follower.kill();
      assert.match(followed, /^\s+1\s.*1 tx/m);
      assert.match(followed, /^\s+2\s.*1 tx\s+0 rejected/m);
    } finally {
      await t.stopAll();
    }
  });

  it('needs no application route: without the application API it prints the blocks the node holds', async () => {
    const t = await startServedNode({ 'app_api.enabled': false });
    try {
      const r = await runCli(['blocks', '--from', '1', '--json', '--dir', t.dir, '--url', t.url]);
      assert.equal(r.code, 0, r.err);
      assert.deepEqual(
        r.out
          .trim()
          .split('\n')
          .map((l) => (JSON.parse(l) as { header: { height: number } }).header.height),
        [1],
      );
      const past = await runCli(['blocks', '--from', '5', '--json', '--dir', t.dir, '--url', t.url]);
      assert.equal(past.code, 0, past.err);
      assert.equal(past.out, '', 'a height above the tip prints nothing, and the command stops');
    } finally {
      await t.stopAll();
    }
  });
});
