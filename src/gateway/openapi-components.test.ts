import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SHARED_SCHEMA_BYTES_MIN, shareResponseSchemas } from './openapi-components.js';

const big = (title: string, extra = '') => ({
  title,
  type: 'object',
  description: 'x'.repeat(SHARED_SCHEMA_BYTES_MIN) + extra,
});
const op = (schema: unknown) => ({ responses: { '200': { content: { 'application/json': { schema } } } } });

describe('shared response schemas', () => {
  it('a large named type under two routes becomes one component; roots, small and differing ones stay inline', () => {
    const paths = {
      '/a': {
        get: op({
          title: 'A',
          type: 'object',
          properties: { i: big('Instruction'), s: { title: 'Small', type: 'string' } },
        }),
      },
      '/b': { get: op({ type: 'array', items: big('Instruction') }) },
      '/c': { get: op({ type: 'object', properties: { x: big('Twice', '1') } }) },
      '/d': { get: op({ type: 'object', properties: { x: big('Twice', '2') } }) },
      '/e': { get: op(big('Root')) },
    };
    const components = shareResponseSchemas(paths);
    assert.deepEqual(Object.keys(components), ['Instruction']);
    assert.deepEqual(components['Instruction'], big('Instruction'));
    const schemaOf = (p: keyof typeof paths) =>
      // biome-ignore lint/suspicious/noExplicitAny: a JSON schema read field by field.
      paths[p].get.responses['200'].content['application/json'].schema as Record<string, any>;
    assert.deepEqual(schemaOf('/a').properties.i, { $ref: '#/components/schemas/Instruction' });
    assert.deepEqual(schemaOf('/b').items, { $ref: '#/components/schemas/Instruction' });
    assert.equal(schemaOf('/a').title, 'A', 'a route root is never replaced');
    assert.equal(schemaOf('/c').properties.x.title, 'Twice', 'copies that differ stay inline');
    assert.equal(schemaOf('/e').title, 'Root');
    assert.deepEqual(
      schemaOf('/a').properties.s,
      { title: 'Small', type: 'string' },
      'small types stay inline',
    );
  });
});
