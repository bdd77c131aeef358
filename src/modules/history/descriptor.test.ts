// The history module's descriptor: its family is built only with the application API, over the ledger of
// the node's committed reads (and served through them, in its place after `telemetry`); the history
// methods are installed on every client by the module's SDK file.

import '../registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RouteFamily } from '../../gateway/family.js';
import { ToranaClient } from '../../sdk/client.js';
import type { CommittedReads, ModuleRouteEnv } from '../descriptor.js';
import { testRouteEnv } from '../test-route-env.js';
import { historyModule } from './descriptor.js';

function env(appApi: boolean) {
  const served: RouteFamily[] = [];
  const counts = { opened: 0 };
  const reads: CommittedReads = {
    deps: { ports: { state: {}, chain: {} } } as never,
    ledger: {} as never,
    events: {} as never,
    blockHeightByHash: async () => undefined,
    peerCount: () => 1,
    serve: (f) => {
      served.push(f);
      return f;
    },
  };
  const e: ModuleRouteEnv = testRouteEnv(
    { 'app_api.enabled': appApi },
    {
      reads: async () => {
        counts.opened++;
        return reads;
      },
    },
  );
  return { env: e, served, counts };
}

describe('history module', () => {
  it('has no family without the application API, and opens no reads', async () => {
    const { env: e, counts } = env(false);
    assert.equal(await historyModule.routes?.(e), undefined);
    assert.equal(counts.opened, 0);
  });

  it('builds its family over the committed reads and serves it through them, at its rank', async () => {
    const { env: e, served, counts } = env(true);
    const family = await historyModule.routes?.(e);
    assert.equal(counts.opened, 1);
    assert.deepEqual(
      served.map((f) => [f.name, f.servedAt]),
      [['history', 420]],
    );
    assert.equal(family, served[0]);
  });

  it('gives every client the history methods', () => {
    const c = new ToranaClient({ url: 'http://127.0.0.1:1' });
    for (const m of [
      'transactionHistory',
      'walkTransactionHistory',
      'accountTransactions',
      'assetDefinitionTransactions',
    ] as const)
      assert.equal(typeof c[m], 'function', m);
  });
});
