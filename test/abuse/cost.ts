// Abuse scenario on execution cost (docs/cost-model.md): one account sends its worst transactions.
// Before the cost model one transaction of 1,000 ShieldAsset took 35 s to execute and stalled every
// validator; 64 trigger registrations of 64 MintAsset each blew /health p99 up. Now, through the
// gateway's real socket:
// - over the cap (1,000 ShieldAsset; one ShieldAsset more than fits) → 400 transaction_weight_exceeded;
// - `atCap` transactions just under TransactionMaxWeight (two ShieldAssets each) → all commit, at most
//   one account's share per block, so they spread over several blocks;
// - another account's one-instruction transaction, sent after them, still commits, before the last of
//   the flood (the flooding account cannot starve it);
// - /health is polled throughout: p99 printed, asserted only when `assertHealthP99Ms` is given.

import assert from 'node:assert/strict';
import { Pool } from 'undici';
import type { Instruction } from '../../src/model/instructions.js';
import { numeric } from '../../src/model/numeric.js';
import {
  DEFAULT_TRANSACTION_MAX_WEIGHT,
  TRANSACTION_BASE_WEIGHT,
  transactionWeight,
} from '../../src/model/weights.js';
import { toHex } from '../../src/util/hex.js';
import { fieldToHex } from '../../src/zk/field.js';
import { startHealthMonitor } from '../helpers/health-monitor.js';
import { run } from '../helpers/node.js';
import { startServedNode } from '../helpers/served.js';
import { buildTx, frameTx, newAccount } from '../helpers/tx.js';
import { figure } from './clients.js';

interface Answer {
  status: number;
  code?: string;
  hash?: string;
}

async function post(pool: Pool, body: Uint8Array): Promise<Answer> {
  const res = await pool.request({
    method: 'POST',
    path: '/transaction',
    headers: { 'content-type': 'application/x-codec', accept: 'application/json' },
    body: Buffer.from(body),
  });
  const json = (await res.body.json()) as { code?: string; hash?: string; tx_hash?: string };
  return {
    status: res.statusCode,
    ...(json.code === undefined ? {} : { code: json.code }),
    ...((json.hash ?? json.tx_hash) === undefined ? {} : { hash: json.hash ?? json.tx_hash }),
  };
}

const fastGateway = { 'gateway.rate_per_ip_per_s': 1_000_000, 'gateway.rate_burst': 1_000_000 };
let ownerSeq = 1;
// At the default minimum note (one native unit): dust is refused by the minimum as well as by weight.
const shield = (): Instruction => ({
  kind: 'ShieldAsset',
  amount: numeric('1'),
  ownerHash: fieldToHex(BigInt(ownerSeq++)),
});

function p99(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.99))] ?? 0;
}

export async function costAbuse(size: { atCap: number; assertHealthP99Ms?: number }): Promise<void> {
  const t = await startServedNode(fastGateway);
  const pool = new Pool(t.url, { connections: 4 });
  const finals = new Map<string, { kind: string; height: number | undefined }>();
  const off = t.node.pipeline.events.subscribe((env) => {
    const e = env.event;
    if (e.kind !== 'Transaction') return;
    if (e.status.kind === 'Committed' || e.status.kind === 'Rejected' || e.status.kind === 'Expired')
      finals.set(toHex(e.hash), { kind: e.status.kind, height: e.blockHeight });
  });
  let health: ReturnType<typeof startHealthMonitor> | undefined;
  try {
    const domain = t.admin.id.slice(t.admin.id.indexOf('@') + 1);
    const other = newAccount(domain);
    const registered = await run(t, t.admin, [
      { kind: 'RegisterAccount', id: other.id, metadata: new Map() },
    ]);
    assert.equal(registered.status.kind, 'Committed');
    const tx = (instructions: Instruction[]) =>
      frameTx(buildTx(t.admin, instructions, { chainId: t.chainId }));
    health = startHealthMonitor(t.url, 20);
    // The heaviest ShieldAsset transaction under the cap.
    const perShield = transactionWeight([shield()]) - TRANSACTION_BASE_WEIGHT;
    const perTx = Math.floor((DEFAULT_TRANSACTION_MAX_WEIGHT - TRANSACTION_BASE_WEIGHT) / perShield);
    assert.ok(perTx >= 1, 'one ShieldAsset fits a transaction');
    // Over the cap (the reviewed 1,000 ShieldAssets, and one more than fits): refused before the queue.
    const over = [
      await post(pool, tx(Array.from({ length: 1_000 }, shield))),
      await post(pool, tx(Array.from({ length: perTx + 1 }, shield))),
    ];
    for (const a of over) assert.deepEqual([a.status, a.code], [400, 'transaction_weight_exceeded']);
    const heavy = Array.from({ length: size.atCap }, () => Array.from({ length: perTx }, shield));
    const started = Date.now();
    const atCap = await Promise.all(heavy.map((ins) => post(pool, tx(ins))));
    const log: Instruction = { kind: 'Log', level: { kind: 'Info' }, message: 'still served' };
    const victim = await post(pool, frameTx(buildTx(other, [log], { chainId: t.chainId })));
    const heightAtVictim = t.node.ledger.height();
    const hashes = [...atCap, victim].map((a) => a.hash).filter((h): h is string => h !== undefined);
    const deadline = Date.now() + 30_000 + size.atCap * 3_000;
    while (hashes.some((h) => !finals.has(h)) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const ms = Date.now() - started;
    const { latencies, failures } = await health.stop();
    health = undefined;
    const heights = atCap.map((a) => finals.get(a.hash ?? '')?.height ?? -1);
    const victimFinal = finals.get(victim.hash ?? '');
    const healthP99 = p99(latencies);
    figure('execution cost', {
      'over the cap': over.map((a) => `${a.status} ${a.code ?? ''}`).join(' / '),
      [`${size.atCap} transactions of ${perTx} ShieldAsset (weight ${transactionWeight(heavy[0]!)})`]: atCap
        .map((a) => a.status)
        .join(','),
      'their blocks': heights.join(','),
      'other account': `sent at height ${heightAtVictim}, ${victimFinal?.kind} at ${victimFinal?.height}`,
      'settled in': `${ms} ms`,
      '/health p99': `${healthP99.toFixed(1)} ms (max ${Math.max(...latencies).toFixed(1)}) over ${latencies.length} polls`,
    });
    for (const a of atCap) assert.equal(a.status, 202, JSON.stringify(a));
    assert.equal(victim.status, 202);
    for (const a of atCap)
      assert.equal(finals.get(a.hash!)?.kind, 'Committed', 'every at-cap transaction commits');
    assert.equal(victimFinal?.kind, 'Committed');
    // One account's share of a block holds one at-cap transaction: the flood spreads over blocks and the
    // other account's transaction, sent last, is not kept waiting behind all of it.
    assert.equal(new Set(heights).size, heights.length, 'one at-cap transaction per block');
    // Sent after the whole flood, it commits within two blocks, before the flood's last one.
    assert.ok(victimFinal!.height! <= heightAtVictim + 2, 'the other account is not starved');
    if (size.atCap >= 4)
      assert.ok(victimFinal!.height! < Math.max(...heights), 'the other account is not starved');
    assert.deepEqual(failures, []);
    if (size.assertHealthP99Ms !== undefined)
      assert.ok(
        healthP99 <= size.assertHealthP99Ms,
        `/health p99 ${healthP99.toFixed(1)} ms > ${size.assertHealthP99Ms} ms`,
      );
  } finally {
    off();
    await health?.stop().catch(() => undefined);
    await pool.close();
    await t.stopAll();
  }
}
