// Abuse scenario on the transaction queue, flooded beyond capacity (65,536 in total: 429 with
// Retry-After, then it drains; memory bounded):
// with block production held, a flood of valid transactions over HTTP fills the queue to exactly its
// capacity and every further one is refused 429 queue_full with Retry-After; released, the queue drains
// and every accepted transaction commits. Then a flood against a running node from a client that honours
// Retry-After: everything it sent commits eventually (how many 429s it meets depends on how fast this
// machine commits). Nothing accepted may be lost.

import assert from 'node:assert/strict';
import { Pool } from 'undici';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { buildTx, frameTx } from '../helpers/tx.js';
import { figure, memoryAfterGc, mib, sleep } from './clients.js';
import { watchCommits } from './commits.js';

export interface QueueSize {
  capacity: number;
  /** The flood is this many times the capacity. */
  factor: number;
  concurrency: number;
}

interface Answer {
  status: number;
  code?: string;
  hash?: string;
  retryAfter?: string;
}

async function post(pool: Pool, body: Uint8Array): Promise<Answer> {
  const res = await pool.request({
    method: 'POST',
    path: '/transaction',
    headers: { 'content-type': 'application/x-codec', accept: 'application/json' },
    body: Buffer.from(body),
  });
  const json = (await res.body.json()) as { code?: string; tx_hash?: string };
  const retry = res.headers['retry-after'];
  return {
    status: res.statusCode,
    ...(json.code === undefined ? {} : { code: json.code }),
    ...(json.tx_hash === undefined ? {} : { hash: json.tx_hash }),
    ...(typeof retry === 'string' ? { retryAfter: retry } : {}),
  };
}

/** Posts every body with `concurrency` requests in flight; answers in body order. */
async function flood(pool: Pool, bodies: Uint8Array[], concurrency: number): Promise<Answer[]> {
  const out: Answer[] = new Array(bodies.length);
  let next = 0;
  const lane = async () => {
    while (next < bodies.length) {
      const i = next++;
      out[i] = await post(pool, bodies[i]!);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return out;
}

function logTxs(t: ServedTestNode, n: number, from: number): Uint8Array[] {
  return Array.from({ length: n }, (_, i) =>
    frameTx(
      buildTx(t.admin, [{ kind: 'Log', level: { kind: 'Info' }, message: `flood ${from + i}` }], {
        chainId: t.chainId,
        nonce: from + i,
      }),
    ),
  );
}

/** A client that honours Retry-After: resends each refused body until it is accepted. */
async function honouringClient(
  pool: Pool,
  bodies: Uint8Array[],
  concurrency: number,
): Promise<{ hashes: string[]; refusals: number }> {
  let pending = bodies.map((b, i) => ({ b, i }));
  const hashes: string[] = [];
  let refusals = 0;
  while (pending.length > 0) {
    const answers = await flood(
      pool,
      pending.map((p) => p.b),
      concurrency,
    );
    const again: typeof pending = [];
    let waitS = 0;
    for (const [k, a] of answers.entries()) {
      if (a.status === 202 && a.hash !== undefined) hashes.push(a.hash);
      else if (a.status === 429) {
        refusals++;
        again.push(pending[k]!);
        waitS = Math.max(waitS, Number(a.retryAfter ?? 1));
      } else throw new Error(`unexpected answer ${a.status} ${a.code}`);
    }
    pending = again;
    if (pending.length > 0) await sleep(waitS * 1000);
  }
  return { hashes, refusals };
}

export async function queueFlood(size: QueueSize): Promise<void> {
  const t = await startServedNode({
    'queue.capacity': size.capacity,
    'queue.per_account_max': size.capacity,
    'queue.per_key_max': size.capacity,
    'queue.per_source_max': size.capacity,
    'gateway.rate_per_ip_per_s': 1_000_000,
    'gateway.rate_burst': 1_000_000,
  });
  const pool = new Pool(t.url, { connections: size.concurrency });
  const watch = watchCommits(t.node);
  try {
    const bodies = logTxs(t, size.capacity * size.factor, 0);
    const before = memoryAfterGc();
    t.node.engine.stop(); // hold block production: the queue can only fill
    const answers = await flood(pool, bodies, size.concurrency);
    const held = memoryAfterGc();
    const accepted = answers.filter((a) => a.status === 202);
    const refused = answers.filter((a) => a.status === 429);
    const odd = answers.filter((a) => a.status !== 202 && a.status !== 429);
    const depthWhenFull = t.node.pipeline.queue.depth;
    watch.expect(accepted.map((a) => a.hash!));
    const drainStarted = Date.now();
    t.node.engine.start();
    const drained = await watch.settled(60_000);
    const drainMs = Date.now() - drainStarted;
    // The refused bodies, sent again now that the queue has room, are accepted and commit too.
    const retried = answers.flatMap((a, i) => (a.status === 429 ? [bodies[i]!] : []));
    const second = await honouringClient(pool, retried, size.concurrency);
    watch.expect(second.hashes);
    const live = await honouringClient(
      pool,
      logTxs(t, size.capacity * size.factor, bodies.length),
      size.concurrency,
    );
    watch.expect(live.hashes);
    const settled = await watch.settled(60_000);
    const after = memoryAfterGc();
    figure('queue flood', {
      [`held node, ${bodies.length} sent, capacity ${size.capacity}`]: `${accepted.length} accepted, ${refused.length} refused 429 ${refused[0]?.code} Retry-After ${refused[0]?.retryAfter}`,
      'queue depth when full': depthWhenFull,
      'drained and committed': `${accepted.length} in ${drainMs} ms`,
      'refused ones resent': `${second.hashes.length} accepted (${second.refusals} more 429s)`,
      [`running node, ${bodies.length} sent by a client honouring Retry-After`]: `${live.hashes.length} accepted after ${live.refusals} 429s`,
      committed: watch.finals.get('Committed') ?? 0,
      'RSS delta while full / after': `${mib(held.rss - before.rss)} / ${mib(after.rss - before.rss)}`,
      lost: watch.pending(),
    });
    assert.deepEqual(
      odd.map((a) => `${a.status} ${a.code}`),
      [],
    );
    assert.equal(accepted.length, size.capacity, 'the queue admits exactly its capacity');
    assert.equal(depthWhenFull, size.capacity);
    assert.ok(
      refused.every((a) => a.code === 'queue_full' && Number(a.retryAfter) >= 1),
      'every refusal is 429 queue_full with Retry-After',
    );
    assert.ok(drained, 'every accepted transaction committed once the queue was released');
    assert.equal(second.hashes.length, refused.length);
    assert.equal(live.hashes.length, bodies.length);
    assert.ok(settled, `${watch.pending()} accepted transactions never committed`);
    assert.equal(watch.finals.get('Rejected') ?? 0, 0);
    assert.equal(t.node.pipeline.queue.depth, 0);
  } finally {
    watch.stop();
    await pool.close();
    await t.stopAll();
  }
}
