import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isCryptoError } from './errors.js';
import { KEY_FILE_BYTES_MAX, loadKeyFile, saveKeyFile } from './keyfile.js';
import { Ed25519KeyPair } from './signer.js';

describe('keyfile', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'torana-keyfile-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('saves JSON text forms with mode 0600, leaves no temporary file, and loads the same key', async () => {
    const path = join(dir, 'node.key.json');
    const kp = Ed25519KeyPair.generate();
    await saveKeyFile(path, kp);
    const doc = JSON.parse(await readFile(path, 'utf8'));
    assert.deepEqual(doc, { public_key: kp.publicKeyText(), private_key: kp.privateKeyText() });
    assert.equal((await stat(path)).mode & 0o777, 0o600);
    assert.deepEqual(await readdir(dir), ['node.key.json']);
    const loaded = await loadKeyFile(path);
    assert.deepEqual(loaded.publicKey, kp.publicKey);
    const m = new Uint8Array([1, 2, 3]);
    assert.deepEqual(loaded.sign(m), kp.sign(m));
  });

  it('replaces an existing file atomically', async () => {
    const path = join(dir, 'replace.json');
    await saveKeyFile(path, Ed25519KeyPair.generate());
    const second = Ed25519KeyPair.generate();
    await saveKeyFile(path, second);
    assert.equal((await loadKeyFile(path)).publicKeyText(), second.publicKeyText());
  });

  async function expectInvalid(name: string, content: string, why: RegExp): Promise<void> {
    const path = join(dir, name);
    await writeFile(path, content);
    await assert.rejects(loadKeyFile(path), (e) => {
      assert.ok(isCryptoError(e));
      assert.equal(e.code, 'key_file_invalid');
      assert.ok(e.message.includes(path), 'names the file');
      assert.match(e.message, why);
      return true;
    });
  }

  it('refuses bad content with a clear error naming the file and not echoing secrets', async () => {
    const kp = Ed25519KeyPair.generate();
    const other = Ed25519KeyPair.generate();
    const good = { public_key: kp.publicKeyText(), private_key: kp.privateKeyText() };
    await expectInvalid('a.json', '{not json', /not valid JSON/);
    await expectInvalid('b.json', '[]', /JSON object/);
    await expectInvalid('c.json', JSON.stringify({ ...good, extra: 1 }), /unknown field/);
    await expectInvalid('d.json', JSON.stringify({ public_key: good.public_key }), /private_key/);
    await expectInvalid('e.json', JSON.stringify({ ...good, public_key: 'ed0120XX' }), /public_key/);
    await expectInvalid(
      'f.json',
      JSON.stringify({ ...good, public_key: other.publicKeyText() }),
      /does not match/,
    );
    await expectInvalid(
      'g.json',
      JSON.stringify({ ...good, private_key: `${good.private_key.slice(0, -1)}Z` }),
      /private_key/,
    );
    await expectInvalid('h.json', ' '.repeat(KEY_FILE_BYTES_MAX + 1), /larger than/);
    const broken = `${good.private_key.slice(0, -1)}Z`;
    await writeFile(join(dir, 'i.json'), JSON.stringify({ ...good, private_key: broken }));
    await assert.rejects(
      loadKeyFile(join(dir, 'i.json')),
      (e) => !(e as Error).message.includes(broken.slice(6, 30)),
    );
  });

  it('reports a missing file or directory as an I/O error naming the path', async () => {
    const missing = join(dir, 'missing.json');
    await assert.rejects(loadKeyFile(missing), (e) => isCryptoError(e) && e.code === 'key_file_unreadable');
    const noDir = join(dir, 'no-such-dir', 'k.json');
    await assert.rejects(
      saveKeyFile(noDir, Ed25519KeyPair.generate()),
      (e) => isCryptoError(e) && e.code === 'key_file_unwritable' && e.message.includes(noDir),
    );
  });
});
