// The node's own codec paths: `Node.start` installs the reader of the usual account id
// (model/account-texts.ts, which the SDK's builds leave out) before it reads a block. Shown by the reader's
// memo: a stream of new account ids shrinks it only when AccountId reads through it.

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
import { initNodeDir } from './init.js';
import { loadNodeConfig } from './load-config.js';
import { Node } from './node.js';

const LIMITS = { bytesMax: 1 << 20, itemsMax: 1000, depthMax: 32 };
let next = 3_000_000;

/** Reads 8 windows of account ids never read before (each round trip checked). */
function readNewIds(): void {
  for (let i = 0; i < 8 * ACCOUNT_MEMO_WINDOW; i++, next++) {
    const key = [next, next >> 8, next >> 16, next >> 24]
      .map((b) => (b & 255).toString(16).toUpperCase().padStart(2, '0'))
      .join('');
    const text = `ed0120${key}${'EF'.repeat(28)}@n`;
    const d = decode(AccountId, encode(AccountId, text), LIMITS);
    assert.ok(d.ok && d.value === text);
  }
}

describe('Node.start', () => {
  let dir: string | undefined;
  after(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it("installs the node's reader of the usual account id", async () => {
    setUsualAccountReader(undefined);
    readNewIds();
    assert.equal(accountTextMemoSlots(), ACCOUNT_TEXT_MEMO_MAX, 'no reader before the node starts');
    dir = await mkdtemp(join(tmpdir(), 'torana-node-codec-'));
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
