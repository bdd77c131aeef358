// The key scan of the hosts test (key-scan.ts): own keys are fine; another machine's private key or
// the admin key is found in any file, as key text, hex, base64 or raw bytes.

import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { saveKeyFile } from '../../src/crypto/keyfile.js';
import { Ed25519KeyPair } from '../../src/crypto/signer.js';
import { ensureNodeKeys } from '../../src/node/genesis-ceremony.js';
import { foreignSecrets, type Secret, secretsIn } from './key-scan.js';

describe('key scan', () => {
  let base = '';
  let secrets: Secret[] = [];
  const dir = (m: string) => join(base, m);

  before(async () => {
    base = await mkdtemp(join(tmpdir(), 'torana-key-scan-'));
    await ensureNodeKeys(dir('a'));
    await ensureNodeKeys(dir('b'));
    await mkdir(dir('admin'));
    await saveKeyFile(join(dir('admin'), 'admin.key.json'), Ed25519KeyPair.generate());
    secrets = [
      ...(await secretsIn('a', dir('a'))),
      ...(await secretsIn('b', dir('b'))),
      ...(await secretsIn('admin', dir('admin'))),
    ];
  });

  after(() => rm(base, { recursive: true, force: true }));

  it('reads every key file of a directory', () => {
    assert.deepEqual(
      secrets.map((s) => `${s.owner}/${s.what}`),
      [
        'a/node.key.json',
        'a/consensus.key.json',
        'b/node.key.json',
        'b/consensus.key.json',
        'admin/admin.key.json',
      ],
    );
  });

  it('finds nothing when each directory holds its own keys', async () => {
    for (const m of ['a', 'b', 'admin']) assert.deepEqual(await foreignSecrets(dir(m), m, secrets), []);
  });

  it('finds a foreign key in any file and any form', async () => {
    const bCons = secrets.find((s) => s.owner === 'b' && s.what === 'consensus.key.json')!;
    const admin = secrets.find((s) => s.owner === 'admin')!;
    await mkdir(join(dir('a'), 'data'), { recursive: true });
    await writeFile(join(dir('a'), 'config.toml'), `# ${Buffer.from(bCons.bytes).toString('hex')}\n`);
    await writeFile(join(dir('a'), 'data', 'blob'), Buffer.concat([Buffer.from([1, 2]), admin.bytes]));
    await writeFile(join(dir('a'), 'copy.json'), await readFile(join(dir('admin'), 'admin.key.json')));
    await writeFile(join(dir('a'), 'note'), Buffer.from(bCons.bytes).toString('base64'));
    const leaks = await foreignSecrets(dir('a'), 'a', secrets);
    assert.deepEqual(leaks.map((l) => `${l.file} ${l.owner}/${l.what} ${l.form}`).sort(), [
      'config.toml b/consensus.key.json hex',
      'copy.json admin/admin.key.json text',
      'data/blob admin/admin.key.json raw',
      'note b/consensus.key.json base64',
    ]);
    // The leaks are a's alone: b's directory is still clean.
    assert.deepEqual(await foreignSecrets(dir('b'), 'b', secrets), []);
  });
});
