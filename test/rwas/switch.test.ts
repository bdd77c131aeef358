// The RWA lots' routes follow the application API switch (docs/rwas.md §Routes): with
// `app_api.enabled = false` none of them is served (404 `not_found`) or in the OpenAPI document, and the
// MCP bridge (an application family itself) is absent with them; the lots stay ledger state — their
// instructions still commit — since the switch closes routes, not consensus.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { instructions as ix, rwaLotId } from '../../src/sdk/index.js';
import { submitAndWait } from '../helpers/node.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { buildTx } from '../helpers/tx.js';

const PATHS = ['/v1/rwas', '/v1/rwas/query', '/v1/explorer/rwas', '/v1/explorer/rwas/{rwa_id}'];

describe('RWA lot routes with the application API off', () => {
  let t: ServedTestNode;
  before(async () => {
    t = await startServedNode({ 'app_api.enabled': false });
  });
  after(async () => t.stopAll());

  it('registers a lot all the same', async () => {
    const built = buildTx(
      t.admin,
      [ix.registerRwa('WR-1', { spec: 'copper', quantity: '5', owner: t.admin.id })],
      {
        chainId: t.chainId,
      },
    );
    const r = await submitAndWait(t.node, built);
    assert.equal(r.status.kind, 'Committed');
    assert.ok(t.node.ledger.state.tables.rwaLot.get(rwaLotId(t.admin.id, 'WR-1')));
  });

  it('serves none of the routes (404) and documents none; no MCP bridge', async () => {
    const lot = rwaLotId(t.admin.id, 'WR-1');
    for (const [method, path] of [
      ['GET', '/v1/rwas'],
      ['POST', '/v1/rwas/query'],
      ['GET', '/v1/explorer/rwas'],
      ['GET', `/v1/explorer/rwas/${lot}`],
      ['GET', '/v1/mcp'],
    ] as const) {
      const res = await fetch(t.url + path, {
        method,
        ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}),
      });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(((await res.json()) as { code: string }).code, 'not_found', path);
    }
    const doc = (await (await fetch(`${t.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    assert.deepEqual(
      PATHS.filter((p) => p in doc.paths),
      [],
    );
    assert.ok(!JSON.stringify(doc).includes('"rwas"'), 'no operation of the family');
  });
});
