// `torana init` (and `torana start` on a directory without config.toml) writes a new local chain, but never
// over a node's files already there: a directory holding the network's genesis.json or the keys the
// genesis ceremony made is refused (node_dir_incomplete), its files left as they were.

import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import '../modules/registry.js';
import { initNodeDir, NodeDirIncompleteError } from './init.js';

describe('init of a node directory', () => {
  const dirs: string[] = [];
  const fresh = async () => {
    const d = await mkdtemp(join(tmpdir(), 'torana-init-'));
    dirs.push(d);
    return d;
  };
  after(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it("refuses a directory holding a network's genesis.json, and leaves it as it was", async () => {
    const dir = await fresh();
    const network = '{"chain_id":"acme-net"}\n';
    await writeFile(join(dir, 'genesis.json'), network);
    await assert.rejects(
      initNodeDir({ dir }),
      (e) =>
        e instanceof NodeDirIncompleteError &&
        e.code === 'node_dir_incomplete' &&
        /genesis\.json/.test(e.message),
    );
    assert.equal(await readFile(join(dir, 'genesis.json'), 'utf8'), network);
    assert.deepEqual(await readdir(dir), ['genesis.json']);
  });

  it('refuses a directory holding node keys (genesis entry before adopt), naming them', async () => {
    const dir = await fresh();
    await writeFile(join(dir, 'node.key.json'), '{}');
    await assert.rejects(initNodeDir({ dir }), /node\.key\.json but no config\.toml/);
    assert.equal(await readFile(join(dir, 'node.key.json'), 'utf8'), '{}');
  });

  it('initialises an empty directory, and leaves an initialised one alone', async () => {
    const dir = await fresh();
    assert.equal((await initNodeDir({ dir })).created, true);
    const genesis = await readFile(join(dir, 'genesis.json'), 'utf8');
    assert.equal((await initNodeDir({ dir })).created, false);
    assert.equal(await readFile(join(dir, 'genesis.json'), 'utf8'), genesis);
  });
});
