// Abuse scenarios on admission: transactions that cannot pass must not reach a block,
// and no single key or client address may fill the queue alone.
// - `unregisteredKeys`: every transaction signed by a fresh key for an account that does not exist and
//   carrying ~60 KB of `Log` instructions. Before the fix each was accepted (202) and written to a block
//   as rejected (authority_not_found): +30 MB of blocks for 500 of them. Now each is refused 400
//   authority_not_found at admission, the block log does not grow and the queue stays empty.
// - `submitterCaps`: with block production held, one signing key (two accounts in two domains) stops at
//   `queue.per_key_max` (429 key_queue_full) and one client address stops at `queue.per_source_max`
//   (429 source_queue_full), both with Retry-After, while another address is still served.

import assert from 'node:assert/strict';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Pool } from 'undici';
import type { Instruction } from '../../src/model/instructions.js';
import { nodeFiles } from '../../src/node/files.js';
import { BLOCKS_DIR } from '../../src/storage/segment-files.js';
import { run } from '../helpers/node.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { buildTx, frameTx, newAccount, type TestAccount } from '../helpers/tx.js';
import { figure, ip, mib } from './clients.js';

interface Answer {
  status: number;
  code?: string;
  retryAfter?: string;
}

async function post(pool: Pool, body: Uint8Array): Promise<Answer> {
  const res = await pool.request({
    method: 'POST',
    path: '/transaction',
    headers: { 'content-type': 'application/x-codec', accept: 'application/json' },
    body: Buffer.from(body),
  });
  const json = (await res.body.json()) as { code?: string };
  const retry = res.headers['retry-after'];
  return {
    status: res.statusCode,
    ...(json.code === undefined ? {} : { code: json.code }),
    ...(typeof retry === 'string' ? { retryAfter: retry } : {}),
  };
}

async function blockLogBytes(dir: string): Promise<number> {
  const blocks = join(nodeFiles(dir).data, BLOCKS_DIR);
  let total = 0;
  for (const name of await readdir(blocks)) total += (await stat(join(blocks, name))).size;
  return total;
}

/** `count` Log instructions of `bytes` characters each: the bulk an attacker pays nothing for. */
function logs(count: number, bytes: number, tag: number): Instruction[] {
  return Array.from({ length: count }, (_, i) => ({
    kind: 'Log',
    level: { kind: 'Info' },
    message: `${tag}:${i}:`.padEnd(bytes, 'x'),
  }));
}

const summary = (answers: Answer[]) => {
  const out: Record<string, number> = {};
  for (const a of answers) out[`${a.status} ${a.code ?? ''}`] = (out[`${a.status} ${a.code ?? ''}`] ?? 0) + 1;
  return out;
};

const fastGateway = { 'gateway.rate_per_ip_per_s': 1_000_000, 'gateway.rate_burst': 1_000_000 };

export async function unregisteredKeys(size: { transactions: number; concurrency: number }): Promise<void> {
  const t = await startServedNode(fastGateway);
  const pool = new Pool(t.url, { connections: size.concurrency });
  try {
    const domain = t.admin.id.slice(t.admin.id.indexOf('@') + 1);
    const bodies = Array.from({ length: size.transactions }, (_, i) =>
      frameTx(buildTx(newAccount(domain), logs(14, 4000, i), { chainId: t.chainId })),
    );
    const heightBefore = t.node.ledger.height();
    const bytesBefore = await blockLogBytes(t.dir);
    const started = Date.now();
    const answers: Answer[] = new Array(bodies.length);
    let next = 0;
    const lane = async () => {
      while (next < bodies.length) {
        const i = next++;
        answers[i] = await post(pool, bodies[i]!);
      }
    };
    await Promise.all(Array.from({ length: size.concurrency }, lane));
    const ms = Date.now() - started;
    // Give the engine time to build a block, had anything been queued.
    await new Promise((r) => setTimeout(r, 1_500));
    const grown = (await blockLogBytes(t.dir)) - bytesBefore;
    const sent = bodies.reduce((n, b) => n + b.length, 0);
    figure('unregistered keys', {
      [`${bodies.length} transactions from fresh keys, ${mib(sent)} sent in ${ms} ms`]: JSON.stringify(
        summary(answers),
      ),
      'block log growth': `${grown} bytes`,
      'height before / after': `${heightBefore} / ${t.node.ledger.height()}`,
      'queue depth': t.node.pipeline.queue.depth,
    });
    assert.deepEqual(summary(answers), { '400 authority_not_found': bodies.length });
    assert.equal(grown, 0, 'nothing refused at admission reaches the block log');
    assert.equal(t.node.ledger.height(), heightBefore);
    assert.equal(t.node.pipeline.queue.depth, 0);
  } finally {
    await pool.close();
    await t.stopAll();
  }
}

