// Batched submission through real sockets: POST /v1/transactions/batch with mixed good, bad
// and duplicate items (results in order, one bad item sinking none), the batch limits and their codes,
// the codec answer, the item metrics; and the /v1/transactions/ws channel (answers in order, single
// transactions and batches, a malformed message answered with an error body, text messages refused,
// oversized single transactions answered body_too_large) and the rate budget charged per transaction.

import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { decodeFrame, encodeFrame } from '../../src/codec/frame.js';
import { TransactionBatchResultView } from '../../src/gateway/views/transactions.js';
import type { Instruction } from '../../src/model/instructions.js';
import { createSchemaRegistry, SCHEMA } from '../../src/model/schema.js';
import { type SignedTransaction, SignedTransactionBatchCodec } from '../../src/model/transaction.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { encodeTransaction } from '../../src/sdk/transaction.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { buildTx, frameTx, newAccount } from '../helpers/tx.js';

const batchOf = (txs: SignedTransaction[]) => encodeFrame(SCHEMA, SignedTransactionBatchCodec, txs);
const log = (message: string): Instruction => ({ kind: 'Log', level: { kind: 'Info' }, message });

async function post(url: string, body: Uint8Array, accept?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/x-codec' };
  if (accept !== undefined) headers['accept'] = accept;
  const res = await fetch(url, { method: 'POST', headers, body });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}
const json = (b: Uint8Array) => JSON.parse(Buffer.from(b).toString('utf8'));

describe('POST /v1/transactions/batch', () => {
  let t: ServedTestNode;
  let url: string;
  const tx = (m: string, o: { chainId?: string } = {}) =>
    buildTx(t.admin, [log(m)], { chainId: o.chainId ?? t.chainId });
  before(async () => {
    t = await startServedNode({
      'gateway.transaction_batch_items_max': 8,
      'gateway.transaction_batch_body_bytes_max': 4096,
    });
    url = `${t.url}/v1/transactions/batch`;
  });
  after(async () => t.stopAll());

  it('answers 200 with one result per item in order: good, bad and duplicate items', async () => {
    const a = tx('a');
    const signed = tx('forged');
    const forged = { ...signed, signature: signed.signature.map((b, i) => (i === 0 ? b ^ 1 : b)) };
    const stranger = buildTx(newAccount('nowhere', 9), [log('s')], { chainId: t.chainId });
    const items = [a, tx('other', { chainId: 'elsewhere' }), forged, tx('b'), a, stranger, tx('c')];
    const { res, bytes } = await post(url, batchOf(items));
    assert.equal(res.status, 200);
    assert.ok(res.headers.get('x-ledger-queue-capacity'));
    const body = json(bytes);
    const codes = body.results.map((r: { status: string; error?: { code: string } }) =>
      r.status === 'Queued' ? 'Queued' : r.error!.code,
    );
    assert.deepEqual(codes, [
      'Queued',
      'chain_id_mismatch',
      'signature_invalid',
      'Queued',
      'already_enqueued',
      'authority_not_found',
      'Queued',
    ]);
    assert.equal(body.accepted, 3);
    assert.equal(body.refused, 4);
    for (const r of body.results) assert.match(r.tx_hash, /^[0-9a-f]{64}$/);
    assert.equal(body.results[0].tx_hash, body.results[4].tx_hash);
    assert.equal(body.results[4].error.details.tx_hash, body.results[0].tx_hash);
  });

  it('answers the codec form when the client prefers it', async () => {
    const { res, bytes } = await post(url, batchOf([tx('codec')]), 'application/x-codec');
    assert.equal(res.status, 200);
    const d = decodeFrame(
      createSchemaRegistry([TransactionBatchResultView]),
      TransactionBatchResultView,
      bytes,
      {
        bytesMax: 1 << 20,
        itemsMax: 1000,
        depthMax: 32,
      },
    );
    assert.ok(d.ok);
    if (d.ok) assert.equal(d.value.results[0]!.status, 'Queued');
  });

  it('refuses a batch over the item limit (413 transaction_batch_too_large) and an oversized body (413)', async () => {
    const many = Array.from({ length: 9 }, (_, i) => tx(`many${i}`));
    const over = await post(url, batchOf(many));
    assert.equal(over.res.status, 413);
    assert.equal(json(over.bytes).code, 'transaction_batch_too_large');
    assert.deepEqual(json(over.bytes).details, { items: 9, limit: 8 });
    const big = await post(url, new Uint8Array(5000));
    assert.equal(big.res.status, 413);
    assert.equal(json(big.bytes).code, 'body_too_large');
  });

  it('refuses a body that is not a batch as a whole (400 invalid_codec_body)', async () => {
    for (const body of [frameTx(tx('single')), new Uint8Array([1, 5, 0]), new Uint8Array([9])]) {
      const r = await post(url, body);
      assert.equal(r.res.status, 400);
      assert.equal(json(r.bytes).code, 'invalid_codec_body');
    }
  });

  it('SDK submitMany splits to the node limits it learns and returns results in order', async () => {
    const client = new ToranaClient({
      url: t.url,
      chainId: t.chainId,
      account: t.admin.id,
      signer: t.admin.key,
    });
    const built = [];
    for (let i = 0; i < 19; i++) built.push(await client.build([log(`sdk${i}`)]));
    const bad = encodeTransaction({
      ...built[3]!.signed,
      payload: { ...built[3]!.signed.payload, chainId: 'x' },
    });
    const txs = [...built.slice(0, 10), built[2]!, bad, ...built.slice(10)];
    // More items per request than the node takes: the 413 names the limit and the rest is re-split.
    const results = await client.submitMany(txs, { itemsMax: 50 });
    assert.equal(results.length, txs.length);
    results.forEach((r, i) => {
      if (i === 10) assert.match(r.error!.code, /^already_(enqueued|committed)$/);
      else if (i === 11) assert.equal(r.error!.code, 'chain_id_mismatch');
      else {
        assert.equal(r.status, 'Queued', JSON.stringify(r));
        assert.equal(r.txHash, txs[i]!.hash);
      }
    });
  });

  it('counts the items in transaction_batch_items_total', async () => {
    const text = await (await fetch(`${t.url}/metrics`)).text();
    const accepted = /transaction_batch_items_total\{channel="http",outcome="accepted"\} (\d+)/.exec(text);
    const refused = /transaction_batch_items_total\{channel="http",outcome="refused"\} (\d+)/.exec(text);
    assert.ok(Number(accepted?.[1]) >= 4);
    assert.ok(Number(refused?.[1]) >= 4);
  });
});

