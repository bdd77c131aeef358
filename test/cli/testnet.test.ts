// `torana testnet init` and `torana testnet up` as a user runs them (the CLI from source in a child
// process): N + M complete peer directories, one genesis shared byte for byte, configurations that the
// node's own loader accepts and that list every other peer; refusals with stable codes; a peer
// directory that starts alone; `up` printing status and stopping its peers on SIGINT.

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../../src/modules/registry.js';
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
    assert.deepEqual(JSON.parse(r.out), JSON.parse(await readFile(join(dir, 'testnet.json'), 'utf8')));
    assert.equal(JSON.parse(r.out).peers[3].gateway_url, 'http://127.0.0.1:31003');
    assert.deepEqual((await readdir(dir)).sort(), [
      'admin',
      'peer-0',
      'peer-1',
      'peer-2',
      'peer-3',
      'testnet.json',
    ]);
    // The admin directory signs as the genesis authority; each peer's client.json as its own account.
    const admin = JSON.parse(await readFile(join(dir, 'admin', 'client.json'), 'utf8'));
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
      assert.notEqual(client.account, genesis.transaction.payload.authority);
      assert.equal(client.key_file, 'client.key.json');
      nodeKeys.add(await readFile(nodeFiles(p.dir).nodeKey, 'utf8'));
      nodeKeys.add(await readFile(nodeFiles(p.dir).consensusKey, 'utf8'));
    }
    assert.equal(nodeKeys.size, 8, 'every peer has its own node and consensus key');
    assert.equal(admin.account, genesis.transaction.payload.authority);
  });

  it('refuses an existing non-empty directory and bad sizes with stable codes', async () => {
    const dir = join(base, 'taken');
    await cli(['testnet', 'init', '--validators', '1', '--dir', dir, '--base-port', '31200']);
    const cases: [string[], RegExp][] = [
      [['--validators', '1', '--dir', dir], /testnet_dir_not_empty/],
      [['--validators', '0', '--dir', join(base, 'zero')], /testnet_invalid_size/],
      [['--validators', 'four', '--dir', join(base, 'nan')], /invalid_argument/],
    ];
    for (const [args, code] of cases) {
      const r = await cli(['testnet', 'init', ...args]);
      assert.notEqual(r.code, 0, args.join(' '));
      assert.match(r.err, code);
    }
    // The other refusals (too many peers, ports out of range) are in src/node/testnet.test.ts.
    for (const d of ['zero', 'nan']) await assert.rejects(readdir(join(base, d)), { code: 'ENOENT' });
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

  /** `testnet up` on a new 1-validator testnet, once its status line shows the peer at height 1. */
  async function upAndReady(name: string, extra: string[] = []) {
    const dir = join(base, name);
    const port = await freeBasePort(1);
    await cli(['testnet', 'init', '--validators', '1', '--dir', dir, '--base-port', String(port)]);
    const child = spawnCli(['testnet', 'up', '--dir', dir, ...extra]);
    const run = { out: '', dir, child, closed: new Promise<number | null>((r) => child.on('close', r)) };
    child.stdout?.on('data', (d) => (run.out += d));
    child.stderr?.on('data', (d) => (run.out += d));
    const deadline = Date.now() + 60_000;
    // The status line can come before the peer's own "listening" line (it polls /status as soon as the
    // socket listens): wait for both.
    const ready = () =>
      /peer-0 h=1 v=0 p=0 {2}leader peer-0/.test(run.out) &&
      /peer-0 \| torana node listening on/.test(run.out);
    while (!ready() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.match(run.out, /peer-0 \| torana node listening on/);
    assert.match(run.out, /peer-0 h=1 v=0 p=0 {2}leader peer-0/, run.out);
    return run;
  }

  /** The pid of the peer `torana start` left in its node.json. */
  async function peerPid(dir: string): Promise<number> {
    return JSON.parse(await readFile(join(dir, 'peer-0', 'node.json'), 'utf8')).pid;
  }

  it('up starts the peers, prints status lines and stops them on SIGINT', async () => {
    const run = await upAndReady('up');
    run.child.kill('SIGINT');
    assert.equal(await run.closed, 0, run.out);
    assert.match(run.out, /SIGINT: stopping 1 peers/);
    assert.match(run.out, /peer-0 exited \(code 0\)/);
  });

  it('up kills a peer that does not stop within the grace period, or at a second signal', async () => {
    const grace = await upAndReady('grace', ['--grace-ms', '500']);
    process.kill(await peerPid(grace.dir), 'SIGSTOP'); // a hung peer: the forwarded SIGTERM waits
    grace.child.kill('SIGTERM');
    assert.equal(await grace.closed, 1, grace.out);
    assert.match(grace.out, /peer-0 did not stop within 500 ms: killing it/);
    assert.match(grace.out, /peer-0 exited \(SIGKILL\)/);

    const twice = await upAndReady('twice', ['--grace-ms', '600000']);
    process.kill(await peerPid(twice.dir), 'SIGSTOP');
    twice.child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 300));
    twice.child.kill('SIGINT');
    assert.equal(await twice.closed, 1, twice.out);
    assert.match(twice.out, /peer-0 still running after a second signal: killing it/);
  });
});
