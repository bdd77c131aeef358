// The repo agreement routes follow the application API switch (docs/repo.md §Routes): with
// `app_api.enabled = false` none of them is served (404 `not_found`) or in the OpenAPI document, and the
// MCP bridge (an application family itself) is absent with them; the agreements stay ledger state — their
// instructions still commit — since the switch closes routes, not consensus.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { instructions as ix, repoAgreementId } from '../../src/sdk/index.js';
import { submitAndWait } from '../helpers/node.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { buildTx, newAccount } from '../helpers/tx.js';

const PATHS = ['/v1/repo/agreements', '/v1/repo/agreements/query', '/v1/repo/agreements/{id}'];

describe('repo agreement routes with the application API off', () => {
  let t: ServedTestNode;
  before(async () => {
    t = await startServedNode({ 'app_api.enabled': false });
  });
  after(async () => t.stopAll());

  it('initiates an agreement all the same', async () => {
    const bob = newAccount('wonderland', 77);
    const terms = {
      counterparty: bob.id,
      cash: { definition: 'usd#wonderland', quantity: '100.00' },
      collateral: { definition: 'bond#wonderland', quantity: '12' },
      rateBps: 500,
      haircutBps: 200,
      maturityMs: Date.now() + 86_400_000,
      collateralPrice: '10',
      marginWindowMs: 86_400_000,
    };
    const none = () => new Map();
    const def = (id: string, scale: number) => ({
      kind: 'RegisterAssetDefinition' as const,
      id,
      scale,
      mintable: { kind: 'Infinitely' as const },
      metadata: none(),
    });
    const built = buildTx(
      t.admin,
      [
        { kind: 'RegisterDomain', id: 'wonderland', metadata: none() },
        { kind: 'RegisterAccount', id: bob.id, metadata: none() },
        def('usd#wonderland', 2),
        def('bond#wonderland', 0),
        ix.initiateRepo('R-1', terms),
      ],
      { chainId: t.chainId },
    );
    const r = await submitAndWait(t.node, built);
    assert.equal(r.status.kind, 'Committed', JSON.stringify(r.status));
    assert.ok(t.node.ledger.state.tables.repoAgreement.get(repoAgreementId(t.admin.id, 'R-1')));
  });

  it('serves none of the routes (404) and documents none; no MCP bridge', async () => {
    const id = repoAgreementId(t.admin.id, 'R-1');
    for (const [method, path] of [
      ['GET', '/v1/repo/agreements'],
      ['POST', '/v1/repo/agreements/query'],
      ['GET', `/v1/repo/agreements/${id}`],
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
    assert.ok(!JSON.stringify(doc).includes('"repo"'), 'no operation of the family');
  });
});
