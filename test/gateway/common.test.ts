// Every common route (docs/app-api.md: always there, whatever the switches) through a real socket:
// status and shape, and the codec answer when Accept prefers it.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeFrame } from '../../src/codec/frame.js';
import { StatusView } from '../../src/gateway/views/common.js';
import { createSchemaRegistry } from '../../src/model/schema.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

const LIMITS = { bytesMax: 1 << 24, itemsMax: 100_000, depthMax: 64 };

describe('common routes', () => {
  let t: ServedTestNode;
  const get = async (path: string, accept = 'application/json') => {
    const res = await fetch(`${t.url}${path}`, { headers: { accept } });
    return {
      res,
      body: accept === 'application/json' ? await res.json() : new Uint8Array(await res.arrayBuffer()),
    };
  };
  before(async () => {
    t = await startServedNode({ 'telemetry.profile': 'full' });
  });
  after(async () => t.stopAll());

  it('GET /health and /v1/health answer {status: ok}', async () => {
    for (const p of ['/health', '/v1/health']) {
      const { res, body } = await get(p);
      assert.equal(res.status, 200);
      assert.deepEqual(body, { status: 'ok' });
      assert.equal(res.headers.get('x-ledger-api-version'), '1');
    }
  });

  it('GET /api_version and /v1/api/versions', async () => {
    assert.deepEqual((await get('/api_version')).body, { version: '1' });
    const v = (await get('/v1/api/versions')).body as { default: string; supported: string[] };
    assert.equal(v.default, '1');
    assert.deepEqual(v.supported, ['1']);
  });

  it('GET /status has the named fields, /status/<field> one of them, and the codec form decodes', async () => {
    const s = (await get('/status')).body as Record<string, unknown>;
    for (const f of [
      'blocks',
      'txs_approved',
      'txs_rejected',
      'queue_size',
      'peers',
      'uptime',
      'view_changes',
      'commit_time_ms',
      'blocks_non_empty',
    ]) {
      assert.ok(f in s, f);
    }
    assert.equal(s.blocks, 1);
    // Who the node is, its newest block and its quorum (a lone validator: itself, 1 of 1).
    assert.equal(s.chain_id, t.node.config.node.chainId);
    assert.match(String(s.node_id), /^ed0120[0-9A-F]{64}$/);
    assert.equal(s.role, 'single');
    assert.match(String(s.version), /^torana\/\d+\.\d+\.\d+/);
    assert.equal(s.latest_block_height, 1);
    assert.match(String(s.latest_block_hash), /^[0-9a-f]{64}$/);
    assert.notEqual(s.latest_block_hash, '0'.repeat(64));
    assert.ok(typeof s.latest_block_time_ms === 'number' && s.latest_block_time_ms > 1_600_000_000_000);
    assert.equal(s.catching_up, false);
    assert.deepEqual(
      [s.validators_reachable, s.validators_total, s.quorum_needed, s.quorum_reachable],
      [1, 1, 1, true],
    );
    assert.equal((await get('/status/blocks')).body, 1);
    assert.equal((await get('/status/nosuch')).res.status, 404);
    const codec = await get('/status', 'application/x-codec');
    assert.equal(codec.res.headers.get('content-type'), 'application/x-codec');
    const d = decodeFrame(createSchemaRegistry([StatusView]), StatusView, codec.body as Uint8Array, LIMITS);
    assert.ok(d.ok);
    if (d.ok) assert.equal(d.value.blocks, 1);
  });

  it('GET /status in JSON is byte for byte the JSON form of the status its codec answer carries', async () => {
    const codec = await get('/status', 'application/x-codec');
    const d = decodeFrame(createSchemaRegistry([StatusView]), StatusView, codec.body as Uint8Array, LIMITS);
    assert.ok(d.ok);
    const res = await fetch(`${t.url}/status`, { headers: { accept: 'application/json' } });
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
    const text = await res.text();
    // Only the uptime moves between the two requests of an idle node.
    const { uptime } = JSON.parse(text) as { uptime: { secs: number; nanos: number } };
    if (d.ok) assert.equal(text, JSON.stringify(StatusView.toJson({ ...d.value, uptime })));
  });

  it('GET /v1/node/capabilities names abi_version, data_model_version and query.aggregate.supported_resources', async () => {
    const c = (await get('/v1/node/capabilities')).body as {
      abi_version: number;
      data_model_version: number;
      query: { aggregate: { supported_resources: string[] } };
    };
    assert.equal(c.abi_version, 1);
    assert.equal(c.data_model_version, 1);
    assert.ok(c.query.aggregate.supported_resources.includes('accounts'));
  });

  it('GET /v1/time/now and /v1/time/status report the single-peer fallback', async () => {
    const asked = Date.now();
    const now = (await get('/v1/time/now')).body as {
      now: number;
      fallback: boolean;
      health: { healthy: boolean };
    };
    const answered = Date.now();
    // The node's clock reading falls between the request and its answer, however long those took.
    assert.ok(now.now >= asked && now.now <= answered, `${asked} <= ${now.now} <= ${answered}`);
    assert.equal(now.fallback, true);
    assert.equal(now.health.healthy, true);
    const st = (await get('/v1/time/status')).body as {
      peers: number;
      samples: unknown[];
      fallback: boolean;
    };
    assert.equal(st.peers, 0);
    assert.deepEqual(st.samples, []);
    assert.equal(st.fallback, true);
  });

  it('GET /peers, /v1/parameters and /schema', async () => {
    assert.deepEqual((await get('/peers')).body, []);
    const p = (await get('/v1/parameters')).body as Record<string, number>;
    assert.equal(typeof p.block_max_transactions, 'number');
    assert.equal(typeof p.max_clock_drift_ms, 'number');
    const schema = (await get('/schema')).body as {
      version: number;
      types: Record<string, { kind: string }>;
    };
    assert.equal(schema.version, 1);
    for (const name of ['SignedTransaction', 'Instruction', 'Block', 'QueryResponse', 'EventEnvelope'])
      assert.ok(schema.types[name], name);
    assert.equal(schema.types.Instruction!.kind, 'enum');
  });

  it('GET /metrics answers the text format, /openapi and /openapi.json the document', async () => {
    const m = await fetch(`${t.url}/metrics`);
    assert.equal(m.status, 200);
    assert.match(m.headers.get('content-type') ?? '', /^text\/plain/);
    assert.match(await m.text(), /^# HELP block_height /m);
    for (const p of ['/openapi', '/openapi.json']) {
      const doc = (await get(p)).body as { openapi: string; paths: Record<string, unknown> };
      assert.equal(doc.openapi, '3.1.0');
      assert.ok(doc.paths['/transaction']);
    }
  });

  it('answers 406 when nothing acceptable is offered and 400 for unknown API versions', async () => {
    const r = await fetch(`${t.url}/status`, { headers: { accept: 'text/html' } });
    assert.equal(r.status, 406);
    assert.equal(((await r.json()) as { code: string }).code, 'not_acceptable');
    const v = await fetch(`${t.url}/status`, { headers: { 'x-ledger-api-version': '9' } });
    assert.equal(v.status, 400);
    assert.equal(((await v.json()) as { code: string }).code, 'unsupported_api_version');
  });
});
