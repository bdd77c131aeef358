// `torana testnet init` and `torana testnet up` as a user runs them (the CLI from source in a child
// process): N + M complete peer directories, one genesis shared byte for byte, configurations that the
// node's own loader accepts and that list every other peer; refusals with stable codes; a peer
// directory that starts alone; `up` printing status and stopping its peers on SIGINT.

import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { nodeFiles } from '../../src/node/files.js';
import { loadGenesis } from '../../src/node/genesis.js';
import { loadNodeConfig } from '../../src/node/load-config.js';
import { loadTestnet } from '../../src/node/testnet-manifest.js';
import { freeBasePort } from '../helpers/network.js';
import { PeerProcess } from '../helpers/network-peer.js';
import { cli, spawnCli } from '../helpers/run-cli.js';

describe('torana testnet', () => {
  let base = '';
  before(async () => {
    base = await mkdtemp(join(tmpdir(), 'torana-testnet-cli-'));
  });
  after(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('init writes N + M peer directories sharing one genesis, with peer lists and roles', async () => {
    const dir = join(base, 'net4');
    const r = await cli([
      'testnet',
      'init',
      '--validators',
      '3',
      '--observers',
      '1',
      '--dir',
      dir,
      '--base-port',
      '31000',
      '--chain-id',
      'cli-net',
      '--json',
    ]);
    assert.equal(r.code, 0, r.err);
    const manifest = await loadTestnet(dir);
    assert.deepEqual(JSON.parse(r.out), manifest);
    assert.deepEqual((await readdir(dir)).sort(), ['peer-0', 'peer-1', 'peer-2', 'peer-3', 'testnet.json']);
    const genesisBytes = await Promise.all(manifest.peers.map((p) => readFile(nodeFiles(p.dir).genesis)));
    for (const g of genesisBytes) assert.ok(g.equals(genesisBytes[0]!), 'identical genesis bytes');
    const genesis = await loadGenesis(nodeFiles(manifest.peers[0]!.dir).genesis, 'cli-net');
    assert.deepEqual(
      genesis.validators.map((v) => v.peer).sort(),
      manifest.peers
        .slice(0, 3)
        .map((p) => p.peerId)
        .sort(),
    );
    const nodeKeys = new Set<string>();
    for (const p of manifest.peers) {
      const config = await loadNodeConfig({ dir: p.dir });
      assert.equal(config.node.chainId, 'cli-net');
      assert.equal(config.gateway.port, 31_000 + p.index);
      assert.equal(config.network.listen, `127.0.0.1:${31_100 + p.index}`);
      assert.equal(config.network.role, p.index < 3 ? 'validator' : 'observer');
      const others = manifest.peers.filter((q) => q.index !== p.index);
      assert.deepEqual(
        config.network.peers,
        others.map((q) => `${q.peerId}@127.0.0.1:${31_100 + q.index}`),
      );
      const client = JSON.parse(await readFile(nodeFiles(p.dir).client, 'utf8'));
      assert.equal(client.url, `http://127.0.0.1:${31_000 + p.index}`);
      assert.equal(client.account, genesis.transaction.payload.authority);
      nodeKeys.add(await readFile(nodeFiles(p.dir).nodeKey, 'utf8'));
      nodeKeys.add(await readFile(nodeFiles(p.dir).consensusKey, 'utf8'));
    }
    assert.equal(nodeKeys.size, 8, 'every peer has its own node and consensus key');
  });

  it('refuses an existing non-empty directory and bad sizes with stable codes', async () => {
    const dir = join(base, 'taken');
    await cli(['testnet', 'init', '--validators', '1', '--dir', dir, '--base-port', '31200']);
    const cases: [string[], RegExp][] = [
      [['--validators', '1', '--dir', dir], /testnet_dir_not_empty/],
      [['--validators', '0', '--dir', join(base, 'zero')], /testnet_invalid_size/],
      [['--validators', '20', '--observers', '13', '--dir', join(base, 'big')], /testnet_invalid_size/],
      [['--validators', '2', '--base-port', '65500', '--dir', join(base, 'port')], /testnet_invalid_port/],
      [['--validators', 'four', '--dir', join(base, 'nan')], /invalid_argument/],
    ];
    for (const [args, code] of cases) {
      const r = await cli(['testnet', 'init', ...args]);
      assert.notEqual(r.code, 0, args.join(' '));
      assert.match(r.err, code);
    }
    for (const d of ['zero', 'big', 'port', 'nan'])
      await assert.rejects(readdir(join(base, d)), { code: 'ENOENT' });
  });

  it('a peer directory of a 1-validator testnet starts alone with torana start --dir', async () => {
    const dir = join(base, 'alone');
    const port = await freeBasePort(1);
    const r = await cli(['testnet', 'init', '--validators', '1', '--dir', dir, '--base-port', String(port)]);
    assert.equal(r.code, 0, r.err);
    const peer = (await loadTestnet(dir)).peers[0]!;
    const p = new PeerProcess({ dir: peer.dir, url: peer.gatewayUrl });
    p.start();
    try {
      await p.waitReady();
      assert.deepEqual(await p.getJson('/health'), { status: 'ok' });
      assert.equal((await p.getJson<{ blocks: number }>('/status')).blocks, 1, 'genesis applied');
    } finally {
      assert.equal((await p.stop())?.code, 0);
    }
  });

  it('up starts the peers, prints status lines and stops them on SIGINT', async () => {
    const dir = join(base, 'up');
    const port = await freeBasePort(1);
    await cli(['testnet', 'init', '--validators', '1', '--dir', dir, '--base-port', String(port)]);
    const child = spawnCli(['testnet', 'up', '--dir', dir]);
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    const closed = new Promise<number | null>((r) => child.on('close', r));
    const deadline = Date.now() + 60_000;
    while (!/peer-0 h=1 v=0 p=0 {2}leader peer-0/.test(out) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    assert.match(out, /peer-0 \| torana node listening on/);
    assert.match(out, /peer-0 h=1 v=0 p=0 {2}leader peer-0/, out);
    child.kill('SIGINT');
    assert.equal(await closed, 0, out);
    assert.match(out, /SIGINT: stopping 1 peers/);
    assert.match(out, /peer-0 exited \(code 0\)/);
  });
});
