// SDK streams survive dropped connections without losing anything (README.md "SDK"):
// events over SSE resume with Last-Event-ID; the block stream resumes from the next height.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ToranaClient } from '../../src/sdk/client.js';
import { instructions as ix } from '../../src/sdk/instructions.js';
import { toHex } from '../../src/util/hex.js';
import { type CutProxy, startCutProxy } from '../helpers/cut-proxy.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

describe('SDK stream resumption', () => {
  let t: ServedTestNode;
  let proxy: CutProxy;
  let direct: ToranaClient;
  before(async () => {
    t = await startServedNode();
    proxy = await startCutProxy(t.url);
    direct = new ToranaClient({ url: t.url, account: t.admin.id, signer: t.admin.key });
  });
  after(async () => {
    await proxy.close();
    await t.stopAll();
  });

  it('events: a cut connection is resumed with Last-Event-ID and no committed transaction is missed', async () => {
    const viaProxy = new ToranaClient({ url: proxy.url });
    const abort = new AbortController();
    const seenIds: number[] = [];
    const committed = new Set<string>();
    const total = 30;
    const reader = (async () => {
      for await (const { id, event } of viaProxy.events({
        filter: { eq: ['tx_status', 'Committed'] },
        signal: abort.signal,
      })) {
        seenIds.push(id);
        if (event.kind === 'Transaction') committed.add(toHex(event.hash));
        if (committed.size >= total) break;
      }
    })();
    // Submitting starts once the reader's stream is open at the node.
    for (const deadline = Date.now() + 30_000; t.served.app.gateway.streams.count('sse') === 0; ) {
      assert.ok(Date.now() < deadline, 'the reader opened its event stream');
      await new Promise((r) => setTimeout(r, 20));
    }
    const hashes: string[] = [];
    let cuts = 0;
    for (let i = 0; i < total; i++) {
      const tx = await direct.build([ix.log(`event ${i}`)], { nonce: i });
      hashes.push(tx.hash);
      await direct.submit(tx);
      if (i % 10 === 5) {
        await new Promise((r) => setTimeout(r, 100));
        cuts += proxy.cutAll();
      }
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      reader,
      new Promise((_, rej) => {
        timer = setTimeout(() => rej(new Error(`saw ${committed.size} of ${total}`)), 20_000);
      }),
    ]).finally(() => clearTimeout(timer));
    abort.abort();
    assert.ok(cuts > 0, 'the connection was really cut');
    for (const h of hashes) assert.ok(committed.has(h), `missed ${h}`);
    assert.equal(new Set(seenIds).size, seenIds.length, 'no event delivered twice');
    assert.deepEqual(
      seenIds,
      [...seenIds].sort((a, b) => a - b),
      'in id order',
    );
  });

  it('blocks: a cut block stream continues from the next height without a gap', async () => {
    for (let i = 0; i < 5; i++)
      await direct.submitAndWait(await direct.build([ix.log(`block ${i}`)], { nonce: 100 + i }));
    const viaProxy = new ToranaClient({ url: proxy.url });
    const abort = new AbortController();
    const heights: number[] = [];
    const top = t.node.ledger.height();
    for await (const block of viaProxy.blocks({ from: 1, signal: abort.signal })) {
      heights.push(block.header.height);
      if (heights.length === 3) proxy.cutAll();
      if (block.header.height >= top) break;
    }
    abort.abort();
    assert.deepEqual(
      heights,
      Array.from({ length: top }, (_, i) => i + 1),
    );
  });
});
