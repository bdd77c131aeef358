// POST /transaction and POST /query through a real socket: the reject, duplicate, expired and
// queue-full answers (docs/errors.md); the node-signed receipt; signed queries with cursors).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeFrame, encode, encodeFrame } from '../../src/codec/frame.js';
import { ed25519Verify } from '../../src/crypto/ed25519.js';
import { hash } from '../../src/crypto/hash.js';
import { publicKeyFromText } from '../../src/crypto/keys.js';
import { TransactionAcceptedView } from '../../src/gateway/views/common.js';
import { numeric } from '../../src/model/numeric.js';
import {
  QueryPayloadCodec,
  type QueryRequest,
  QueryResponseCodec,
  SignedQueryCodec,
} from '../../src/model/queries.js';
import { receiptMessage } from '../../src/model/receipt.js';
import { createSchemaRegistry, SCHEMA } from '../../src/model/schema.js';
import { fromHex } from '../../src/util/hex.js';
import { run } from '../helpers/node.js';
import { queryTimeMs } from '../helpers/route-catalog.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { buildTx, frameTx, newAccount, type TestAccount } from '../helpers/tx.js';

const LIMITS = { bytesMax: 1 << 24, itemsMax: 100_000, depthMax: 32 };

async function post(
  url: string,
  body: Uint8Array,
  headers: Record<string, string> = { 'content-type': 'application/x-codec' },
) {
  const res = await fetch(url, { method: 'POST', headers, body });
  const text = Buffer.from(await res.arrayBuffer());
  return { res, text, json: () => JSON.parse(text.toString('utf8')) };
}

function signedQuery(t: ServedTestNode, signer: TestAccount, request: QueryRequest): Uint8Array {
  const payload = { chainId: t.chainId, authority: signer.id, creationTimeMs: queryTimeMs(), request };
  const signature = signer.key.sign(hash(encode(QueryPayloadCodec, payload)));
  return encodeFrame(SCHEMA, SignedQueryCodec, { payload, signature });
}

