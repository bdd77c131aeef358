import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { struct } from '../codec/compound.js';
import { string, varuint } from '../codec/primitives.js';
import { QUERY_LANGUAGE } from '../node/query-language.js';
import type { RouteLimits } from './deps.js';
import { isGatewayError } from './errors.js';
import {
  filterDepth,
  jsonFieldsOf,
  LIST_OFFSET_MAX,
  numberedPagination,
  PER_PAGE_DEFAULT,
  parseListParams,
  parseNumberedPage,
  parsePage,
} from './list.js';
import { arraySource, ITEM_SCAN_UNITS, ScanGate, scanList } from './list-scan.js';

const limits: RouteLimits = {
  listLimitDefault: 3,
  listLimitMax: 5,
  transactionBodyBytesMax: 1024,
  queryBodyBytesMax: 1024,
  fetchSizeMax: 10,
  filterDepthMax: 3,
};

function code(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (isGatewayError(e)) return e.code;
    throw e;
  }
  return 'no error';
}

const items = [
  { id: 'c', qty: '10.5', metadata: { tier: 'gold' } },
  { id: 'a', qty: '9.75', metadata: { tier: 'silver' } },
  { id: 'b', qty: '10.50', metadata: {} },
  { id: 'd', qty: '100', metadata: { tier: 'gold' } },
];
const fields = ['id', 'qty', 'metadata'];
const ids = (input: Parameters<typeof parseListParams>[0], l: RouteLimits = limits) =>
  scanList(
    arraySource(items, (x) => x.id),
    parseListParams(input, l, fields, QUERY_LANGUAGE),
    (x) => x,
  );

describe('list parameters', () => {
  it('defaults limit and offset and accepts the bounds', () => {
    assert.deepEqual(parsePage({}, limits), { limit: 3, offset: 0 });
    assert.deepEqual(parsePage({ limit: '5', offset: '7' }, limits), { limit: 5, offset: 7 });
    assert.deepEqual(parsePage({ limit: 1, offset: 0 }, limits), { limit: 1, offset: 0 });
  });

  it('refuses limit 0, above the cap, fractions, signs, text and huge offsets with invalid_pagination', () => {
    for (const limit of ['0', '6', '1.5', '-1', 'abc', '', '01', 1.5, 0])
      assert.equal(
        code(() => parsePage({ limit }, limits)),
        'invalid_pagination',
        String(limit),
      );
    for (const offset of ['-1', 'x', '2.0', String(LIST_OFFSET_MAX + 1), 0.5])
      assert.equal(
        code(() => parsePage({ offset }, limits)),
        'invalid_pagination',
        String(offset),
      );
  });

  it('measures filter depth the way compileFilter counts it and stops at the cap', () => {
    assert.equal(filterDepth({ eq: ['id', 'a'] }, 10), 1);
    assert.equal(filterDepth({ not: { and: [{ eq: ['id', 'a'] }] } }, 10), 3);
    let deep: unknown = { eq: ['id', 'a'] };
    for (let i = 0; i < 10_000; i++) deep = { not: deep };
    assert.equal(filterDepth(deep, 4), 5);
  });

  it('refuses bad filters with invalid_filter and honours the configured depth cap', () => {
    assert.equal(
      code(() => parseListParams({ filterText: '{not json' }, limits, fields, QUERY_LANGUAGE)),
      'invalid_filter',
    );
    assert.equal(
      code(() => parseListParams({ filter: { bogus: 1 } }, limits, fields, QUERY_LANGUAGE)),
      'invalid_filter',
    );
    const ok = { not: { not: { eq: ['id', 'a'] } } }; // depth 3 == filterDepthMax
    assert.equal(typeof parseListParams({ filter: ok }, limits, fields, QUERY_LANGUAGE).filter, 'function');
    assert.equal(
      code(() => parseListParams({ filter: { not: ok } }, limits, fields, QUERY_LANGUAGE)),
      'invalid_filter',
    );
  });

  it('refuses bad sorts and unknown fields with invalid_sort', () => {
    for (const sort of ['id:up', 'nope:asc', 'id,id', 'a:b:c', 42])
      assert.equal(
        code(() => parseListParams({ sort }, limits, fields, QUERY_LANGUAGE)),
        'invalid_sort',
        String(sort),
      );
    assert.equal(
      parseListParams({ sort: 'metadata.tier:desc' }, limits, fields, QUERY_LANGUAGE).sort.length,
      1,
    );
  });
});