/** Opens the channel and returns a function sending one message and resolving with its answer. */
async function channel(base: string) {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/v1/transactions/ws`);
  const answers: string[] = [];
  const waiting: ((s: string) => void)[] = [];
  ws.on('message', (data) => {
    const s = String(data);
    const w = waiting.shift();
    if (w) w(s);
    else answers.push(s);
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const next = () =>
    new Promise<unknown>((resolve) => {
      const ready = answers.shift();
      if (ready !== undefined) resolve(JSON.parse(ready));
      else waiting.push((s) => resolve(JSON.parse(s)));
    });
  return { ws, next };
}

describe('GET /v1/transactions/ws', () => {
  let t: ServedTestNode;
  const tx = (m: string) => buildTx(t.admin, [log(m)], { chainId: t.chainId });
  before(async () => {
    t = await startServedNode({ 'gateway.transaction_batch_items_max': 4 });
  });
  after(async () => t.stopAll());

  it('answers every binary message in order: batches, single transactions, malformed messages', async () => {
    const { ws, next } = await channel(t.url);
    const a = tx('wa');
    ws.send(batchOf([a, tx('wb')]));
    ws.send(frameTx(tx('wc')));
    ws.send(new Uint8Array([0x54, 0x52]));
    ws.send(batchOf([tx('w1'), tx('w2'), tx('w3'), tx('w4'), tx('w5')]));
    ws.send(batchOf([a, tx('wd')]));
    const answers = (await Promise.all([next(), next(), next(), next(), next()])) as Record<
      string,
      unknown
    >[];
    const statuses = (x: Record<string, unknown>) =>
      (x['results'] as { status: string; error?: { code: string } }[]).map((r) =>
        r.status === 'Queued' ? 'Queued' : r.error!.code,
      );
    assert.deepEqual(statuses(answers[0]!), ['Queued', 'Queued']);
    assert.deepEqual(statuses(answers[1]!), ['Queued']);
    assert.equal(answers[2]!['code'], 'invalid_codec_body');
    assert.equal(answers[3]!['code'], 'transaction_batch_too_large');
    // The earlier copy may have been committed meanwhile.
    assert.match(statuses(answers[4]!)[0]!, /^already_(enqueued|committed)$/);
    assert.equal(statuses(answers[4]!)[1], 'Queued');
    ws.close();
  });

  it('closes the channel 1009 on a message above gateway.transaction_batch_body_bytes_max', async () => {
    const { ws } = await channel(t.url);
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send(new Uint8Array(1024 * 1024 + 1));
    assert.equal(await closed, 1009);
  });

  it('answers body_too_large for a single transaction above gateway.transaction_body_bytes_max, then goes on', async () => {
    const { ws, next } = await channel(t.url);
    const big = new Uint8Array(64 * 1024 + 1);
    big.set(frameTx(tx('big')).subarray(0, 22));
    ws.send(big);
    ws.send(frameTx(tx('after-big')));
    const refused = (await next()) as { code: string; details: unknown };
    assert.equal(refused.code, 'body_too_large');
    assert.deepEqual(refused.details, { bytes: 64 * 1024 + 1, limit: 64 * 1024 });
    assert.equal(((await next()) as { accepted: number }).accepted, 1);
    ws.close();
  });

  it('closes the channel 1008 on a text message', async () => {
    const { ws } = await channel(t.url);
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send('hello');
    assert.equal(await closed, 1008);
  });
});

describe('rate budget per transaction (batch route and WebSocket channel)', () => {
  let t: ServedTestNode;
  const tx = (m: string) => buildTx(t.admin, [log(m)], { chainId: t.chainId });
  const codes = (x: { results: { status: string; error?: { code: string } }[] }) =>
    x.results.map((r) => (r.status === 'Queued' ? 'Queued' : r.error!.code));
  // One token a second, a bucket of 5: the test runs well within a second per phase. Each test has a
  // node of its own, so each starts with a full bucket (instead of waiting 5 s for it to refill).
  beforeEach(async () => {
    t = await startServedNode({ 'gateway.rate_per_ip_per_s': 1, 'gateway.rate_burst': 5 });
  });
  afterEach(async () => t.stopAll());

  it('the batch route charges one token per item: items past the budget are refused rate_limited', async () => {
    const items = Array.from({ length: 8 }, (_, i) => tx(`rl${i}`));
    const { res, bytes } = await post(`${t.url}/v1/transactions/batch`, batchOf(items));
    assert.equal(res.status, 200);
    const body = json(bytes);
    assert.deepEqual(codes(body).slice(0, 5), ['Queued', 'Queued', 'Queued', 'Queued', 'Queued']);
    assert.deepEqual(codes(body).slice(5), ['rate_limited', 'rate_limited', 'rate_limited']);
    assert.ok(body.results[5].error.details.retry_after_s >= 1);
    const single = await post(`${t.url}/transaction`, frameTx(tx('rl-single')));
    assert.equal(single.res.status, 429);
    assert.equal(json(single.bytes).code, 'rate_limited');
  });

  it('the WebSocket channel charges each message its item count before admission', async () => {
    const { ws, next } = await channel(t.url); // the upgrade takes one token: 4 left
    ws.send(batchOf([tx('w1'), tx('w2'), tx('w3')]));
    ws.send(batchOf([tx('w4'), tx('w5'), tx('w6')]));
    ws.send(frameTx(tx('w7')));
    const [a, b, c] = (await Promise.all([next(), next(), next()])) as Parameters<typeof codes>[0][];
    assert.deepEqual(codes(a!), ['Queued', 'Queued', 'Queued']);
    assert.deepEqual(codes(b!), ['Queued', 'rate_limited', 'rate_limited']);
    assert.deepEqual(codes(c!), ['rate_limited']);
    ws.close();
  });
});