describe('POST /transaction', () => {
  let t: ServedTestNode;
  const log = { kind: 'Log' as const, level: { kind: 'Info' as const }, message: 'hi' };
  before(async () => {
    t = await startServedNode({ 'queue.capacity': 8, 'queue.per_account_max': 4 });
  });
  after(async () => t.stopAll());

  it('answers 202 with a receipt signed by the node key and queue headers', async () => {
    const tx = buildTx(t.admin, [log], { chainId: t.chainId });
    const { res, json } = await post(`${t.url}/transaction`, frameTx(tx));
    assert.equal(res.status, 202);
    assert.ok(res.headers.get('x-ledger-queue-capacity'));
    assert.equal(res.headers.get('x-ledger-api-version'), '1');
    const body = json();
    assert.match(body.tx_hash, /^[0-9a-f]{64}$/);
    const p = body.receipt.payload;
    const key = publicKeyFromText(p.node_public_key) as { bytes: Uint8Array };
    const msg = receiptMessage({
      txHash: p.tx_hash,
      submittedAtMs: p.submitted_at_ms,
      submittedAtHeight: p.submitted_at_height,
      nodePublicKey: p.node_public_key,
    });
    assert.equal(ed25519Verify(key.bytes, msg, fromHex(body.receipt.signature)!), true);
    assert.equal(p.node_public_key, t.node.nodeKey.publicKeyText());
  });

  it('answers the same receipt as a codec frame when the client asks for the codec', async () => {
    const tx = buildTx(t.admin, [log], { chainId: t.chainId, nonce: 31 });
    const headers = { 'content-type': 'application/x-codec', accept: 'application/x-codec' };
    const { res, text } = await post(`${t.url}/transaction`, frameTx(tx), headers);
    assert.equal(res.status, 202);
    const registry = createSchemaRegistry();
    registry.register(TransactionAcceptedView);
    const d = decodeFrame(registry, TransactionAcceptedView, text, LIMITS);
    assert.ok(d.ok);
    const { payload, signature } = d.value.receipt;
    assert.equal(d.value.txHash, payload.txHash);
    assert.equal(d.value.status, 'Queued');
    const key = publicKeyFromText(payload.nodePublicKey) as { bytes: Uint8Array };
    assert.equal(ed25519Verify(key.bytes, receiptMessage(payload), signature), true);
  });

  it('answers 415 without the codec content type and 413 above the body limit', async () => {
    const tx = frameTx(buildTx(t.admin, [log], { chainId: t.chainId }));
    const r415 = await post(`${t.url}/transaction`, tx, { 'content-type': 'application/json' });
    assert.equal(r415.res.status, 415);
    assert.equal(r415.json().code, 'unsupported_media_type');
    const r413 = await post(`${t.url}/transaction`, new Uint8Array(70 * 1024));
    assert.equal(r413.res.status, 413);
    assert.equal(r413.json().code, 'body_too_large');
  });

  it('answers 400 with stable codes for malformed bytes and each admission failure', async () => {
    const bad = await post(`${t.url}/transaction`, new Uint8Array([0x54, 0x52, 0x4e, 0x43, 9]));
    assert.equal(bad.res.status, 400);
    assert.equal(bad.json().code, 'invalid_codec_body');
    const wrongChain = await post(
      `${t.url}/transaction`,
      frameTx(buildTx(t.admin, [log], { chainId: 'elsewhere' })),
    );
    assert.equal(wrongChain.json().code, 'chain_id_mismatch');
    const expired = await post(
      `${t.url}/transaction`,
      frameTx(
        buildTx(t.admin, [log], { chainId: t.chainId, creationTimeMs: Date.now() - 60_000, ttlMs: 1000 }),
      ),
    );
    assert.equal(expired.res.status, 400);
    assert.equal(expired.json().code, 'transaction_expired');
    const future = await post(
      `${t.url}/transaction`,
      frameTx(buildTx(t.admin, [log], { chainId: t.chainId, creationTimeMs: Date.now() + 60_000 })),
    );
    assert.equal(future.json().code, 'creation_time_in_future');
    const tx = buildTx(t.admin, [log], { chainId: t.chainId });
    const forged = await post(`${t.url}/transaction`, frameTx({ ...tx, signature: new Uint8Array(64) }));
    assert.equal(forged.json().code, 'signature_invalid');
    assert.match(forged.json().details.tx_hash, /^[0-9a-f]{64}$/);
  });

  it('answers 409 already_enqueued / already_committed for duplicates', async () => {
    const tx = buildTx(t.admin, [log], { chainId: t.chainId, nonce: 77 });
    const body = frameTx(tx);
    const [a, b] = await Promise.all([
      post(`${t.url}/transaction`, body),
      post(`${t.url}/transaction`, body),
    ]);
    const statuses = [a.res.status, b.res.status].sort();
    assert.deepEqual(statuses, [202, 409]);
    const dup = a.res.status === 409 ? a : b;
    assert.equal(dup.json().code, 'already_enqueued');
    const hashHex = (a.res.status === 202 ? a : b).json().tx_hash;
    await t.node.engine.waitForHeight(t.node.ledger.height() + 1);
    while (t.node.ledger.locate(fromHex(hashHex)!) === undefined) await new Promise((r) => setTimeout(r, 20));
    const again = await post(`${t.url}/transaction`, body);
    assert.equal(again.res.status, 409);
    assert.equal(again.json().code, 'already_committed');
    const status = await fetch(`${t.url}/v1/pipeline/transactions/status?hash=${hashHex}`);
    const s = (await status.json()) as { status: string; block_height: number };
    assert.equal(s.status, 'Committed');
    assert.ok(s.block_height >= 2);
  });

  it('answers 429 queue_full with Retry-After and queue depth when the queue is saturated, then drains', async () => {
    const signers = [newAccount('system'), newAccount('system'), newAccount('system')];
    // Admission refuses unregistered authorities: register them first.
    await run(
      t,
      t.admin,
      signers.map((s) => ({ kind: 'RegisterAccount', id: s.id, metadata: new Map() })),
    );
    await t.node.engine.stop(); // hold block production so the queue fills
    const answers = [];
    for (let i = 0; i < 12; i++) {
      const signer = i < 4 ? t.admin : signers[i % 3]!;
      answers.push(
        await post(
          `${t.url}/transaction`,
          frameTx(buildTx(signer, [log], { chainId: t.chainId, nonce: 1000 + i })),
        ),
      );
    }
    const full = answers.filter((a) => a.res.status === 429);
    assert.ok(full.length > 0);
    const f = full[0]!;
    assert.ok(['queue_full', 'account_queue_full'].includes(f.json().code));
    assert.equal(f.res.headers.get('retry-after'), '1');
    assert.ok(Number(f.res.headers.get('x-ledger-queue-depth')) >= 1);
    t.node.engine.start();
    const target = t.node.ledger.height() + 1;
    await t.node.engine.waitForHeight(target);
    while (t.node.pipeline.queue.depth > 0) await new Promise((r) => setTimeout(r, 20));
    const after = await post(
      `${t.url}/transaction`,
      frameTx(buildTx(t.admin, [log], { chainId: t.chainId, nonce: 5000 })),
    );
    assert.equal(after.res.status, 202);
  });
});

