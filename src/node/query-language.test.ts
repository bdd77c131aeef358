import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SortKey } from '../gateway/query-port.js';
import { FILTER_DEPTH_MAX } from '../state/filter.js';
import { QUERY_WORK_UNITS_MAX } from '../state/work-budget.js';
import { QUERY_LANGUAGE as q } from './query-language.js';

const keys = (text: string): SortKey[] => {
  const k = q.parseSort(text);
  assert.ok(Array.isArray(k), 'a valid sort');
  return k;
};

describe('the query engine behind the gateway query port', () => {
  it('carries the engine caps', () => {
    assert.equal(q.filterDepthMax, FILTER_DEPTH_MAX);
    assert.equal(q.workUnitsMax, QUERY_WORK_UNITS_MAX);
  });

  it('compiles filters, and refuses a bad one as a value with details', () => {
    const f = q.compileFilter({ gte: ['qty', '10'] });
    assert.equal(typeof f, 'function');
    assert.equal((f as (x: unknown) => boolean)({ qty: '10.5' }), true);
    assert.equal((f as (x: unknown) => boolean)({ qty: 9 }), false);
    const bad = q.compileFilter({ bogus: 1 });
    assert.ok(typeof bad !== 'function');
    assert.equal(typeof bad.message, 'string');
    assert.equal(typeof bad.details, 'object');
    const sort = q.parseSort('qty:sideways');
    assert.ok(!Array.isArray(sort));
    assert.equal(sort.details['sort'], 'qty:sideways');
  });

  it('top keeps the first k ids in sort order, ties by id', () => {
    const rows: [string, unknown][] = [
      ['e', { qty: 5 }],
      ['a', { qty: 7 }],
      ['c', { qty: 5 }],
      ['b', { qty: 9 }],
      ['d', {}],
    ];
    const desc = q.top(3, keys('qty:desc'));
    for (const [id, json] of rows) desc.offer(json, id);
    assert.deepEqual(desc.sorted(), ['b', 'a', 'c']);
    const byId = q.top(10, []);
    for (const [id, json] of rows) byId.offer(json, id);
    assert.deepEqual(byId.sorted(), ['a', 'b', 'c', 'd', 'e']);
  });

  it('a work budget is exceeded past its units and says so in its refusal', () => {
    const b = q.workBudget(10);
    b.charge(10);
    assert.equal(b.exceeded, false);
    b.charge(1);
    assert.equal(b.exceeded, true);
    assert.deepEqual(b.error(3).details, { limit: 10, items_scanned: 3 });
  });
});
