// The explorer module's descriptor: its family is built only with the application API, over the node's
// committed reads (and served through them, in its place after `app-reads`); `client.explorer` is
// installed on every client by the module's SDK file, made once per client.

import '../registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RouteFamily } from '../../gateway/family.js';
import { ToranaClient } from '../../sdk/client.js';
import type { CommittedReads, ModuleRouteEnv } from '../descriptor.js';
import { testRouteEnv } from '../test-route-env.js';
import { explorerModule } from './descriptor.js';
import { ExplorerClient } from './sdk-client.js';

/** A route env whose node parts are never touched; `opened` counts the calls of `reads`. */
function env(appApi: boolean) {
  const served: RouteFamily[] = [];
  const counts = { opened: 0 };
  const reads: CommittedReads = {
    deps: { ports: { state: {}, chain: { height: () => 0 } } } as never,
    ledger: {} as never,
    events: {} as never,
    blockHeightByHash: async () => undefined,
    peerCount: () => 1,
    serve: (f) => {
      served.push(f);
      return { ...f, name: `${f.name} (served)` };
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

describe('explorer module', () => {
  it('has no family without the application API, and opens no reads', async () => {
    const { env: e, counts } = env(false);
    assert.equal(await explorerModule.routes?.(e), undefined);
    assert.equal(counts.opened, 0);
  });

  it('builds its family over the committed reads and serves it through them, after app-reads', async () => {
    const { env: e, served, counts } = env(true);
    const family = (await explorerModule.routes?.(e)) as RouteFamily | undefined;
    assert.equal(counts.opened, 1);
    assert.equal(served.length, 1);
    assert.equal(served[0]!.name, 'explorer');
    assert.equal(served[0]!.servedAt, 110, 'its routes keep their place in the OpenAPI document');
    assert.equal(family?.name, 'explorer (served)', 'the node serves what the reads made of it');
  });

  it('gives every client its explorer readers, made once per client', () => {
    const a = new ToranaClient({ url: 'http://127.0.0.1:1' });
    const b = new ToranaClient({ url: 'http://127.0.0.1:1' });
    assert.ok(a.explorer instanceof ExplorerClient);
    assert.equal(a.explorer, a.explorer);
    assert.notEqual(a.explorer, b.explorer);
  });
});
