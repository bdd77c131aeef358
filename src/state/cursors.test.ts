import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { QueryOutput } from '../model/queries.js';
import { type Batch, CursorStore, type Pager, refPager } from './cursors.js';
import type { QueryError } from './errors.js';

const items = (n: number): Pager =>
  refPager(
    Array.from({ length: n }, (_, i) => i),
    (i): QueryOutput => ({ kind: 'Role', value: { id: `r${i}`, permissions: [] } }),
  );

function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

const isError = (v: Batch | QueryError | string): v is QueryError => typeof v === 'object' && 'code' in v;

describe('CursorStore', () => {
  it('hands out batches until the end, then forgets the cursor', () => {
    const c = clock();
    const store = new CursorStore({ capacity: 2, idleExpiryMs: 1000, now: c.now });
    const id = store.open('alice', items(5), 2) as string;
    assert.match(id, /^[0-9a-f]{32}$/);
    const b1 = store.next(id, 'alice') as Batch;
    assert.deepEqual([b1.batch.length, b1.remainingItems, b1.cursor], [2, 3, id]);
    const b2 = store.next(id, 'alice') as Batch;
    const b3 = store.next(id, 'alice') as Batch;
    assert.deepEqual(
      [b2.remainingItems, b3.batch.length, b3.remainingItems, b3.cursor],
      [1, 1, 0, undefined],
    );
    assert.equal(store.size, 0);
    assert.equal((store.next(id, 'alice') as QueryError).code, 'cursor_not_found');
  });

  it('answers only the authority that opened it', () => {
    const store = new CursorStore({ capacity: 2, idleExpiryMs: 1000, now: () => 0 });
    const id = store.open('alice', items(5), 2) as string;
    assert.equal((store.next(id, 'mallory') as QueryError).code, 'cursor_not_found');
    assert.equal((store.next(id, 'alice') as Batch).batch.length, 2);
  });

  it('expires idle cursors with cursor_expired', () => {
    const c = clock();
    const store = new CursorStore({ capacity: 2, idleExpiryMs: 1000, now: c.now });
    const id = store.open('alice', items(5), 2) as string;
    c.advance(1000);
    assert.equal((store.next(id, 'alice') as Batch).batch.length, 2, 'use resets the idle timer');
    c.advance(1001);
    const e = store.next(id, 'alice');
    assert.ok(isError(e));
    assert.equal(e.code, 'cursor_expired');
    assert.equal((store.next(id, 'alice') as QueryError).code, 'cursor_expired');
    assert.equal(store.size, 0);
  });

  it('refuses new cursors when full, until idle ones expire', () => {
    const c = clock();
    const store = new CursorStore({ capacity: 2, idleExpiryMs: 1000, now: c.now });
    store.open('a', items(3), 1);
    store.open('b', items(3), 1);
    const full = store.open('c', items(3), 1);
    assert.ok(isError(full));
    assert.equal(full.code, 'cursors_exhausted');
    c.advance(1001);
    assert.equal(typeof store.open('c', items(3), 1), 'string');
  });

  it('caps the cursors of one authority, and frees a closed cursor from its count', () => {
    const c = clock();
    const store = new CursorStore({ capacity: 10, perAuthorityMax: 2, idleExpiryMs: 1000, now: c.now });
    const first = store.open('a', items(2), 1) as string;
    store.open('a', items(2), 1);
    const refused = store.open('a', items(2), 1);
    assert.ok(isError(refused));
    assert.equal(refused.code, 'cursors_exhausted');
    assert.equal(refused.details.per_account_max, 2);
    assert.equal(typeof store.open('b', items(2), 1), 'string');
    store.next(first, 'a');
    assert.ok(isError(store.open('a', items(2), 1)));
    store.next(first, 'a'); // its last batch closes it
    assert.equal(typeof store.open('a', items(2), 1), 'string');
  });

  it('frees idle cursors on a timer, with no new cursor opened', async () => {
    const c = clock();
    const store = new CursorStore({ capacity: 10, idleExpiryMs: 1000, now: c.now, sweepEveryMs: 5 });
    try {
      const id = store.open('a', items(5), 1) as string;
      assert.equal(store.size, 1);
      c.advance(1001);
      await new Promise((r) => setTimeout(r, 30));
      assert.equal(store.size, 0);
      assert.equal((store.next(id, 'a') as QueryError).code, 'cursor_expired');
    } finally {
      store.close();
    }
  });

  it('uses unguessable ids and retries on a collision', () => {
    const ids = ['x', 'x', 'y'];
    const store = new CursorStore({
      capacity: 4,
      idleExpiryMs: 1000,
      now: () => 0,
      newId: () => ids.shift()!,
    });
    assert.equal(store.open('a', items(3), 1), 'x');
    assert.equal(store.open('a', items(3), 1), 'y');
    const real = new CursorStore({ capacity: 100, idleExpiryMs: 1000, now: () => 0 });
    const seen = new Set(Array.from({ length: 50 }, () => real.open('a', items(2), 1)));
    assert.equal(seen.size, 50);
  });
});
