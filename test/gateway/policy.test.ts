// GET /v1/policy answers the limits admission enforces: a node configured with a lower instruction cap
// (and queue caps) shows them, and the cap is what refuses a transaction one instruction over it; the
// SDK's `policy()` and `torana policy` read the same document.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { defaultConfig } from '../../src/config/schema.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { runCli } from '../helpers/cli-in-process.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { buildTx, frameTx } from '../helpers/tx.js';

const INSTRUCTIONS_MAX = 2;

describe('GET /v1/policy', () => {
  let t: ServedTestNode;
  const log = { kind: 'Log' as const, level: { kind: 'Info' as const }, message: 'policy' };
  const submit = async (n: number) => {
    const body = frameTx(buildTx(t.admin, Array(n).fill(log), { chainId: t.chainId }));
    const res = await fetch(`${t.url}/transaction`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-codec' },
      body,
    });
    return { status: res.status, body: (await res.json()) as { code?: string } };
  };

  before(async () => {
    t = await startServedNode({
      'transaction.instructions_max': INSTRUCTIONS_MAX,
      'queue.capacity': 100,
      'queue.per_account_max': 7,
    });
  });
  after(async () => t.stopAll());

  it('answers the configured limits, and admission enforces the same instruction cap', async () => {
    const res = await fetch(`${t.url}/v1/policy`);
    assert.equal(res.status, 200);
    const p = (await res.json()) as {
      transaction: Record<string, unknown>;
      queue: Record<string, unknown>;
      block: { max_weight: number; transactions_weight: number };
      ttl: Record<string, unknown>;
    };
    assert.notEqual(defaultConfig().transaction.instructionsMax, INSTRUCTIONS_MAX);
    assert.equal(p.transaction.instructions_max, INSTRUCTIONS_MAX);
    assert.equal(p.queue.capacity, 100);
    assert.equal(p.queue.per_account_max, 7);
    assert.deepEqual(p.transaction.allowed_algorithms, ['ed25519']);
    assert.equal(p.ttl.queue_expiry_ms, defaultConfig().queue.expiryMs);
    assert.ok(p.block.max_weight > 0 && p.block.transactions_weight < p.block.max_weight);
    assert.equal('fees' in p, false);
    console.log(`policy: ${JSON.stringify(p)}`);

    // The SDK and the CLI read the same document.
    assert.deepEqual(await new ToranaClient({ url: t.url }).policy(), p);
    const json = await runCli(['policy', '--url', t.url, '--json']);
    assert.equal(json.code, 0, json.err);
    assert.deepEqual(JSON.parse(json.out), p);
    const text = await runCli(['policy', '--url', t.url]);
    assert.equal(text.code, 0, text.err);
    assert.match(text.out, new RegExp(`transaction\\.instructions_max\\s+${INSTRUCTIONS_MAX}\\b`));
    assert.match(text.out, /queue\.per_account_max\s+7\b/);

    const over = await submit(INSTRUCTIONS_MAX + 1);
    assert.equal(over.status, 400, JSON.stringify(over.body));
    assert.equal(over.body.code, 'too_many_instructions');
    const at = await submit(INSTRUCTIONS_MAX);
    assert.equal(at.status, 202, JSON.stringify(at.body));
  });
});
