// The node's own codec paths: `Node.start` installs the reader of the usual account id
// (model/account-texts.ts, which the SDK's builds leave out) before it reads a block, and `torana rebuild`,
// which reads the whole chain, before it opens the ledger. Shown by the reader's memo: a stream of new
// account ids shrinks it only when AccountId reads through it.

import '../modules/registry.js';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { decode, encode } from '../codec/frame.js';
import {
  ACCOUNT_MEMO_WINDOW,
  ACCOUNT_TEXT_MEMO_MAX,
  ACCOUNT_TEXT_MEMO_MIN,
  accountTextMemoSlots,
} from '../model/account-texts.js';
import { AccountId, setUsualAccountReader } from '../model/ids.js';
import { initNodeDir } from '../node/init.js';
import { loadNodeConfig } from '../node/load-config.js';
import { Node } from '../node/node.js';
import { rebuild } from './node-actions.js';

const LIMITS = { bytesMax: 1 << 20, itemsMax: 1000, depthMax: 32 };
let next = 4_000_000;

/**
 * Reads 8 windows of account ids (each round trip checked): ids never read before, or the same 24 ids
 * again and again (which grows the memo back to its maximum when the reader is installed).
 */
function readNewIds(recurring = false): void {
  for (let i = 0; i < 8 * ACCOUNT_MEMO_WINDOW; i++, next++) {
    const n = recurring ? i % 24 : next;
    const key = [n, n >> 8, n >> 16, n >> 24]
      .map((b) => (b & 255).toString(16).toUpperCase().padStart(2, '0'))
      .join('');
    const text = `ed0120${key}${'A1'.repeat(28)}@r`;
    const d = decode(AccountId, encode(AccountId, text), LIMITS);
    assert.ok(d.ok && d.value === text);
  }
}

const dirs: string[] = [];
after(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('Node.start', () => {
  it("installs the node's reader of the usual account id", async () => {
    // A file before this one in its process may have installed the reader and shrunk the memo.
    readNewIds(true);
    setUsualAccountReader(undefined);
    readNewIds();
    assert.equal(accountTextMemoSlots(), ACCOUNT_TEXT_MEMO_MAX, 'no reader before the node starts');
    const dir = await mkdtemp(join(tmpdir(), 'torana-node-codec-'));
    dirs.push(dir);
    await initNodeDir({ dir, overrides: { 'gateway.port': 0 } });
    const config = await loadNodeConfig({ dir, overrides: { 'verify.threads': 0 } });
    const node = await Node.start({ dir, config });
    try {
      readNewIds();
      assert.equal(accountTextMemoSlots(), ACCOUNT_TEXT_MEMO_MIN);
    } finally {
      await node.stop();
    }
  });
});

describe('torana rebuild', () => {
  it("installs the node's reader of the usual account id", async () => {
    readNewIds(true);
    setUsualAccountReader(undefined);
    readNewIds();
    assert.equal(accountTextMemoSlots(), ACCOUNT_TEXT_MEMO_MAX, 'no reader before the rebuild');
    const dir = await mkdtemp(join(tmpdir(), 'torana-rebuild-codec-'));
    dirs.push(dir);
    await initNodeDir({ dir, overrides: { 'gateway.port': 0 } });
    const lines: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => lines.push(chunk) > 0) as typeof process.stdout.write;
    try {
      await rebuild({ dir, json: true });
    } finally {
      process.stdout.write = write;
    }
    assert.match(lines.join(''), /"state_root"/);
    readNewIds();
    assert.equal(accountTextMemoSlots(), ACCOUNT_TEXT_MEMO_MIN);
  });
});
