// Input schemas of generated tools are self-contained: component references are inlined, cycles end in an
// open schema, and `$id` / `$schema` (which would make clients resolve against the node) are dropped.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inlineRefs, takesKey } from './tools.js';

describe('inlineRefs', () => {
  it('inlines component references and drops $id', () => {
    const components = {
      Id: { $id: 'Id', type: 'string', maxLength: 8 },
      Pair: { type: 'object', properties: { a: { $ref: '#/components/schemas/Id' } } },
    };
    assert.deepEqual(inlineRefs({ $ref: '#/components/schemas/Pair' }, components), {
      type: 'object',
      properties: { a: { type: 'string', maxLength: 8 } },
    });
  });

  it('stops a reference cycle with an open schema, and leaves unknown references open', () => {
    const components = {
      Node: { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' } } },
    };
    let depth = 0;
    let s = inlineRefs({ $ref: '#/components/schemas/Node' }, components) as {
      properties?: { next: unknown };
    };
    while (s.properties !== undefined) {
      s = s.properties.next as typeof s;
      depth++;
    }
    assert.deepEqual([s, depth], [{}, 16]);
    assert.deepEqual(inlineRefs({ items: [{ $ref: 'http://elsewhere/x' }] }, {}), { items: [{}] });
  });

  it('finds a property that would carry a private key, at any depth', () => {
    const nested = (name: string) => ({
      type: 'object',
      properties: {
        body: { type: 'object', properties: { wrap: { anyOf: [{ properties: { [name]: {} } }] } } },
      },
    });
    for (const name of ['private_key', 'privateKey', 'seed', 'secret_key'])
      assert.equal(takesKey(nested(name)), true);
    assert.equal(takesKey(nested('public_key')), false);
    assert.equal(
      takesKey({ type: 'object', properties: { id: { type: 'string', description: 'seed' } } }),
      false,
    );
  });
});
