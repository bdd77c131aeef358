// The genesis ceremony as operators run it (the CLI from source in child processes): three operators
// each make their keys and a signed entry in their own directory, a coordinator collects the entries
// into genesis.json with its own admin directory, each operator verifies the file by its hash and
// adopts it; the three nodes then start with no further configuration, connect and commit a
// transaction signed by the genesis admin. No operator directory ever holds another's private key.

import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { renderConfigToml } from '../../src/config/load.js';
import { loadKeyFile } from '../../src/crypto/keyfile.js';
import { accountId } from '../../src/model/ids.js';
import { nodeFiles } from '../../src/node/files.js';
import { GENESIS_DOMAIN } from '../../src/node/init.js';
import { loadNodeConfig } from '../../src/node/load-config.js';
import { P2P_PORT_OFFSET } from '../../src/node/testnet-manifest.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { instructions as ix } from '../../src/sdk/instructions.js';
import { writeFileAtomic } from '../../src/util/atomic-file.js';
import { freeBasePort } from '../helpers/network.js';
import { PeerProcess } from '../helpers/network-peer.js';
import { cli } from '../helpers/run-cli.js';

const CHAIN = 'ceremony-cli';

describe('torana genesis: a ceremony of three operators', { timeout: 240_000 }, () => {
  let base = '';
  const peers: PeerProcess[] = [];
  before(async () => {
    base = await mkdtemp(join(tmpdir(), 'torana-genesis-cli-'));
  });
  after(async () => {
    await Promise.all(peers.map((p) => p.stop()));
    await rm(base, { recursive: true, force: true });
  });

  it('entry, collect, verify, adopt; the adopted nodes run the network', async () => {
    const port = await freeBasePort(3);
    const ops = [0, 1, 2].map((i) => join(base, `operator-${i}`));
    const entries: string[] = [];
    for (const [i, dir] of ops.entries()) {
      const address = `127.0.0.1:${port + P2P_PORT_OFFSET + i}`;
      const r = await cli(['genesis', 'entry', '--dir', dir, '--chain-id', CHAIN, '--address', address]);
      assert.equal(r.code, 0, r.err);
      entries.push(join(dir, 'genesis-entry.json'));
    }
    // What the coordinator receives holds no private key of any operator.
    const received = (await Promise.all(entries.map((e) => readFile(e, 'utf8')))).join('\n');
    for (const dir of ops)
      for (const f of [nodeFiles(dir).nodeKey, nodeFiles(dir).consensusKey]) {
        const secret = JSON.parse(await readFile(f, 'utf8')).private_key as string;
        assert.ok(!received.includes(secret), `a private key of ${dir} left it`);
      }

    const admin = join(base, 'coordinator-admin');
    const genesis = join(base, 'genesis.json');
    const dup = await cli([
      'genesis',
      'collect',
      '--chain-id',
      CHAIN,
      '--admin-dir',
      admin,
      '--out',
      genesis,
      entries[0]!,
      entries[0]!,
    ]);
    assert.notEqual(dup.code, 0);
    assert.match(dup.err, /genesis_entry_duplicate/);
    const c = await cli([
      'genesis',
      'collect',
      '--chain-id',
      CHAIN,
      '--admin-dir',
      admin,
      '--out',
      genesis,
      '--json',
      ...entries,
    ]);
    assert.equal(c.code, 0, c.err);
    const { hash } = JSON.parse(c.out) as { hash: string };

    const wrong = await cli(['genesis', 'verify', genesis, '--hash', '00'.repeat(32)]);
    assert.notEqual(wrong.code, 0);
    assert.match(wrong.err, /genesis_hash_mismatch/);
    const v = await cli(['genesis', 'verify', genesis, '--hash', hash, '--json']);
    assert.equal(v.code, 0, v.err);
    assert.equal(JSON.parse(v.out).validators.length, 3);

    for (const [i, dir] of ops.entries()) {
      const a = await cli(['genesis', 'adopt', genesis, '--hash', hash, '--dir', dir, '--json']);
      assert.equal(a.code, 0, a.err);
      assert.equal(JSON.parse(a.out).role, 'validator');
      // The three run on one machine here: each gets its own gateway port.
      const config = await loadNodeConfig({
        dir,
        overrides: { 'gateway.port': port + i, 'verify.threads': 0 },
      });
      await writeFileAtomic(nodeFiles(dir).config, renderConfigToml(config, { onlyNonDefault: true }), 0o600);
      assert.deepEqual((await readdir(dir)).sort(), [
        'config.toml',
        'consensus.key.json',
        'genesis-entry.json',
        'genesis.json',
        'node.key.json',
      ]);
    }

    for (const [i, dir] of ops.entries())
      peers.push(new PeerProcess({ dir, url: `http://127.0.0.1:${port + i}`, label: `operator-${i}` }));
    for (const p of peers) p.start();
    await Promise.all(peers.map((p) => p.waitReady(90_000)));
    const key = await loadKeyFile(nodeFiles(admin).adminKey);
    const client = new ToranaClient({
      url: peers[0]!.url,
      chainId: CHAIN,
      account: accountId(key.publicKeyText(), GENESIS_DOMAIN),
      signer: key,
    });
    const done = await client.submitAndWait(await client.build([ix.registerDomain('operators')]), {
      timeoutMs: 120_000,
    });
    assert.ok(done);
    for (const p of peers) {
      let blocks = 0;
      for (let t = 0; t < 600 && blocks < 2; t++) {
        blocks = (await p.getJson<{ blocks: number }>('/status')).blocks;
        if (blocks < 2) await new Promise((r) => setTimeout(r, 200));
      }
      assert.ok(blocks >= 2, `${p.label} committed the transaction's block`);
    }
  });
});
