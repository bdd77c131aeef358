// The telemetry family through real sockets (docs/telemetry.md): peers-info lists this
// node with its real configuration, propagation reports only what this node observed (its own commit
// time against the header's creation time, no invented peer reports), live streams snapshots with growing
// ids and resumes after Last-Event-ID, and the profile gates live only. The peers of a real network:
// test/network/telemetry.test.ts.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { blockHash } from '../../src/model/block.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { telemetryLive, telemetryPeersInfo, telemetryPropagation } from '../../src/sdk/index.js';
import { toHex } from '../../src/util/hex.js';
import { runCli as cli } from '../helpers/cli-in-process.js';
import { readSse } from '../helpers/network-observe.js';
import { run } from '../helpers/node.js';
import { fetchOpenApi } from '../helpers/route-catalog.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { timingBound } from '../helpers/timing-bound.js';

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON answers, checked field by field.
async function getJson(base: string, path: string, headers: Record<string, string> = {}): Promise<any> {
  const res = await fetch(`${base}${path}`, { headers: { accept: 'application/json', ...headers } });
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, ...body };
}

async function until<T>(f: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('telemetry routes', () => {
  let full: ServedTestNode;
  let operator: ServedTestNode;
  before(async () => {
    [full, operator] = await Promise.all([
      startServedNode({ 'telemetry.profile': 'full', 'telemetry.live_interval_ms': 150 }),
      startServedNode({ 'telemetry.profile': 'operator' }),
    ]);
  });
  after(async () => Promise.all([full?.stopAll(), operator?.stopAll()]));

  it('peers-info: this node first, with its URL and configuration; a lone node has no peers', async () => {
    const a = await getJson(full.url, '/v1/telemetry/peers-info');
    assert.equal(a.status, 200);
    assert.equal(a.total, 1);
    assert.deepEqual(a.items, [
      {
        peer_id: full.node.nodeKey.publicKeyText(),
        self: true,
        url: full.url,
        role: 'validator',
        connected: true,
        config: { chain_id: 'torana-test', role: 'validator', consensus: 'single-peer' },
        connected_peers: 0,
      },
    ]);
    const page = await getJson(full.url, '/v1/telemetry/peers-info?limit=0');
    assert.deepEqual([page.status, page.code], [400, 'invalid_pagination']);
    // Not profile-gated (docs/configuration.md "Telemetry profiles").
    assert.equal((await getJson(operator.url, '/v1/telemetry/peers-info')).status, 200);
  });

  it('propagation: the block at start has no commit time of this run; a new block has this node’s', async () => {
    const start = await getJson(operator.url, '/v1/telemetry/propagation');
    const tip = operator.node.ledger.height();
    const header = (await operator.node.ledger.block(tip))!.header;
    assert.deepEqual(start, {
      status: 200,
      block: tip,
      hash: toHex(blockHash(header)),
      first_seen_at_ms: header.creationTimeMs,
      peers_reported: 0,
      reports: [],
    });

    const before = Date.now();
    const r = await run(operator, operator.admin, [
      { kind: 'RegisterDomain', id: 'telemetry', metadata: new Map() },
    ]);
    const after = Date.now();
    const p = await getJson(operator.url, '/v1/telemetry/propagation');
    const created = (await operator.node.ledger.block(r.height!))!.header.creationTimeMs;
    assert.equal(p.block, r.height);
    assert.equal(p.first_seen_at_ms, created);
    assert.ok(p.last_seen_at_ms >= before && p.last_seen_at_ms <= after, 'this node’s commit time');
    assert.equal(p.spread_ms, p.last_seen_at_ms - p.first_seen_at_ms);
    assert.ok(p.spread_ms >= 0);
    timingBound({ what: 'propagation spread of a one-node commit', value: p.spread_ms, max: 5_000 });
    assert.equal(p.peers_reported, 0);
    assert.deepEqual(p.reports, [
      { peer_id: operator.node.nodeKey.publicKeyText(), committed_at_ms: p.last_seen_at_ms },
    ]);
  });

  it('live: 503 without the metrics capability', async () => {
    const a = await getJson(operator.url, '/v1/telemetry/live', { accept: 'text/event-stream' });
    assert.deepEqual([a.status, a.code], [503, 'telemetry_profile_restricted']);
  });

  it('live: a snapshot at once, one per interval with growing ids, resumed past Last-Event-ID', async () => {
    const sse = await readSse(full.url, '/v1/telemetry/live');
    try {
      await until(() => (sse.events.length >= 3 ? true : undefined));
      const ids = sse.events.map((e) => Number(e.id));
      for (let i = 1; i < ids.length; i++) assert.ok(ids[i]! > ids[i - 1]!, `ids grow: ${ids}`);
      const e = sse.events[0]!;
      assert.equal(e.name, 'telemetry');
      assert.equal(e.data.peers.total, 1);
      assert.equal(e.data.peers.items[0].url, full.url);
      assert.equal(e.data.propagation.block, full.node.ledger.height());
      assert.equal(typeof e.data.at_ms, 'number');
      const gaps = sse.events.slice(1, 3).map((x, i) => x.atMs - sse.events[i]!.atMs);
      assert.ok(gaps[1]! >= 50, `snapshots are spaced by the interval: ${gaps}`);
    } finally {
      sse.close();
    }
    // A resumed client continues with the current snapshot, its id above the one it last saw.
    const resumeFrom = Date.now() + 3_600_000;
    const res = await fetch(`${full.url}/v1/telemetry/live`, {
      headers: { accept: 'text/event-stream', 'last-event-id': String(resumeFrom) },
    });
    const reader = res.body!.getReader();
    let text = '';
    while (!/\nid: ?\d+/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    assert.ok(Number(/\nid: ?(\d+)/.exec(text)![1]) > resumeFrom, text);
  });

  it('SDK: typed readers of the three routes', async () => {
    const client = new ToranaClient({ url: full.url });
    const peers = await telemetryPeersInfo(client, { limit: 1 });
    assert.deepEqual([peers.total, peers.items[0]?.self, peers.items[0]?.url], [1, true, full.url]);
    const p = await telemetryPropagation(client);
    assert.equal(p.block, full.node.ledger.height());
    const abort = new AbortController();
    for await (const m of telemetryLive(client, { signal: abort.signal })) {
      assert.ok(m.id > 0);
      assert.equal(m.snapshot.peers.items[0]?.peerId, full.node.nodeKey.publicKeyText());
      abort.abort();
    }
  });

  it('CLI: torana telemetry peers and propagation', async () => {
    // In this process (test/helpers/cli-in-process.ts): one command at a time.
    const peers = await cli(['telemetry', 'peers', '--json', '--url', full.url]);
    const prop = await cli(['telemetry', 'propagation', '--url', full.url]);
    assert.equal(peers.code, 0, peers.err);
    assert.deepEqual(
      JSON.parse(peers.out).map((p: { peer_id: string; self: boolean }) => [p.peer_id, p.self]),
      [[full.node.nodeKey.publicKeyText(), true]],
    );
    assert.equal(prop.code, 0, prop.err);
    assert.match(prop.out, new RegExp(`block\\s+${full.node.ledger.height()}\\b`));
    assert.match(prop.out, /peers_reported\s+0/);
  });

  it('OpenAPI: node-local, in the telemetry family, not part of the application API', async () => {
    const doc = await fetchOpenApi(full.url);
    for (const path of ['/v1/telemetry/peers-info', '/v1/telemetry/propagation', '/v1/telemetry/live']) {
      const op = doc.paths[path]?.get as Record<string, unknown> | undefined;
      assert.ok(op !== undefined, path);
      assert.equal(op['x-ledger-node-local'], true, path);
      assert.equal(op['x-ledger-family'], 'telemetry', path);
      assert.equal(op['x-ledger-app-api'], undefined, path);
      assert.match(String(op.description), /^Node-local:/);
    }
    const restricted = (await fetchOpenApi(operator.url)).paths['/v1/telemetry/live']?.get as
      | Record<string, unknown>
      | undefined;
    assert.match(String(restricted?.description), /answers 503/);
  });
});