describe('scanList', () => {
  it('answers a counted source without filter or sort from its count and first ids, never listing them', async () => {
    const all = Array.from({ length: 100_000 }, (_, i) => `h${String(i).padStart(6, '0')}`);
    const read = { listed: 0, first: 0, counted: 0 };
    const source = {
      ids: () => {
        read.listed++;
        return all;
      },
      get: (id: string) => ({ id }),
      count: () => {
        read.counted++;
        return all.length;
      },
      firstIds: (n: number) => {
        read.first += n;
        return all.slice(0, n);
      },
    };
    const p = parseListParams({ limit: 2, offset: 3 }, limits, ['id'], QUERY_LANGUAGE);
    const r = await scanList(source, p, (x) => x);
    assert.deepEqual(r, { items: [{ id: 'h000003' }, { id: 'h000004' }], total: 100_000 });
    assert.deepEqual(read, { listed: 0, first: 5, counted: 1 }, 'five ids and one count read');
    // A source that cannot tell its first ids (undefined) is listed as before; a filter scans.
    const listed = await scanList({ ...source, firstIds: () => undefined }, p, (x) => x);
    assert.deepEqual(listed, r);
    assert.equal(read.listed, 1);
  });

  it('orders by id by default and pages with offset and limit', async () => {
    const r = await ids({ limit: 2, offset: 1 });
    assert.deepEqual(
      r.items.map((x) => x.id),
      ['b', 'c'],
    );
    assert.equal(r.total, 4);
    assert.deepEqual(await ids({ offset: 10 }), { items: [], total: 4 });
  });

  it('filters on decimals numerically and on metadata keys; total counts the matches', async () => {
    const gt = await ids({ filter: { gt: ['qty', '10'] }, limit: 5 });
    assert.deepEqual(
      gt.items.map((x) => x.id),
      ['b', 'c', 'd'],
    );
    const gold = await ids({ filterText: '{"eq":["metadata.tier","gold"]}', limit: 1 });
    assert.deepEqual(
      gold.items.map((x) => x.id),
      ['c'],
    );
    assert.equal(gold.total, 2);
  });

  it('sorts by decimals both ways with id as the tie-break', async () => {
    assert.deepEqual(
      (await ids({ sort: 'qty:desc', limit: 5 })).items.map((x) => x.id),
      ['d', 'b', 'c', 'a'],
    );
    assert.deepEqual(
      (await ids({ sort: 'qty:asc', limit: 5 })).items.map((x) => x.id),
      ['a', 'b', 'c', 'd'],
    );
  });

  it('stops a filtered scan with query_budget_exceeded once its work budget is spent', async () => {
    // Four items cost 4 * ITEM_SCAN_UNITS plus the filter's work: a budget of two items' worth is too small.
    const small = { ...limits, workUnitsMax: 2 * ITEM_SCAN_UNITS };
    await assert.rejects(ids({ filter: { exists: 'id' } }, small), { code: 'query_budget_exceeded' });
    await assert.rejects(ids({ sort: 'qty' }, small), { code: 'query_budget_exceeded' });
    // Unfiltered, unsorted pages read only the page: no budget is charged.
    assert.equal((await ids({ limit: 1 }, small)).total, 4);
    assert.equal((await ids({ filter: { exists: 'id' } }, { ...small, workUnitsMax: 1000 })).total, 4);
  });

  it('runs at most ScanGate.max scans at once; the others wait their turn', async () => {
    const gate = new ScanGate(2);
    let running = 0;
    let peak = 0;
    const scan = async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      return 1;
    };
    const results = await Promise.all(Array.from({ length: 7 }, () => gate.run(scan)));
    assert.deepEqual([results.length, peak], [7, 2]);
    await assert.rejects(
      gate.run(async () => {
        throw new Error('boom');
      }),
    );
    assert.equal(await gate.run(scan), 1); // a failed scan gave its slot back
  });

  it('refuses a filter whose values are larger than filterValueCharsMax in all', () => {
    const l = { ...limits, filterValueCharsMax: 100 };
    const values = Array.from({ length: 10 }, (_, i) => `value-${i}-${'x'.repeat(10)}`);
    assert.equal(
      code(() => parseListParams({ filter: { in: ['id', values] } }, l, fields, QUERY_LANGUAGE)),
      'invalid_filter',
    );
    assert.equal(
      typeof parseListParams({ filter: { in: ['id', values.slice(0, 3)] } }, l, fields, QUERY_LANGUAGE)
        .filter,
      'function',
    );
  });

  it('lists the JSON field names of a struct view', () => {
    assert.deepEqual(jsonFieldsOf(struct('T', { id: string(8), totalQuantity: varuint })), [
      'id',
      'total_quantity',
    ]);
  });
});

describe('numbered pages (page, per_page)', () => {
  it('defaults to page 1 of PER_PAGE_DEFAULT (capped by the list cap)', () => {
    const big = { ...limits, listLimitMax: 500 };
    assert.deepEqual(parseNumberedPage({}, big), { page: 1, perPage: PER_PAGE_DEFAULT, offset: 0 });
    assert.deepEqual(parseNumberedPage({}, limits), { page: 1, perPage: 5, offset: 0 });
    assert.deepEqual(parseNumberedPage({ page: '3', per_page: '4' }, limits), {
      page: 3,
      perPage: 4,
      offset: 8,
    });
  });

  it('refuses page 0, per_page 0 or above the cap', () => {
    for (const q of [{ page: '0' }, { per_page: '0' }, { per_page: '6' }, { page: 'x' }, { page: '1e3' }])
      assert.equal(
        code(() => parseNumberedPage(q, limits)),
        'invalid_pagination',
        JSON.stringify(q),
      );
  });

  it('computes total_pages with a ceiling, 0 for an empty list', () => {
    const p = { page: 2, perPage: 4, offset: 4 };
    assert.deepEqual(numberedPagination(p, 9), { page: 2, perPage: 4, totalPages: 3, totalItems: 9 });
    assert.deepEqual(numberedPagination(p, 8).totalPages, 2);
    assert.deepEqual(numberedPagination(p, 0).totalPages, 0);
  });
});
