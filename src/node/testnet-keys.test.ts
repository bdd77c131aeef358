// `torana testnet init` on named hosts: each peer directory holds only its own private keys (node,
// consensus, client); the genesis admin and bridge keys are only in the admin directory; peers listen
// on and advertise their host; a manifest file places every peer; bad hosts, manifests and admin
// directories are refused before anything is written.

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { nodeFiles } from './files.js';
import { genesisFromJson } from './genesis.js';
import { loadNodeConfig } from './load-config.js';
import { initTestnet } from './testnet.js';
import { TestnetError, type TestnetManifest } from './testnet-manifest.js';
import { readManifestPlan } from './testnet-plan.js';

/** Every file under `dir`, as text, concatenated. */
async function allText(dir: string): Promise<string> {
  let out = '';
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    out += (await stat(path)).isDirectory() ? await allText(path) : await readFile(path, 'utf8');
  }
  return out;
}

async function privateKey(path: string): Promise<string> {
  return (JSON.parse(await readFile(path, 'utf8')) as { private_key: string }).private_key;
}

const configOf = (dir: string) => loadNodeConfig({ dir });

describe('testnet init: hosts, manifest, admin directory', () => {
  let base = '';
  before(async () => {
    base = await mkdtemp(join(tmpdir(), 'torana-testnet-keys-'));
  });
  after(async () => {
    await rm(base, { recursive: true, force: true });
  });

  async function checkKeys(m: TestnetManifest): Promise<void> {
    const adminDir = m.adminDir!;
    const admin = await privateKey(nodeFiles(adminDir).adminKey);
    const bridge = await privateKey(nodeFiles(adminDir).bridgeKey);
    const own = await Promise.all(
      m.peers.map(async (p) => {
        const f = nodeFiles(p.dir);
        return [await privateKey(f.nodeKey), await privateKey(f.consensusKey), await privateKey(f.clientKey)];
      }),
    );
    for (const p of m.peers) {
      const text = await allText(p.dir);
      assert.ok(!text.includes(admin), `peer-${p.index} holds the admin key`);
      assert.ok(!text.includes(bridge), `peer-${p.index} holds the bridge key`);
      for (const q of m.peers) {
        if (q.index === p.index) continue;
        for (const k of own[q.index]!)
          assert.ok(!text.includes(k), `peer-${p.index} holds a key of peer-${q.index}`);
      }
      const client = JSON.parse(await readFile(nodeFiles(p.dir).client, 'utf8'));
      assert.equal(client.key_file, 'client.key.json');
    }
  }

  it('puts every peer on its host, its own keys only; the admin key only in --admin-dir', async () => {
    const dir = join(base, 'hosts');
    const adminDir = join(base, 'operator-admin');
    const hosts = ['10.0.0.1', 'node-b.example', '10.0.0.1', '::1'];
    const m = await initTestnet({ dir, validators: 3, observers: 1, hosts, adminDir, chainId: 'hosts-net' });
    assert.equal(m.adminDir, adminDir);
    assert.deepEqual(
      m.peers.map((p) => [p.gatewayUrl, p.p2pAddress]),
      [
        ['http://10.0.0.1:9100', '10.0.0.1:9200'],
        ['http://node-b.example:9100', 'node-b.example:9200'],
        ['http://10.0.0.1:9101', '10.0.0.1:9201'],
        ['http://[::1]:9100', '[::1]:9200'],
      ],
    );
    const c0 = await configOf(m.peers[0]!.dir);
    assert.equal(c0.network.listen, '10.0.0.1:9200');
    assert.equal(c0.gateway.host, '10.0.0.1');
    assert.deepEqual(
      c0.network.peers,
      m.peers.slice(1).map((p) => `${p.peerId}@${p.p2pAddress}`),
    );
    const g = genesisFromJson(
      JSON.parse(await readFile(nodeFiles(m.peers[1]!.dir).genesis, 'utf8')),
      'hosts-net',
    );
    const registered = g.transaction.payload.instructions.flatMap((i) =>
      i.kind === 'RegisterPeer' ? [i.address] : [],
    );
    assert.deepEqual(registered, ['10.0.0.1:9200', 'node-b.example:9200', '10.0.0.1:9201']);
    assert.deepEqual((await readdir(dir)).sort(), ['peer-0', 'peer-1', 'peer-2', 'peer-3', 'testnet.json']);
    assert.deepEqual((await readdir(adminDir)).sort(), [
      'admin.key.json',
      'bridge.key.json',
      'client.json',
      'genesis.json',
    ]);
    await checkKeys(m);
  });

  it('the default local network keeps the admin key in <dir>/admin too', async () => {
    const dir = join(base, 'local');
    const m = await initTestnet({ dir, validators: 2, observers: 1, basePort: 23_000 });
    assert.equal(m.adminDir, join(dir, 'admin'));
    await checkKeys(m);
  });

  it('a manifest file places every peer; listen_host binds while host is advertised', async () => {
    const file = join(base, 'manifest.json');
    const peers = [
      { role: 'observer', host: 'obs.example', gateway_port: 8080, p2p_port: 8081 },
      { role: 'validator', host: '203.0.113.7', listen_host: '0.0.0.0', gateway_port: 80, p2p_port: 7000 },
    ];
    await writeFile(file, JSON.stringify({ peers }));
    const m = await initTestnet({
      dir: join(base, 'manifest'),
      validators: 0,
      plan: await readManifestPlan(file),
    });
    assert.deepEqual(
      m.peers.map((p) => [p.role, p.p2pAddress]),
      [
        ['observer', 'obs.example:8081'],
        ['validator', '203.0.113.7:7000'],
      ],
    );
    const c1 = await configOf(m.peers[1]!.dir);
    assert.equal(c1.network.listen, '0.0.0.0:7000');
    assert.deepEqual(c1.network.peers, [`${m.peers[0]!.peerId}@obs.example:8081`]);
  });

  it('refuses bad hosts, manifests and admin directories before writing anything', async () => {
    const dir = join(base, 'refused');
    const bad: [Parameters<typeof initTestnet>[0], string][] = [
      [{ dir, validators: 2, hosts: ['a.example'] }, 'testnet_invalid_hosts'],
      [{ dir, validators: 1, hosts: ['not a host'] }, 'testnet_invalid_hosts'],
      [{ dir, validators: 1, adminDir: join(dir, 'peer-0') }, 'testnet_invalid_admin_dir'],
      [{ dir, validators: 1, adminDir: join(dir, 'peer-0', 'keys') }, 'testnet_invalid_admin_dir'],
      [{ dir, validators: 1, adminDir: dir }, 'testnet_invalid_admin_dir'],
    ];
    for (const [opts, code] of bad)
      await assert.rejects(initTestnet(opts), (e: unknown) => e instanceof TestnetError && e.code === code);
    const file = join(base, 'bad-manifest.json');
    for (const [json, code] of [
      [{ peers: [] }, 'testnet_invalid_manifest'],
      [{ peers: [{ role: 'boss', host: 'h', gateway_port: 1, p2p_port: 2 }] }, 'testnet_invalid_manifest'],
      [{ peers: [{ role: 'validator', host: 'h', gateway_port: 0, p2p_port: 2 }] }, 'testnet_invalid_port'],
    ] as const) {
      await writeFile(file, JSON.stringify(json));
      await assert.rejects(readManifestPlan(file), { code });
    }
    const same = [
      { role: 'validator', host: 'h', gateway_port: 1, p2p_port: 2 },
      { role: 'validator', host: 'h', gateway_port: 2, p2p_port: 3 },
    ];
    await writeFile(file, JSON.stringify({ peers: same }));
    await assert.rejects(initTestnet({ dir, validators: 0, plan: await readManifestPlan(file) }), {
      code: 'testnet_invalid_port',
    });
    await assert.rejects(readdir(dir), { code: 'ENOENT' });
  });
});
