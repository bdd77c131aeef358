// Abuse scenario on query cursors, through real sockets: one account sends many
// signed `Start FindTransactions` with `fetchSize: 1` against a chain of thousands of transactions.
// Before the fix each Start re-read every block (340-500 ms) and its cursor kept ~8 MB of decoded
// transactions (0.43 → 3.4 GB). Pass: beyond `query.cursors_per_account_max` the account is refused 429
// cursors_exhausted while another account still opens cursors; a Start costs about the same on a short and
// a long chain; heap after GC grows by little; and the idle cursors are freed by the sweep timer
// (`query_cursors_open` back to 0) without any new cursor being opened. The node's clock is a JumpClock:
// the cursors are counted first, then time jumps past their idle limit, so a slow machine cannot
// expire them before they are counted.

import assert from 'node:assert/strict';
import { encode, encodeFrame } from '../../src/codec/frame.js';
import { hash } from '../../src/crypto/hash.js';
import { QueryPayloadCodec, type QueryRequest, SignedQueryCodec } from '../../src/model/queries.js';
import { SCHEMA } from '../../src/model/schema.js';
import { JumpClock } from '../helpers/jump-clock.js';
import { run } from '../helpers/node.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { timingBound } from '../helpers/timing-bound.js';
import { newAccount, type TestAccount } from '../helpers/tx.js';
import { figure, memoryAfterGc, mib, waitFor } from './clients.js';
import { type Answer, loadFromWorker } from './load-worker.js';
import { quantile } from './query-cost.js';
import { logTransactions } from './query-state.js';

export interface CursorFloodSize {
  /** Transactions on the short chain; the long chain has ten times as many. */
  transactions: number;
  /** Start requests the flooding account sends. */
  requests: number;
  perAccountMax: number;
  idleMs: number;
}

function signedQuery(t: ServedTestNode, signer: TestAccount, request: QueryRequest): Uint8Array {
  const payload = { chainId: t.chainId, authority: signer.id, creationTimeMs: Date.now(), request };
  const signature = signer.key.sign(hash(encode(QueryPayloadCodec, payload)));
  return encodeFrame(SCHEMA, SignedQueryCodec, { payload, signature });
}

/** `n` distinct Starts (their `limit` differs, so no two payloads are equal). */
function starts(t: ServedTestNode, signer: TestAccount, n: number, from = 0) {
  return Array.from({ length: n }, (_, i) => ({
    method: 'POST' as const,
    path: '/query',
    body: signedQuery(t, signer, {
      kind: 'Start',
      query: { kind: 'FindTransactions' },
      params: { offset: 0, limit: 1_000_000 + from + i, fetchSize: 1 },
    }),
  }));
}

async function openCursors(t: ServedTestNode): Promise<number> {
  const text = await (await fetch(`${t.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('query_cursors_open '));
  assert.ok(line !== undefined, 'query_cursors_open is exported');
  return Number(line.split(' ')[1]);
}

/** Median ms of `n` sequential Starts by `signer` that close at once (limit 1: no cursor kept). */
async function startCost(t: ServedTestNode, signer: TestAccount, n: number): Promise<number> {
  const requests = Array.from({ length: n }, (_, i) => ({
    method: 'POST' as const,
    path: '/query',
    body: signedQuery(t, signer, {
      kind: 'Start',
      query: { kind: 'FindTransactions' },
      params: { offset: i, limit: 1, fetchSize: 1 },
    }),
  }));
  const answers = await loadFromWorker(t.url, requests, 1);
  for (const a of answers) assert.equal(a.status, 200);
  return quantile(
    answers.map((a) => a.ms),
    0.5,
  );
}

function tally(answers: Answer[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of answers) {
    const k = a.status === 200 ? (a.cursor ? '200 cursor' : '200') : `${a.status} ${a.code}`;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

export async function cursorFlood(size: CursorFloodSize): Promise<void> {
  const clock = new JumpClock();
  const t = await startServedNode(
    {
      'telemetry.profile': 'full',
      'query.cursors_per_account_max': size.perAccountMax,
      'query.cursor_idle_ms': size.idleMs,
    },
    { clock },
  );
  try {
    const other = newAccount('wonderland');
    await run(t, t.admin, [
      { kind: 'RegisterDomain', id: 'wonderland', metadata: new Map() },
      { kind: 'RegisterAccount', id: other.id, metadata: new Map() },
    ]);
    await logTransactions(t, size.transactions);
    const shortMs = await startCost(t, t.admin, 20);
    await logTransactions(t, size.transactions * 9);
    await startCost(t, t.admin, 1); // the first Start on the longer chain counts its new blocks once
    const longMs = await startCost(t, t.admin, 20);
    const before = memoryAfterGc();
    const flood = await loadFromWorker(t.url, starts(t, t.admin, size.requests), 8);
    const counts = tally(flood);
    assert.equal(counts['200 cursor'], size.perAccountMax, JSON.stringify(counts));
    assert.equal(counts['429 cursors_exhausted'], size.requests - size.perAccountMax, JSON.stringify(counts));
    const bystander = await loadFromWorker(t.url, starts(t, other, 1), 1);
    assert.deepEqual([bystander[0]!.status, bystander[0]!.cursor], [200, true]);
    const held = memoryAfterGc();
    assert.equal(await openCursors(t), size.perAccountMax + 1);
    // Expiry frees them on its own: nothing is opened from here on, only /metrics is read. The sweep
    // timer runs at least every second; time jumps past the idle limit.
    clock.jump(size.idleMs + 1);
    await waitFor('idle cursors swept', async () => (await openCursors(t)) === 0, 30_000, 50);
    const after = memoryAfterGc();
    const grew = held.heapUsed - before.heapUsed;
    figure('cursor flood', {
      log_txs_short: size.transactions,
      log_txs_long: size.transactions * 10,
      start_p50_short_ms: shortMs,
      start_p50_long_ms: longMs,
      requests: size.requests,
      answers: JSON.stringify(counts),
      heap_before: mib(before.heapUsed),
      heap_with_cursors: mib(held.heapUsed),
      heap_after_expiry: mib(after.heapUsed),
    });
    // Cursors hold positions: the flood's heap growth stays far below one old cursor's 8 MB.
    assert.ok(grew < 8 * 1024 * 1024, `heap grew ${mib(grew)} under the flood`);
    // Cost independent of chain length: ten times the chain, about the same Start (noise allowed).
    // Printed by `npm test`, asserted by the reliability suite.
    timingBound({
      what: `query Start p50 on a 10x longer chain (${shortMs.toFixed(1)} ms on the short one)`,
      value: longMs,
      max: Math.round(Math.max(20, shortMs * 3)),
    });
  } finally {
    await t.stopAll();
  }
}
