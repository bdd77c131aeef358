// The content routes follow the application API switch (docs/content.md §Routes): with
// `app_api.enabled = false` none of them is served (404 `not_found`) or in the OpenAPI document, and no
// file is taken or stored; bundles stay ledger state — their instructions still commit — since the
// switch closes routes, not consensus.

import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { nodeFiles } from '../../src/node/files.js';
import { contentBundleId, contentFile, instructions as ix } from '../../src/sdk/index.js';
import { run } from '../helpers/node.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

const FILES = [contentFile('a.txt', new TextEncoder().encode('a'), 'text/plain')];

describe('content routes with the application API off', () => {
  let t: ServedTestNode;
  before(async () => {
    t = await startServedNode({ 'app_api.enabled': false });
  });
  after(async () => t.stopAll());

  it('registers a bundle all the same', async () => {
    const r = await run(t, t.admin, [ix.registerContentBundle(FILES)]);
    assert.equal(r.status.kind, 'Committed');
    assert.ok(t.node.ledger.state.tables.contentBundle.get(contentBundleId(t.admin.id, FILES)));
  });

  it('serves none of the routes (404) and documents none; stores nothing', async () => {
    const id = contentBundleId(t.admin.id, FILES);
    for (const [method, path] of [
      ['GET', `/v1/content/${id}`],
      ['GET', `/v1/content/${id}/a.txt`],
      ['POST', `/v1/content/${id}/a.txt`],
    ] as const) {
      const res = await fetch(t.url + path, {
        method,
        ...(method === 'POST' ? { headers: { 'content-type': 'application/octet-stream' }, body: 'a' } : {}),
      });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(((await res.json()) as { code: string }).code, 'not_found', path);
    }
    const doc = (await (await fetch(`${t.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    assert.deepEqual(
      Object.keys(doc.paths).filter((p) => p.startsWith('/v1/content')),
      [],
    );
    const text = JSON.stringify(doc);
    assert.ok(!text.includes('"x-ledger-family":"content"'), 'no operation of the family');
    assert.ok(!/getContentBundle|getContentFile|uploadContentFile/.test(text));
    assert.ok(!(await readdir(nodeFiles(t.dir).data)).includes('content'), 'no store opened');
  });
});
