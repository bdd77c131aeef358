// Abuse scenario on signed queries: before the fix, `creationTimeMs` 1 and
// 99999999999999 both answered 200 and a captured signed query could be replayed forever. Now, through
// real sockets: a query from the distant past is refused 400 query_expired, one from the far future 400
// query_creation_time_in_future, a captured query replayed many times at once is answered exactly once
// (the rest 409 query_replayed), and after a flood of distinct queries has pushed it out of the bounded
// replay cache it is still refused. The SDK meanwhile repeats an identical lookup back to back without a
// single refusal (it keeps its creation times strictly increasing).

import assert from 'node:assert/strict';
import { Pool } from 'undici';
import { encode, encodeFrame } from '../../src/codec/frame.js';
import { hash } from '../../src/crypto/hash.js';
import { type QueryPayload, QueryPayloadCodec, SignedQueryCodec } from '../../src/model/queries.js';
import { SCHEMA } from '../../src/model/schema.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { queryTimeMs } from '../helpers/route-catalog.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { figure, sleep } from './clients.js';

function signed(t: ServedTestNode, creationTimeMs: number, tag = 0): Uint8Array {
  const payload: QueryPayload = {
    chainId: t.chainId,
    authority: t.admin.id,
    creationTimeMs,
    request:
      tag === 0
        ? { kind: 'Singular', query: { kind: 'FindParameters' } }
        : { kind: 'Singular', query: { kind: 'FindDomainById', id: `d${tag}` } },
  };
  const signature = t.admin.key.sign(hash(encode(QueryPayloadCodec, payload)));
  return encodeFrame(SCHEMA, SignedQueryCodec, { payload, signature });
}

async function post(pool: Pool, body: Uint8Array): Promise<string> {
  const res = await pool.request({
    method: 'POST',
    path: '/query',
    headers: { 'content-type': 'application/x-codec', accept: 'application/json' },
    body: Buffer.from(body),
  });
  const json = (await res.body.json()) as { code?: string };
  return res.statusCode === 200 ? '200' : `${res.statusCode} ${json.code}`;
}

function tally(answers: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of answers) out[a] = (out[a] ?? 0) + 1;
  return out;
}

export async function signedQueryReplay(size: { replays: number; cacheMax: number }): Promise<void> {
  const t = await startServedNode({
    'query.replay_cache_max': size.cacheMax,
    'gateway.rate_per_ip_per_s': 1_000_000,
    'gateway.rate_burst': 1_000_000,
  });
  const pool = new Pool(t.url, { connections: 16 });
  const client = new ToranaClient({ url: t.url, account: t.admin.id, signer: t.admin.key });
  try {
    const ancient = await post(pool, signed(t, 1));
    const future = await post(pool, signed(t, 99_999_999_999_999));
    const captured = signed(t, queryTimeMs());
    const replays = await Promise.all(Array.from({ length: size.replays }, () => post(pool, captured)));
    // Distinct fresh queries, signed with the plain clock (they differ by their request), each answered
    // 404 not_found: verified, so remembered, pushing the captured one out of the cache.
    const flood = await Promise.all(
      Array.from({ length: size.cacheMax * 2 }, (_, i) => post(pool, signed(t, Date.now(), i + 1))),
    );
    const afterFlood = await post(pool, captured);
    await sleep(5); // the SDK's clock starts after the flood's (the watermark may hold its last ms)
    let sdkRefusals = 0;
    for (let i = 0; i < 50; i++) {
      await client.find({ kind: 'FindParameters' }).catch(() => {
        sdkRefusals++;
      });
    }
    figure('signed query freshness', {
      'creationTimeMs 1': ancient,
      'creationTimeMs 99999999999999': future,
      [`one captured query sent ${size.replays} times at once`]: JSON.stringify(tally(replays)),
      [`after ${flood.length} distinct queries (cache ${size.cacheMax}), the captured one again`]: afterFlood,
      'flood answers': JSON.stringify(tally(flood)),
      'SDK: 50 identical lookups back to back, refused': sdkRefusals,
    });
    assert.equal(ancient, '400 query_expired');
    assert.equal(future, '400 query_creation_time_in_future');
    assert.deepEqual(tally(replays), { '200': 1, '409 query_replayed': size.replays - 1 });
    // Once the cache is full, its watermark refuses queries stamped at or before the evicted ones (the
    // same millisecond as some of the flood): the documented price of bounded memory, never a 5xx.
    assert.ok(flood.every((a) => a === '404 not_found' || a === '409 query_replayed'));
    assert.ok(flood.filter((a) => a === '404 not_found').length >= size.cacheMax);
    assert.equal(afterFlood, '409 query_replayed');
    assert.equal(sdkRefusals, 0);
  } finally {
    await pool.close();
    await t.stopAll();
  }
}
