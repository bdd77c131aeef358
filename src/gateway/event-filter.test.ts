import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Event } from '../model/events.js';
import { QUERY_LANGUAGE } from '../node/query-language.js';
import { toHex } from '../util/hex.js';
import {
  compileEventFilter,
  type EventFields,
  eventName,
  FILTER_TEXT_CHARS_MAX,
  parseEventFilter,
  projectEvent,
} from './event-filter.js';

const hashA = new Uint8Array(32).fill(0xab);
const hashB = new Uint8Array(32).fill(0x01);

const queued: Event = { kind: 'Transaction', hash: hashA, status: { kind: 'Queued' } };
const committed: Event = { kind: 'Transaction', hash: hashA, status: { kind: 'Committed' }, blockHeight: 7 };
const otherTx: Event = { kind: 'Transaction', hash: hashB, status: { kind: 'Committed' }, blockHeight: 8 };
const applied: Event = { kind: 'Block', height: 7, hash: hashB, status: { kind: 'Applied' } };
const data: Event = {
  kind: 'Data',
  blockHeight: 7,
  transactionHash: hashA,
  data: { kind: 'AccountCreated', id: 'alice@wonderland' } as never,
};
const all = [queued, committed, otherTx, applied, data];

function selected(text: string, depthMax = 10): number[] {
  const f = parseEventFilter(text, depthMax, QUERY_LANGUAGE);
  assert.ok(f.ok, JSON.stringify(f));
  return all.flatMap((e, i) => (f.match(projectEvent(e)) ? [i] : []));
}

describe('event projection', () => {
  it('projects each kind onto the filter fields', () => {
    assert.deepEqual(projectEvent(queued), {
      kind: 'transaction',
      tx_status: 'Queued',
      tx_hash: toHex(hashA),
    });
    assert.deepEqual(projectEvent(committed), {
      kind: 'transaction',
      tx_status: 'Committed',
      tx_hash: toHex(hashA),
      block_height: 7,
    } satisfies EventFields);
    assert.deepEqual(projectEvent(applied), { kind: 'block', block_status: 'Applied', block_height: 7 });
    assert.deepEqual(projectEvent(data), {
      kind: 'data',
      tx_hash: toHex(hashA),
      block_height: 7,
      data_kind: 'AccountCreated',
    });
    assert.deepEqual(all.map(eventName), ['transaction', 'transaction', 'transaction', 'block', 'data']);
  });
});

describe('event filters', () => {
  it('no filter or an empty one matches everything', () => {
    assert.deepEqual(selected(''), [0, 1, 2, 3, 4]);
    const none = parseEventFilter(undefined, 10, QUERY_LANGUAGE);
    assert.ok(none.ok && none.match(projectEvent(applied)));
  });

  it('selects by hash, status, height, kind and data kind', () => {
    assert.deepEqual(selected(JSON.stringify({ eq: ['tx_hash', toHex(hashA)] })), [0, 1, 4]);
    assert.deepEqual(selected('{"in":["tx_status",["Committed","Rejected"]]}'), [1, 2]);
    assert.deepEqual(selected('{"and":[{"eq":["kind","block"]},{"eq":["block_status","Applied"]}]}'), [3]);
    assert.deepEqual(selected('{"gte":["block_height",8]}'), [2]);
    assert.deepEqual(selected('{"not":{"exists":"block_height"}}'), [0]);
    assert.deepEqual(
      selected('{"or":[{"eq":["data_kind","AccountCreated"]},{"eq":["tx_status","Queued"]}]}'),
      [0, 4],
    );
  });

  it('refuses bad JSON, unknown operators and unknown fields, naming the path', () => {
    const bad = (text: string) => {
      const f = parseEventFilter(text, 10, QUERY_LANGUAGE);
      assert.equal(f.ok, false, text);
      return f.ok ? undefined : f.details;
    };
    assert.deepEqual(bad('{"eq":'), { path: '$', reason: 'not valid JSON' });
    assert.equal(bad('{"near":["tx_hash","ab"]}')?.path, '$.near');
    assert.match(bad('{"and":[{"eq":["status","Committed"]}]}')?.reason ?? '', /unknown field status/);
    assert.equal(bad('{"and":[{"eq":["status","Committed"]}]}')?.path, '$.and[0].eq');
    assert.match(bad('{"exists":"tx_hash.x"}')?.reason ?? '', /unknown field/);
    assert.match(bad('[1,2]')?.reason ?? '', /one operator/);
    assert.match(bad(`"${'x'.repeat(FILTER_TEXT_CHARS_MAX)}"`)?.reason ?? '', /longer than/);
  });

  it('caps nesting at the configured depth', () => {
    const nested = (n: number) => {
      let e: unknown = { eq: ['kind', 'block'] };
      for (let i = 1; i < n; i++) e = { not: e };
      return e;
    };
    assert.equal(compileEventFilter(nested(3), 3, QUERY_LANGUAGE).ok, true);
    const deep = compileEventFilter(nested(4), 3, QUERY_LANGUAGE);
    assert.deepEqual(deep.ok ? undefined : deep.details.reason, 'nested deeper than 3');
    // An even number of `not`s still selects blocks: the nested expression is really evaluated.
    const ok = compileEventFilter(nested(3), 3, QUERY_LANGUAGE);
    assert.ok(ok.ok && ok.match(projectEvent(applied)) && !ok.match(projectEvent(queued)));
  });
});
