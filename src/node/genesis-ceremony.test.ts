// The genesis ceremony without the CLI: an entry holds public material only and is checked (node-key
// signature over every field, proof of possession); collect refuses duplicates and entries of another
// chain and writes a genesis every node loads; verify checks the hash and the content; adopt installs
// the genesis with a configuration naming the other validators.

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { nodeFiles } from './files.js';
import { genesisFromJson } from './genesis.js';
import {
  adoptGenesis,
  collectGenesis,
  genesisHash,
  makeEntry,
  registeredAddresses,
  verifyGenesisFile,
} from './genesis-ceremony.js';
import { entryFromJson, entryToJson, type GenesisEntry } from './genesis-entry.js';
import { loadNodeConfig } from './load-config.js';

const CHAIN = 'ceremony-net';

async function privateKeys(dir: string): Promise<string[]> {
  const f = nodeFiles(dir);
  return Promise.all(
    [f.nodeKey, f.consensusKey].map(
      async (p) => (JSON.parse(await readFile(p, 'utf8')) as { private_key: string }).private_key,
    ),
  );
}

describe('genesis ceremony', () => {
  let base = '';
  const entries: GenesisEntry[] = [];
  const dirs: string[] = [];
  before(async () => {
    base = await mkdtemp(join(tmpdir(), 'torana-ceremony-'));
    for (let i = 0; i < 4; i++) {
      dirs.push(join(base, `op-${i}`));
      entries.push(await makeEntry(dirs[i]!, CHAIN, `node${i}.example:9200`));
    }
  });
  after(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('an entry holds public material only, and its keys stay where they were made', async () => {
    const json = entryToJson(entries[0]!);
    assert.deepEqual(Object.keys(json).sort(), [
      'address',
      'bls_key',
      'chain_id',
      'format',
      'peer',
      'pop',
      'signature',
    ]);
    const text = JSON.stringify(json);
    for (const k of await privateKeys(dirs[0]!)) assert.ok(!text.includes(k), 'a private key in the entry');
    assert.deepEqual((await readdir(dirs[0]!)).sort(), ['consensus.key.json', 'node.key.json']);
    const again = await makeEntry(dirs[0]!, CHAIN, 'node0.example:9200');
    assert.equal(again.validator.peer, entries[0]!.validator.peer, 'existing keys are reused');
    assert.deepEqual(entryFromJson(JSON.parse(text)), entries[0]);
  });

  it('an entry is refused when any field was changed or it is signed by another key', () => {
    const json = entryToJson(entries[0]!);
    const other = entryToJson(entries[1]!);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...json, address: 'evil.example:9200' }, /signature does not verify/],
      [{ ...json, chain_id: 'other' }, /signature does not verify/],
      [{ ...json, bls_key: other.bls_key, pop: other.pop }, /signature does not verify/],
      [{ ...json, pop: other.pop }, /proof of possession/],
      [{ ...json, signature: other.signature }, /signature does not verify/],
      [{ ...json, address: 'no port' }, /host:port/],
      [{ ...json, private_key: 'x' }, /unknown field/],
      [{ ...json, format: 'v0' }, /format/],
    ];
    for (const [bad, why] of cases)
      assert.throws(
        () => entryFromJson(bad),
        (e: Error & { code?: string }) => {
          assert.equal(e.code, 'genesis_entry_invalid');
          assert.match(e.message, why);
          return true;
        },
      );
  });

  it('collect refuses duplicates and another chain; the genesis registers every entry', async () => {
    const adminDir = join(base, 'admin');
    const collect = (list: GenesisEntry[], chainId = CHAIN) =>
      collectGenesis({ chainId, entries: list, adminDir, nowMs: 1_700_000_000_000 });
    const [a, b] = entries as [GenesisEntry, GenesisEntry];
    await assert.rejects(collect([a, b, a]), { code: 'genesis_entry_duplicate' });
    await assert.rejects(collect([a, { ...b, address: a.address }]), { code: 'genesis_entry_duplicate' });
    await assert.rejects(collect([a, { ...b, validator: { ...b.validator, blsKey: a.validator.blsKey } }]), {
      code: 'genesis_entry_duplicate',
    });
    await assert.rejects(collect([a], 'other-chain'), { code: 'genesis_entry_invalid' });
    await assert.rejects(
      collectGenesis({ chainId: CHAIN, entries: [a], adminDir, params: { 'block.max_txs': 1 }, nowMs: 1 }),
      { code: 'genesis_invalid' },
    );
    const r = await collectGenesis({
      chainId: CHAIN,
      entries,
      adminDir,
      params: { 'block.max_transactions': 77 },
      nowMs: 1_700_000_000_000,
    });
    const g = genesisFromJson(JSON.parse(r.text), CHAIN);
    assert.deepEqual(
      [...registeredAddresses(g)],
      entries.map((e) => [e.validator.peer, e.address]),
    );
    const max = g.transaction.payload.instructions.find(
      (i) => i.kind === 'SetParameter' && i.parameter.kind === 'BlockMaxTransactions',
    );
    assert.deepEqual(max?.kind === 'SetParameter' && max.parameter, {
      kind: 'BlockMaxTransactions',
      value: 77,
    });
    assert.equal(r.hash, genesisHash(r.text));
    const admin = JSON.parse(await readFile(nodeFiles(adminDir).adminKey, 'utf8')).private_key;
    assert.ok(!r.text.includes(admin), 'the genesis names the admin by its public key only');
    await writeFile(join(base, 'genesis.json'), r.text);
  });

  it('verify checks the hash and the content; adopt installs it with the other validators as peers', async () => {
    const path = join(base, 'genesis.json');
    const text = await readFile(path, 'utf8');
    const hash = genesisHash(text);
    assert.equal((await verifyGenesisFile(path, hash.toUpperCase())).genesis.validators.length, 4);
    await assert.rejects(verifyGenesisFile(path, genesisHash('other')), { code: 'genesis_hash_mismatch' });
    // A changed file announced with its own hash: the admin signature no longer verifies.
    const forged = join(base, 'forged.json');
    const forgedText = text.replace('node1.example:9200', 'evil.example:9200');
    await writeFile(forged, forgedText);
    await assert.rejects(verifyGenesisFile(forged, genesisHash(forgedText)), { code: 'genesis_invalid' });

    const r = await adoptGenesis({ dir: dirs[1]!, path, hash });
    assert.equal(r.role, 'validator');
    assert.equal(await readFile(nodeFiles(dirs[1]!).genesis, 'utf8'), text);
    const config = await loadNodeConfig({ dir: dirs[1]! });
    assert.equal(config.node.chainId, CHAIN);
    assert.equal(config.network.listen, 'node1.example:9200');
    assert.deepEqual(
      config.network.peers,
      [0, 2, 3].map((i) => `${entries[i]!.validator.peer}@node${i}.example:9200`),
    );
    const observer = await adoptGenesis({ dir: join(base, 'observer'), path, hash });
    assert.equal(observer.role, 'observer');
    assert.equal((await loadNodeConfig({ dir: join(base, 'observer') })).network.role, 'observer');

    await mkdir(join(dirs[2]!, 'data'), { recursive: true });
    await writeFile(join(dirs[2]!, 'data', 'blocks'), 'x');
    await assert.rejects(adoptGenesis({ dir: dirs[2]!, path, hash }), { code: 'genesis_node_has_chain' });
    await writeFile(nodeFiles(dirs[3]!).config, 'node.chain_id = "another"\n'.replace('node.', '[node]\n'));
    await assert.rejects(adoptGenesis({ dir: dirs[3]!, path, hash }), { code: 'genesis_chain_mismatch' });
  });
});
