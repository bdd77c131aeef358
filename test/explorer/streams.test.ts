// Explorer streams: new blocks, transactions and instructions
// arrive in order as list items with ids `height`, `height:tx_index`, `height:tx_index:instruction_index`;
// a client that disconnects while blocks are committed resumes with Last-Event-ID without gaps.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { numeric } from '../../src/model/numeric.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { run } from '../helpers/node.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { openRaw } from './sse-reader.js';

const meta = () => new Map<string, string>();

describe('explorer streams (real socket)', () => {
  let t: ServedTestNode;
  let n = 0;
  /** One committed transaction of the admin with two instructions (a domain, then a log line). */
  const commit = async () => {
    n++;
    const r = await run(t, t.admin, [
      { kind: 'RegisterDomain', id: `d${n}`, metadata: meta() },
      { kind: 'MintAsset', asset: `gas#system#${t.admin.id}`, amount: numeric('1') },
    ]);
    assert.equal(r.status.kind, 'Committed', JSON.stringify(r.status));
    return { hash: r.hash, height: r.height! };
  };
  const url = (path: string) => `${t.url}/v1/explorer/${path}`;

  before(async () => {
    // A small subscriber buffer bounds a replay (the `gone` case below); live bursts here are tiny.
    t = await startServedNode({
      'telemetry.profile': 'operator',
      'streams.subscriber_buffer_events_max': 16,
    });
  });
  after(async () => {
    await t?.stopAll();
  });

  it('delivers each new block, transaction and instruction in order, as the list items', async () => {
    const blocks = await openRaw(url('blocks/stream'));
    const txs = await openRaw(url('transactions/stream'));
    const ins = await openRaw(url('instructions/stream'));
    const mints = await openRaw(url('instructions/stream?kind=MintAsset'));
    try {
      const done = [await commit(), await commit(), await commit()];
      await blocks.until(3);
      await txs.until(3);
      await ins.until(6);
      await mints.until(3);
      assert.deepEqual(
        blocks.messages.map((m) => [m.id, m.event, m.data.height]),
        done.map((d) => [`${d.height}`, 'block', d.height]),
      );
      assert.deepEqual(
        txs.messages.map((m) => [m.id, m.data.hash]),
        done.map((d) => [`${d.height}:0`, d.hash]),
      );
      assert.deepEqual(
        ins.messages.map((m) => [m.id, m.data.kind]),
        done.flatMap((d) => [
          [`${d.height}:0:0`, 'RegisterDomain'],
          [`${d.height}:0:1`, 'MintAsset'],
        ]),
      );
      assert.deepEqual(
        mints.messages.map((m) => m.id),
        done.map((d) => `${d.height}:0:1`),
      );
      const listed = (await (await fetch(url(`transactions?block=${done[0]!.height}`))).json()) as {
        items: unknown[];
      };
      assert.deepEqual(txs.messages[0]!.data, listed.items[0]);
      const block = (await (await fetch(url('blocks?per_page=3'))).json()) as { items: unknown[] };
      assert.deepEqual(blocks.messages[2]!.data, block.items[0]);
    } finally {
      for (const s of [blocks, txs, ins, mints]) s.close();
    }
  });

  it('resumes after a disconnect with Last-Event-ID: the missed items, then live, none twice', async () => {
    const first = await openRaw(url('transactions/stream'));
    const seen = await commit();
    await first.until(1);
    first.close();
    const missed = [await commit(), await commit()];
    const again = await openRaw(url('transactions/stream'), { 'last-event-id': first.messages[0]!.id });
    const ins = await openRaw(url(`instructions/stream?last_event_id=${seen.height}:0:0`));
    try {
      await again.until(2);
      const live = await commit();
      await again.until(3);
      assert.deepEqual(
        again.messages.map((m) => m.data.hash),
        [...missed, live].map((d) => d.hash),
      );
      await ins.until(7);
      assert.deepEqual(
        ins.messages.map((m) => m.id),
        [`${seen.height}:0:1`, ...[...missed, live].flatMap((d) => [`${d.height}:0:0`, `${d.height}:0:1`])],
      );
    } finally {
      again.close();
      ins.close();
    }
  });

  it('replays blocks committed while away, and refuses a malformed Last-Event-ID', async () => {
    const tip = t.node.ledger.height();
    const blocks = await openRaw(url('blocks/stream'), { 'last-event-id': String(tip - 2) });
    try {
      await blocks.until(2);
      assert.deepEqual(
        blocks.messages.map((m) => m.id),
        [`${tip - 1}`, `${tip}`],
      );
    } finally {
      blocks.close();
    }
    const bad = await openRaw(url('transactions/stream'), { 'last-event-id': '12' });
    assert.equal(bad.status, 400);
    assert.equal(bad.error.code, 'invalid_last_event_id');
    const badFilter = await openRaw(url('instructions/stream?kind=Teleport'));
    assert.equal(badFilter.status, 400);
    assert.equal(badFilter.error.code, 'bad_request');
  });

  it('answers `event: gone` when a replay would exceed the subscriber buffer', async () => {
    while (t.node.ledger.height() < 18) await commit();
    const far = await openRaw(url('blocks/stream'), { 'last-event-id': '1' });
    try {
      await far.until(1);
      assert.deepEqual(
        far.messages.map((m) => m.event),
        ['gone'],
      );
    } finally {
      far.close();
    }
    const near = await openRaw(url('blocks/stream'), {
      'last-event-id': String(t.node.ledger.height() - 16),
    });
    try {
      await near.until(16);
      assert.ok(near.messages.every((m) => m.event === 'block'));
    } finally {
      near.close();
    }
  });

  it('streams through the SDK, resuming from a given id', async () => {
    const from = await commit();
    const next = [await commit(), await commit()];
    const ctl = new AbortController();
    const x = new ToranaClient({ url: t.url }).explorer;
    const got: string[] = [];
    for await (const item of x.stream('instructions', {
      since: `${from.height}:0:1`,
      kind: 'MintAsset',
      signal: ctl.signal,
    })) {
      got.push(item.id);
      assert.equal(item.data.kind, 'MintAsset');
      if (got.length === 2) break;
    }
    ctl.abort();
    assert.deepEqual(
      got,
      next.map((d) => `${d.height}:0:1`),
    );
  });

  it('answers 503 for the metrics without the metrics capability', async () => {
    const r = await fetch(url('metrics'));
    assert.equal(r.status, 503);
    assert.equal(((await r.json()) as { code: string }).code, 'telemetry_profile_restricted');
  });
});
