// storage.warm_up: a served node starts the background warm-up of its world state once it listens, and
// reports it in the state_warm_up_* metrics; off (the default) nothing starts.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startServedNode } from '../../test/helpers/served.js';

async function metric(t: Awaited<ReturnType<typeof startServedNode>>, name: string): Promise<number> {
  const res = await t.served.app.inject({ method: 'GET', url: '/metrics' });
  const m = new RegExp(`^${name} (\\d+)$`, 'm').exec(res.body);
  assert.ok(m !== null, `${name} in /metrics`);
  return Number(m[1]);
}

describe('storage.warm_up', () => {
  it('on: the served node reads its rows and indexes in the background and says so in its metrics', async () => {
    const t = await startServedNode({ 'storage.warm_up': true });
    try {
      assert.ok(t.node.warmUp !== undefined, 'the warm-up started when the node began serving');
      const result = await t.node.warmUp.task.done;
      assert.equal(result.stopped, false);
      // The genesis wrote domains, accounts, assets and their index entries.
      assert.ok(result.keys > 10, `${result.keys} keys`);
      assert.equal(await metric(t, 'state_warm_up_done'), 1);
      assert.equal(await metric(t, 'state_warm_up_bytes'), result.bytes);
    } finally {
      await t.stopAll();
    }
  });

  it('off by default: nothing starts', async () => {
    const t = await startServedNode();
    try {
      assert.equal(t.node.warmUp, undefined);
      assert.equal(await metric(t, 'state_warm_up_done'), 0);
      assert.equal(await metric(t, 'state_warm_up_bytes'), 0);
    } finally {
      await t.stopAll();
    }
  });
});