describe('POST /query', () => {
  let t: ServedTestNode;
  const registry = createSchemaRegistry();
  before(async () => {
    t = await startServedNode();
    const instructions = [{ kind: 'RegisterDomain' as const, id: 'wonderland', metadata: new Map() }];
    for (let i = 0; i < 250; i++)
      instructions.push({
        kind: 'RegisterDomain',
        id: `d${String(i).padStart(3, '0')}`,
        metadata: new Map(),
      });
    const r = await run(t, t.admin, instructions);
    assert.equal(r.status.kind, 'Committed');
  });
  after(async () => t.stopAll());

  it('answers a singular query in the codec by default and JSON on request', async () => {
    const body = signedQuery(t, t.admin, {
      kind: 'Singular',
      query: { kind: 'FindDomainById', id: 'wonderland' },
    });
    const codec = await post(`${t.url}/query`, body);
    assert.equal(codec.res.status, 200);
    assert.equal(codec.res.headers.get('content-type'), 'application/x-codec');
    const d = decodeFrame(registry, QueryResponseCodec, codec.text, LIMITS);
    assert.ok(d.ok);
    if (d.ok && d.value.kind === 'Singular' && d.value.output.kind === 'Domain')
      assert.equal(d.value.output.value.id, 'wonderland');
    else assert.fail('expected a Domain');
    // Signed again: the node answers one signed query once (a replay is refused 409 query_replayed).
    const again = signedQuery(t, t.admin, {
      kind: 'Singular',
      query: { kind: 'FindDomainById', id: 'wonderland' },
    });
    const json = await post(`${t.url}/query`, again, {
      'content-type': 'application/x-codec',
      accept: 'application/json',
    });
    assert.equal(json.json().output.value.id, 'wonderland');
    const replayed = await post(`${t.url}/query`, again, {
      'content-type': 'application/x-codec',
      accept: 'application/json',
    });
    assert.equal(replayed.res.status, 409);
    assert.equal(replayed.json().code, 'query_replayed');
  });

  it('iterates with a cursor over more items than one fetch', async () => {
    const start = signedQuery(t, t.admin, {
      kind: 'Start',
      query: { kind: 'FindDomains' },
      params: { offset: 0, fetchSize: 100, sort: 'id:asc' },
    });
    const headers = { 'content-type': 'application/x-codec', accept: 'application/json' };
    let page = (await post(`${t.url}/query`, start, headers)).json();
    const ids: string[] = page.batch.map((o: { value: { id: string } }) => o.value.id);
    while (page.cursor) {
      page = (
        await post(
          `${t.url}/query`,
          signedQuery(t, t.admin, { kind: 'Continue', cursor: page.cursor }),
          headers,
        )
      ).json();
      ids.push(...page.batch.map((o: { value: { id: string } }) => o.value.id));
    }
    assert.equal(ids.length, 252); // system (genesis) + wonderland + 250
    assert.deepEqual([...ids].sort(), ids);
  });

  it('refuses bad signatures (403), unknown authorities (403), unknown entities (404) and bad cursors (400)', async () => {
    const body = signedQuery(t, t.admin, {
      kind: 'Singular',
      query: { kind: 'FindDomainById', id: 'nowhere' },
    });
    const notFound = await post(`${t.url}/query`, body, {
      'content-type': 'application/x-codec',
      accept: 'application/json',
    });
    assert.equal(notFound.res.status, 404);
    assert.equal(notFound.json().code, 'not_found');
    const tampered = Uint8Array.from(body);
    tampered[tampered.length - 5]! ^= 1;
    const bad = await post(`${t.url}/query`, tampered, {
      'content-type': 'application/x-codec',
      accept: 'application/json',
    });
    assert.equal(bad.res.status, 400); // the frame checksum catches the flip first
    const stranger = newAccount('system');
    const unknown = await post(
      `${t.url}/query`,
      signedQuery(t, stranger, { kind: 'Singular', query: { kind: 'FindParameters' } }),
      { 'content-type': 'application/x-codec', accept: 'application/json' },
    );
    assert.equal(unknown.res.status, 403);
    assert.equal(unknown.json().code, 'query_authority_not_found');
    const cursor = await post(
      `${t.url}/query`,
      signedQuery(t, t.admin, { kind: 'Continue', cursor: 'ffff' }),
      { 'content-type': 'application/x-codec', accept: 'application/json' },
    );
    assert.equal(cursor.res.status, 400);
    assert.equal(cursor.json().code, 'cursor_not_found');
  });

  it('finds a committed transaction by hash', async () => {
    const alice = newAccount('wonderland');
    const r = await run(t, t.admin, [
      { kind: 'RegisterAccount', id: alice.id, metadata: new Map() },
      {
        kind: 'RegisterAssetDefinition',
        id: 'gold#wonderland',
        scale: 0,
        mintable: { kind: 'Once' },
        metadata: new Map(),
      },
      { kind: 'MintAsset', asset: `gold#wonderland#${alice.id}`, amount: numeric('5') },
    ]);
    const q = signedQuery(t, t.admin, {
      kind: 'Singular',
      query: { kind: 'FindTransactionByHash', hash: r.hash },
    });
    const res = (
      await post(`${t.url}/query`, q, { 'content-type': 'application/x-codec', accept: 'application/json' })
    ).json();
    assert.equal(res.output.value.block_height, r.height);
  });
});
