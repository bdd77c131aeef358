// storage.warm_up: a served node starts the background warm-up of its world state once it listens, and
// reports it in the state_warm_up_* metrics; off (the default) nothing starts. storage.map_chunks reaches the
// node's state store: its file mapped in chunks of 16 pages, else in one mapping.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startServedNode } from '../../test/helpers/served.js';

async function metric(t: Awaited<ReturnType<typeof startServedNode>>, name: string): Promise<number> {
  const res = await t.served.app.inject({ method: 'GET', url: '/metrics' });
  const m = new RegExp(`^${name} (\\d+)$`, 'm').exec(res.body);
  assert.ok(m !== null, `${name} in /metrics`);
  return Number(m[1]);
}

/** The byte lengths of this process's mappings of the node's state file (/proc/self/maps; Linux). */
function stateMappings(dir: string): number[] {
  const file = join(dir, 'data', 'state', 'data.mdb');
  return readFileSync('/proc/self/maps', 'utf8')
    .split('\n')
    .filter((l) => l.endsWith(` ${file}`))
    .map((l) => {
      const [a, b] = l.split(' ')[0]!.split('-');
      return Number.parseInt(b!, 16) - Number.parseInt(a!, 16);
    });
}

describe('storage.warm_up', () => {
  it('on: the served node reads its rows and indexes in the background and says so in its metrics', async () => {
    const t = await startServedNode({ 'storage.warm_up': true, 'storage.map_chunks': true });
    try {
      if (process.platform === 'linux') {
        const maps = stateMappings(t.dir);
        assert.ok(maps.length > 0 && maps.every((n) => n < 1 << 20), `chunked: ${maps.join(' ')}`);
      }
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
      if (process.platform === 'linux') {
        // One mapping of the whole map (storage.lmdb_map_bytes, 16 GiB by default).
        assert.deepEqual(stateMappings(t.dir), [t.node.config.storage.lmdbMapBytes]);
      }
      assert.equal(t.node.warmUp, undefined);
      assert.equal(await metric(t, 'state_warm_up_done'), 0);
      assert.equal(await metric(t, 'state_warm_up_bytes'), 0);
    } finally {
      await t.stopAll();
    }
  });
});
