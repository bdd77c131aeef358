import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asDecimal, compareDecimals } from './decimal.js';
import { compileFilter, FILTER_DEPTH_MAX, FILTER_NODES_MAX, type Predicate } from './filter.js';

const ITEMS = [
  {
    id: 'a',
    total_quantity: '10.50',
    scale: 2,
    metadata: { color: 'red', 'a.b': 1, nested: { x: true } },
    owner: null,
  },
  { id: 'b', total_quantity: '9.5', scale: 1, metadata: { color: 'blue' }, tags: ['x', 'y'] },
  { id: 'c', total_quantity: '100', scale: 0, metadata: {} },
];

function ids(filter: unknown): string[] {
  const p = compileFilter(filter);
  assert.equal(typeof p, 'function', JSON.stringify(p));
  return ITEMS.filter(p as Predicate).map((i) => i.id);
}

function problem(filter: unknown): { path: unknown } {
  const p = compileFilter(filter);
  assert.notEqual(typeof p, 'function');
  assert.equal((p as { code: string }).code, 'invalid_filter');
  return (p as unknown as { details: { path: unknown } }).details;
}

describe('decimal comparison', () => {
  it('compares decimal strings and numbers exactly', () => {
    const c = (a: unknown, b: unknown) => compareDecimals(asDecimal(a)!, asDecimal(b)!);
    assert.equal(c('10.50', '10.5'), 0);
    assert.equal(c('9.99', '10'), -1);
    assert.equal(c('100', '99.999999999999999999999999'), 1);
    assert.equal(c('-1', '0'), -1);
    assert.equal(c('-0', '0'), 0);
    assert.equal(c(1.5, '1.50'), 0);
    assert.equal(
      c('340282366920938463463374607431768211455', '340282366920938463463374607431768211454.9'),
      1,
    );
    assert.equal(asDecimal('007'), undefined);
    assert.equal(asDecimal('1e5'), undefined);
    assert.equal(asDecimal('abc'), undefined);
  });
});

describe('compileFilter', () => {
  it('eq / ne compare decimals by value and other JSON structurally', () => {
    assert.deepEqual(ids({ eq: ['total_quantity', '10.5'] }), ['a']);
    assert.deepEqual(ids({ eq: ['id', 'b'] }), ['b']);
    assert.deepEqual(ids({ eq: ['metadata.nested', { x: true }] }), ['a']);
    assert.deepEqual(ids({ eq: ['tags', ['x', 'y']] }), ['b']);
    assert.deepEqual(ids({ ne: ['metadata.color', 'red'] }), ['b', 'c']);
  });

  it('lt / lte / gt / gte order decimals numerically, strings by code unit', () => {
    assert.deepEqual(ids({ gt: ['total_quantity', '10'] }), ['a', 'c']);
    assert.deepEqual(ids({ gte: ['total_quantity', '10.5'] }), ['a', 'c']);
    assert.deepEqual(ids({ lt: ['total_quantity', 10] }), ['b']);
    assert.deepEqual(ids({ lte: ['scale', 1] }), ['b', 'c']);
    assert.deepEqual(ids({ lt: ['id', 'b'] }), ['a']);
    assert.deepEqual(ids({ gt: ['metadata.color', 'a'] }), ['a', 'b']);
    assert.deepEqual(ids({ gt: ['metadata.nested', 'a'] }), [], 'objects do not order');
  });

  it('in / nin, exists / is_null, and missing fields', () => {
    assert.deepEqual(ids({ in: ['metadata.color', ['red', 'green']] }), ['a']);
    assert.deepEqual(ids({ nin: ['metadata.color', ['red', 'green']] }), ['b', 'c']);
    assert.deepEqual(ids({ in: ['total_quantity', ['9.50']] }), ['b']);
    assert.deepEqual(ids({ exists: 'metadata.color' }), ['a', 'b']);
    assert.deepEqual(ids({ exists: 'owner' }), []);
    assert.deepEqual(ids({ is_null: 'owner' }), ['a', 'b', 'c']);
    assert.deepEqual(ids({ is_null: 'metadata.color' }), ['c']);
    assert.deepEqual(ids({ eq: ['nothing', null] }), []);
  });

  it('resolves dotted metadata keys and array indexes', () => {
    assert.deepEqual(ids({ eq: ['metadata.a.b', 1] }), ['a']);
    assert.deepEqual(ids({ eq: ['metadata.nested.x', true] }), ['a']);
    assert.deepEqual(ids({ eq: ['tags.1', 'y'] }), ['b']);
    assert.deepEqual(ids({ exists: 'tags.2' }), []);
  });

  it('combines with and / or / not', () => {
    assert.deepEqual(ids({ and: [{ gt: ['scale', 0] }, { ne: ['id', 'a'] }] }), ['b']);
    assert.deepEqual(ids({ or: [{ eq: ['id', 'a'] }, { eq: ['id', 'c'] }] }), ['a', 'c']);
    assert.deepEqual(ids({ not: { eq: ['id', 'a'] } }), ['b', 'c']);
  });

  it('refuses malformed expressions, naming the path', () => {
    assert.equal(problem({ and: [{ eq: ['id', 'a'] }, { bogus: 1 }] }).path, '$.and[1].bogus');
    assert.equal(problem({ eq: ['id'] }).path, '$.eq');
    assert.equal(problem({ eq: ['', 1] }).path, '$.eq[0]');
    assert.equal(problem({ lt: ['id', { a: 1 }] }).path, '$.lt[1]');
    assert.equal(problem({ in: ['id', 'a'] }).path, '$.in');
    assert.equal(problem({ exists: 5 }).path, '$.exists');
    assert.equal(problem({ eq: ['id', 1], ne: ['id', 2] }).path, '$');
    assert.equal(problem([]).path, '$');
    assert.equal(problem({ and: [] }).path, '$.and');
    assert.equal(problem({ eq: ['a..b', 1] }).path, '$.eq[0]');
  });

  it('bounds nesting depth and node count', () => {
    let deep: unknown = { eq: ['id', 'a'] };
    for (let i = 1; i < FILTER_DEPTH_MAX; i++) deep = { not: deep };
    assert.equal(typeof compileFilter(deep), 'function');
    assert.match(String(problem({ not: deep }).path), /^\$(\.not)+$/);
    const wide = { or: Array.from({ length: FILTER_NODES_MAX }, () => ({ eq: ['id', 'a'] })) };
    problem(wide);
    problem({ in: ['id', Array.from({ length: FILTER_NODES_MAX }, (_, i) => i)] });
    assert.equal(typeof compileFilter({ in: ['id', Array.from({ length: 100 }, (_, i) => i)] }), 'function');
  });
});
