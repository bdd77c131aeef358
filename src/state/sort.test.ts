import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSort, SORT_KEYS_MAX, type SortKey, sortItems } from './sort.js';

interface Row {
  id: string;
  total?: string | null;
  name?: string;
  flag?: boolean;
}

const ROWS: Row[] = [
  { id: 'd', total: '10', name: 'x' },
  { id: 'a', total: '9.5', name: 'y' },
  { id: 'c', total: null, name: 'x' },
  { id: 'b', total: '10.00', name: 'x' },
  { id: 'e', name: 'y' },
];

function order(sort: string, rows = ROWS): string[] {
  const keys = parseSort(sort);
  assert.ok(Array.isArray(keys), JSON.stringify(keys));
  return sortItems(
    rows,
    keys as SortKey[],
    (r) => r,
    (r) => r.id,
  ).map((r) => r.id);
}

describe('sort', () => {
  it('orders decimals numerically, ties by id, missing and null last', () => {
    assert.deepEqual(order('total:asc'), ['a', 'b', 'd', 'c', 'e']);
    assert.deepEqual(order('total'), ['a', 'b', 'd', 'c', 'e']);
    assert.deepEqual(order('total:desc'), ['b', 'd', 'a', 'c', 'e']);
  });

  it('uses later keys to break ties', () => {
    assert.deepEqual(order('name:asc,total:desc'), ['b', 'd', 'c', 'a', 'e']);
    assert.deepEqual(order('name:desc, id:desc'), ['e', 'a', 'd', 'c', 'b']);
  });

  it('is deterministic whatever the input order', () => {
    const reversed = [...ROWS].reverse();
    assert.deepEqual(order('name', reversed), order('name'));
    assert.deepEqual(order('name'), ['b', 'c', 'd', 'a', 'e']);
  });

  it('refuses bad sort expressions', () => {
    const bad = [
      '',
      'total:up',
      'a:asc:x',
      ',',
      'a,a',
      'a..b',
      Array.from({ length: SORT_KEYS_MAX + 1 }, (_, i) => `f${i}`).join(','),
    ];
    for (const s of bad) {
      const r = parseSort(s);
      assert.ok(!Array.isArray(r), s);
      assert.equal((r as { code: string }).code, 'invalid_sort');
    }
    assert.ok(
      Array.isArray(parseSort(Array.from({ length: SORT_KEYS_MAX }, (_, i) => `f${i}:desc`).join(','))),
    );
  });
});
