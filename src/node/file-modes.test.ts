// Under `umask 000` the node directory used to be 0777 and block and state files 0644, so any
// local user could read (or, for the directory, replace) keys, blocks and state. Everything the node
// creates must be 0700 (directories) or 0600 (files) whatever the umask.

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EvidenceStore } from '../consensus/evidence-store.js';
import { BlockLog } from '../storage/block-log.js';
import { StateStore } from '../storage/state-store.js';
import { initNodeDir } from './init.js';
import { writeSafety } from './safety-file.js';

async function modes(root: string): Promise<[string, number, boolean][]> {
  const out: [string, number, boolean][] = [];
  const s = await stat(root);
  out.push([root, s.mode & 0o777, s.isDirectory()]);
  if (s.isDirectory()) for (const name of await readdir(root)) out.push(...(await modes(join(root, name))));
  return out;
}

describe('file modes under umask 000', () => {
  let base = '';
  let umask = 0;
  before(async () => {
    base = await mkdtemp(join(tmpdir(), 'torana-modes-'));
    umask = process.umask(0);
  });
  after(async () => {
    process.umask(umask);
    await rm(base, { recursive: true, force: true });
  });

  it('the node directory, keys, config, blocks and state are 0700 / 0600', async () => {
    const dir = join(base, 'node', 'dir');
    await initNodeDir({ dir, overrides: { 'gateway.port': 0 } });
    const data = join(dir, 'data');
    const { log } = await BlockLog.open(data);
    await log.close();
    const store = await StateStore.open(data);
    await store.close();
    const evidence = await EvidenceStore.open(join(data, 'evidence.log'));
    await evidence.close();
    await writeSafety(join(data, 'consensus-safety.bin'), Uint8Array.of(1));
    const seen = await modes(join(base, 'node'));
    const bad = seen.filter(([, mode, isDir]) => mode !== (isDir ? 0o700 : 0o600));
    assert.ok(
      seen.some(([p]) => p.endsWith('.mdb')),
      'the LMDB files are checked',
    );
    assert.ok(
      seen.some(([p]) => p.includes('blocks') && !p.endsWith('blocks')),
      'a block segment is checked',
    );
    assert.ok(
      seen.some(([p]) => p.endsWith('evidence.log')) && seen.some(([p]) => p.endsWith('safety.bin')),
      'the evidence and safety files are checked',
    );
    assert.ok(
      seen.some(([p]) => p.endsWith('.key.json')),
      'the key files are checked',
    );
    assert.deepEqual(
      bad.map(([p, m]) => `${p.slice(base.length)} ${m.toString(8)}`),
      [],
      'every entry is private',
    );
  });
});
