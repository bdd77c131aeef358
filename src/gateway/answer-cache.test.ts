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
    cache.store('big', v, json('x'.repeat(101)));
    assert.equal(cache.lookup('big'), undefined);
    for (let i = 0; i < 20; i++) cache.store(`k${i}`, v, { contentType: 'c', body: Buffer.alloc(100) });
    assert.equal(cache.bytes, 1600);
    assert.equal(cache.size, 16);
    assert.equal(cache.lookup('k3'), undefined);
    assert.ok(cache.lookup('k19') !== undefined);
  });

  it('replaces an answer stored twice under one key without counting its bytes twice', () => {
    const { cache } = cacheAt();
    const v = cache.version();
    cache.store('a', v, json('12345'));
    cache.store('a', v, json('123'));
    assert.equal(cache.size, 1);
    assert.equal(cache.bytes, 3);
  });

  it('keeps nothing when entriesMax is 0', () => {
    const { cache } = cacheAt({ entriesMax: 0, bytesMax: 1600 });
    cache.store('a', cache.version(), json('1'));
    assert.equal(cache.size, 0);
  });
});
