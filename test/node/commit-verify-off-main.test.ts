// The one-transaction commit path keeps Ed25519 verification off the main thread:
// with the default `verify.threads` (1), a transaction posted to /transaction is
// verified by the pool's worker and committed without the main thread verifying any signature.

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { backend } from '#crypto-backend';
import { initNodeDir } from '../../src/node/init.js';
import { loadNodeConfig } from '../../src/node/load-config.js';
import { toHex } from '../../src/util/hex.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { buildTx, frameTx } from '../helpers/tx.js';

describe('the single-transaction commit path', () => {
  let t: ServedTestNode;
  before(async () => {
    // The test helper defaults to inline verification; use the configured default instead.
    t = await startServedNode({ 'verify.threads': await defaultThreads() });
  });
  after(async () => t.stopAll());

  async function defaultThreads(): Promise<number> {
    const dir = await mkdtemp(join(tmpdir(), 'torana-threads-'));
    try {
      await initNodeDir({ dir, overrides: { 'gateway.port': 0 } });
      return (await loadNodeConfig({ dir })).verify.threads;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  it('verifies the signature on a worker, never on the main thread, with the default verify.threads', async () => {
    assert.equal(t.node.config.verify.threads, 1);
    const original = backend.ed25519Verify;
    let onMain = 0;
    backend.ed25519Verify = (...args) => {
      onMain++;
      return original(...args);
    };
    const sentBefore = t.node.verifyPool.stats().batchesSent;
    try {
      const tx = buildTx(t.admin, [{ kind: 'Log', level: { kind: 'Info' }, message: 'off main' }], {
        chainId: t.chainId,
      });
      const committed = new Promise<string>((resolve) => {
        const off = t.node.pipeline.events.subscribe((env) => {
          const e = env.event;
          if (
            e.kind === 'Transaction' &&
            (e.status.kind === 'Committed' || e.status.kind === 'Rejected' || e.status.kind === 'Expired')
          ) {
            off();
            resolve(`${toHex(e.hash)} ${e.status.kind}`);
          }
        });
      });
      const res = await fetch(`${t.url}/transaction`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-codec' },
        body: frameTx(tx),
      });
      assert.equal(res.status, 202);
      const hash = ((await res.json()) as { tx_hash: string }).tx_hash;
      assert.equal(await committed, `${hash} Committed`);
    } finally {
      backend.ed25519Verify = original;
    }
    assert.equal(onMain, 0, 'the main thread verified a signature');
    assert.ok(t.node.verifyPool.stats().batchesSent > sentBefore, 'no batch reached the worker');
  });
});
