import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AnswerCache, type RenderedAnswer } from './answer-cache.js';

const json = (body: string): RenderedAnswer => ({ contentType: 'application/json; charset=utf-8', body });

function cacheAt(limits = { entriesMax: 4, bytesMax: 1600 }) {
  const state = { version: 1 };
  return { state, cache: new AnswerCache(() => state.version, limits) };
}

describe('AnswerCache', () => {
  it('returns what was stored for the same version and counts hits and misses', () => {
    const { cache } = cacheAt();
    assert.equal(cache.lookup('a'), undefined);
    cache.store('a', cache.version(), json('{"n":1}'));
    assert.deepEqual(cache.lookup('a')?.body, '{"n":1}');
    assert.equal(cache.hits, 1);
    assert.equal(cache.misses, 1);
  });

  it('peek counts a hit and leaves a miss to the lookup that follows it', () => {
    const { state, cache } = cacheAt();
    assert.equal(cache.peek('a'), undefined);
    assert.deepEqual({ hits: cache.hits, misses: cache.misses }, { hits: 0, misses: 0 });
    cache.store('a', cache.version(), json('{"n":1}'));
    assert.equal(cache.peek('a')?.body, '{"n":1}');
    assert.deepEqual({ hits: cache.hits, misses: cache.misses }, { hits: 1, misses: 0 });
    state.version++;
    assert.equal(cache.peek('a'), undefined);
    assert.equal(cache.size, 0);
  });

  it('forgets every answer as soon as the version changes', () => {
    const { state, cache } = cacheAt();
    cache.store('a', cache.version(), json('1'));
    cache.store('b', cache.version(), json('2'));
    state.version++;
    assert.equal(cache.lookup('a'), undefined);
    assert.equal(cache.size, 0);
    assert.equal(cache.bytes, 0);
  });

  it('never keeps an answer built from a state that moved on while it was built', () => {
    const { state, cache } = cacheAt();
    const version = cache.version();
    state.version++;
    cache.store('a', version, json('old'));
    assert.equal(cache.lookup('a'), undefined);
  });

  it('holds at most entriesMax answers, dropping the oldest first', () => {
    const { cache } = cacheAt();
    const v = cache.version();
    for (const k of ['a', 'b', 'c', 'd', 'e']) cache.store(k, v, json(k));
    assert.equal(cache.size, 4);
    assert.equal(cache.lookup('a'), undefined);
    assert.equal(cache.lookup('e')?.body, 'e');
  });

  it('holds at most bytesMax bytes and refuses answers above bytesMax / 16', () => {
    const { cache } = cacheAt({ entriesMax: 100, bytesMax: 1600 });
    const v = cache.version();
    cache.store('big', v, json('x'.repeat(98)));
    assert.equal(cache.lookup('big'), undefined);
    // Keys k10..k19: 97 bytes of body and 3 of key each.
    for (let i = 10; i < 30; i++) cache.store(`k${i}`, v, { contentType: 'c', body: Buffer.alloc(97) });
    assert.equal(cache.bytes, 1600);
    assert.equal(cache.size, 16);
    assert.equal(cache.lookup('k13'), undefined);
    assert.ok(cache.lookup('k29') !== undefined);
  });

  it('counts the keys in bytesMax: long URLs cannot hold more than the limit', () => {
    const { cache } = cacheAt({ entriesMax: 100, bytesMax: 16_000 });
    const v = cache.version();
    const url = (i: number) => `/v1/accounts?filter=${'x'.repeat(900)}&n=${i.toString().padStart(3, '0')}`;
    for (let i = 0; i < 100; i++) cache.store(url(i), v, json('{}'));
    assert.ok(cache.bytes <= 16_000, `${cache.bytes} bytes kept`);
    assert.equal(cache.bytes, cache.size * (url(0).length + 2));
    assert.equal(cache.size, Math.floor(16_000 / (url(0).length + 2)));
    assert.ok(cache.lookup(url(99)) !== undefined);
    // A key alone above bytesMax / 16 is never kept.
    cache.store('k'.repeat(1_000), v, json('1'));
    assert.equal(cache.lookup('k'.repeat(1_000)), undefined);
  });

  it('replaces an answer stored twice under one key without counting its bytes twice', () => {
    const { cache } = cacheAt();
    const v = cache.version();
    cache.store('a', v, json('12345'));
    cache.store('a', v, json('123'));
    assert.equal(cache.size, 1);
    assert.equal(cache.bytes, 3 + 'a'.length);
  });

  it('keeps nothing when entriesMax is 0', () => {
    const { cache } = cacheAt({ entriesMax: 0, bytesMax: 1600 });
    cache.store('a', cache.version(), json('1'));
    assert.equal(cache.size, 0);
  });
});
