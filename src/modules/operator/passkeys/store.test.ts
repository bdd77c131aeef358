// The passkey store survives a reopen (what a node restart does): credentials and their newest counters
// are read back from the data folder; a damaged file stops the open instead of dropping passkeys.

import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openPasskeyStore, PASSKEYS_FILE, type PasskeyRecord } from './store.js';

const rec = (id: string, counter: number): PasskeyRecord => ({
  id,
  public_key: 'pQECAyYgASFYIA',
  counter,
  transports: ['internal'],
  label: `key ${id}`,
  created_at_ms: 1,
  last_used_at_ms: null,
});

describe('operator passkey store', () => {
  it('reads back what it wrote (owner-only file), newest counter included', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'passkeys-'));
    try {
      const a = await openPasskeyStore(dir);
      assert.deepEqual(a.list(), []);
      await a.put(rec('one', 0));
      await Promise.all([a.put(rec('two', 0)), a.put({ ...rec('one', 7), last_used_at_ms: 5 })]);
      const b = await openPasskeyStore(dir);
      assert.deepEqual(b.list(), [{ ...rec('one', 7), last_used_at_ms: 5 }, rec('two', 0)]);
      assert.equal((await stat(join(dir, PASSKEYS_FILE))).mode & 0o777, 0o600);
      assert.match(await readFile(join(dir, PASSKEYS_FILE), 'utf8'), /"counter": 7/);
      await writeFile(join(dir, PASSKEYS_FILE), '{"credentials":[{"id":1}]}');
      await assert.rejects(openPasskeyStore(dir), /not a list of operator passkeys/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