const logTx = (t: ServedTestNode, signer: TestAccount, n: number) =>
  frameTx(buildTx(signer, logs(1, 16, n), { chainId: t.chainId, nonce: n }));

export async function submitterCaps(size: { perKeyMax: number; perSourceMax: number }): Promise<void> {
  // The second key's share must stay under the per-key cap so that only the per-source cap binds it.
  assert.ok(size.perKeyMax < size.perSourceMax && size.perSourceMax - size.perKeyMax + 1 <= size.perKeyMax);
  const t = await startServedNode({
    ...fastGateway,
    'queue.per_account_max': size.perSourceMax * 4,
    'queue.per_key_max': size.perKeyMax,
    'queue.per_source_max': size.perSourceMax,
  });
  // The admin's key gets a second account in another domain; `other` is a key of its own.
  const adminKey = t.admin.key.publicKeyText();
  const second = { key: t.admin.key, id: `${adminKey}@second` };
  const other = newAccount('second');
  await run(t, t.admin, [
    { kind: 'RegisterDomain', id: 'second', metadata: new Map() },
    { kind: 'RegisterAccount', id: second.id, metadata: new Map() },
    { kind: 'RegisterAccount', id: other.id, metadata: new Map() },
  ]);
  const one = new Pool(t.url, { connections: 1, localAddress: ip(41, 1) });
  const two = new Pool(t.url, { connections: 1, localAddress: ip(41, 2) });
  try {
    t.node.engine.stop(); // hold block production: the queue can only fill
    let n = 0;
    // One key, its two accounts alternating: the per-account cap is far away, the per-key cap is not.
    const byKey: Answer[] = [];
    for (let i = 0; i < size.perKeyMax + 3; i++)
      byKey.push(await post(one, logTx(t, i % 2 === 0 ? t.admin : second, n++)));
    // The same address, another key: it stops at the per-source cap.
    const bySource: Answer[] = [];
    for (let i = 0; i < size.perSourceMax - size.perKeyMax + 3; i++)
      bySource.push(await post(one, logTx(t, other, n++)));
    // Another address with the same (not yet full) key is still served.
    const elsewhere = await post(two, logTx(t, other, n++));
    figure('submitter caps', {
      [`one key, two accounts, per_key_max ${size.perKeyMax}`]: JSON.stringify(summary(byKey)),
      [`same address, another key, per_source_max ${size.perSourceMax}`]: JSON.stringify(summary(bySource)),
      'another address': `${elsewhere.status} ${elsewhere.code ?? ''}`,
      'queue depth': t.node.pipeline.queue.depth,
    });
    assert.deepEqual(summary(byKey.slice(0, size.perKeyMax)), { '202 ': size.perKeyMax });
    assert.ok(byKey.slice(size.perKeyMax).every((a) => a.status === 429 && a.code === 'key_queue_full'));
    const fill = size.perSourceMax - size.perKeyMax;
    assert.deepEqual(summary(bySource.slice(0, fill)), { '202 ': fill });
    assert.ok(bySource.slice(fill).every((a) => a.status === 429 && a.code === 'source_queue_full'));
    assert.ok([...byKey, ...bySource].every((a) => a.status !== 429 || Number(a.retryAfter) >= 1));
    assert.equal(elsewhere.status, 202);
    assert.equal(t.node.pipeline.queue.depth, size.perSourceMax + 1);
  } finally {
    t.node.engine.start();
    await one.close();
    await two.close();
    await t.stopAll();
  }
}
