// The testnet writer (testnet.ts) without the CLI: sizes and ports refused before anything is written,
// a genesis whose validators carry verifying proofs of possession, peer lists that name every other peer.

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ValidatorSet } from '../consensus/validator-set.js';
import { blsVerifyPossession } from '../crypto/bls.js';
import { parsePublicKey } from '../model/keys.js';
import { genesisFromJson, genesisToJson } from './genesis.js';
import { initTestnet, peerEntriesFor } from './testnet.js';
import { loadTestnet, TestnetError } from './testnet-manifest.js';

describe('initTestnet', () => {
  let base = '';
  before(async () => {
    base = await mkdtemp(join(tmpdir(), 'torana-testnet-unit-'));
  });
  after(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('refuses bad sizes and ports before writing anything', async () => {
    const dir = join(base, 'bad');
    const cases: [Parameters<typeof initTestnet>[0], string][] = [
      [{ dir, validators: 0 }, 'testnet_invalid_size'],
      [{ dir, validators: 1.5 }, 'testnet_invalid_size'],
      [{ dir, validators: 2, observers: -1 }, 'testnet_invalid_size'],
      [{ dir, validators: 30, observers: 3 }, 'testnet_invalid_size'],
      [{ dir, validators: 4, basePort: 65_500 }, 'testnet_invalid_port'],
      [{ dir, validators: 1, overrides: { 'gateway.prot': 1 } }, 'testnet_invalid_config'],
    ];
    for (const [opts, code] of cases) {
      await assert.rejects(initTestnet(opts), (e: unknown) => e instanceof TestnetError && e.code === code);
    }
    await assert.rejects(readdir(dir), { code: 'ENOENT' });
  });

  it('writes validators with proofs of possession and peer lists of every other peer', async () => {
    const dir = join(base, 'net');
    const m = await initTestnet({ dir, validators: 3, observers: 1, basePort: 20_000, chainId: 'unit-net' });
    assert.deepEqual(await loadTestnet(dir), m);
    assert.deepEqual(
      m.peers.map((p) => [p.role, p.gatewayUrl, p.p2pAddress]),
      [0, 1, 2, 3].map((i) => [
        i < 3 ? 'validator' : 'observer',
        `http://127.0.0.1:${20_000 + i}`,
        `127.0.0.1:${20_100 + i}`,
      ]),
    );
    const json = JSON.parse(await readFile(join(dir, 'peer-1', 'genesis.json'), 'utf8'));
    const g = genesisFromJson(json, 'unit-net');
    assert.equal(g.validators.length, 3);
    for (const v of g.validators) {
      assert.ok(blsVerifyPossession(parsePublicKey(v.blsKey)!.bytes, v.pop), `pop of ${v.peer}`);
    }
    assert.deepEqual(genesisToJson(g), json, 'pop survives a round trip');
    const registered = g.transaction.payload.instructions.filter((i) => i.kind === 'RegisterPeer');
    assert.deepEqual(
      registered.map((i) => i.kind === 'RegisterPeer' && i.peer),
      m.peers.slice(0, 3).map((p) => p.peerId),
    );
    assert.deepEqual(
      peerEntriesFor(m, 2),
      [0, 1, 3].map((j) => `${m.peers[j]!.peerId}@127.0.0.1:${20_100 + j}`),
    );
    await assert.rejects(initTestnet({ dir, validators: 1 }), { code: 'testnet_dir_not_empty' });
  });

  it('numbers validators in roster order, so a leader_index is the testnet peer of that number', async () => {
    // Six runs of 4 fresh keys: generation order matches the sorted order 1 time in 24.
    for (let run = 0; run < 6; run++) {
      const dir = join(base, `order-${run}`);
      const m = await initTestnet({ dir, validators: 4, observers: 1, chainId: 'unit-net' });
      const json = JSON.parse(await readFile(join(dir, 'peer-0', 'genesis.json'), 'utf8'));
      const g = genesisFromJson(json, 'unit-net');
      const roster = new ValidatorSet(g.validators.map((v) => ({ peer: v.peer, blsKey: v.blsKey })));
      assert.deepEqual(
        roster.validators.map((v) => v.peer),
        m.peers.slice(0, 4).map((p) => p.peerId),
      );
    }
  });

  it('accepts an existing empty directory; testnet.json is snake_case and checked when read', async () => {
    const dir = join(base, 'empty');
    await mkdir(dir);
    const m = await initTestnet({ dir, validators: 2, basePort: 22_000 });
    const file = join(dir, 'testnet.json');
    const json = JSON.parse(await readFile(file, 'utf8'));
    assert.deepEqual(Object.keys(json.peers[1]), [
      'index',
      'role',
      'dir',
      'gateway_url',
      'p2p_address',
      'peer_id',
    ]);
    assert.equal(json.peers[1].peer_id, m.peers[1]!.peerId);
    for (const bad of [
      { ...json, chain_id: 1 },
      { ...json, peers: [] },
      { ...json, peers: [json.peers[1]] },
    ]) {
      await writeFile(file, JSON.stringify(bad));
      await assert.rejects(loadTestnet(dir), { code: 'testnet_not_found' });
    }
    await assert.rejects(loadTestnet(join(base, 'nowhere')), { code: 'testnet_not_found' });
  });

  it('genesis rejects a malformed or missing pop', async () => {
    const dir = join(base, 'pop');
    await initTestnet({ dir, validators: 1, basePort: 21_000, chainId: 'pop-net' });
    const json = JSON.parse(await readFile(join(dir, 'peer-0', 'genesis.json'), 'utf8'));
    json.validators[0].pop = 'abcd';
    assert.throws(() => genesisFromJson(json, 'pop-net'), /validators\[0\]\.pop/);
    json.validators[0].pop = 7;
    assert.throws(() => genesisFromJson(json, 'pop-net'), /validators\[0\]\.pop/);
    delete json.validators[0].pop;
    assert.throws(() => genesisFromJson(json, 'pop-net'), /validators\[0\]\.pop/);
    json.validators[0].pop = '00'.repeat(96);
    json.validators[0].other = 'x';
    assert.throws(() => genesisFromJson(json, 'pop-net'), /no such field/);
  });
});
