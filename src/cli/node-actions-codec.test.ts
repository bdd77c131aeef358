// `torana rebuild` reads the whole chain: it installs the node's reader of the usual account id
// (model/account-texts.ts) before it opens the ledger, as Node.start does. Shown by the reader's memo: a
// stream of new account ids shrinks it only when AccountId reads through it.

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
import { rebuild } from './node-actions.js';

const LIMITS = { bytesMax: 1 << 20, itemsMax: 1000, depthMax: 32 };
let next = 4_000_000;

/** Reads 8 windows of account ids never read before (each round trip checked). */
function readNewIds(): void {
  for (let i = 0; i < 8 * ACCOUNT_MEMO_WINDOW; i++, next++) {
    const key = [next, next >> 8, next >> 16, next >> 24]
      .map((b) => (b & 255).toString(16).toUpperCase().padStart(2, '0'))
      .join('');
    const text = `ed0120${key}${'A1'.repeat(28)}@r`;
    const d = decode(AccountId, encode(AccountId, text), LIMITS);
    assert.ok(d.ok && d.value === text);
  }
}

describe('torana rebuild', () => {
  let dir: string | undefined;
  after(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it("installs the node's reader of the usual account id", async () => {
    setUsualAccountReader(undefined);
    readNewIds();
    assert.equal(accountTextMemoSlots(), ACCOUNT_TEXT_MEMO_MAX, 'no reader before the rebuild');
    dir = await mkdtemp(join(tmpdir(), 'torana-rebuild-codec-'));
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
