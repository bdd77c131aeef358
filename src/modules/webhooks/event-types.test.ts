import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import '../registry.js';
import { compileEventFilter, projectEvent } from '../../gateway/event-filter.js';
import { DataEventCodec } from '../../model/events.js';
import { QUERY_LANGUAGE } from '../../node/query-language.js';
import { eventTypeCatalogue } from './event-types.js';

describe('webhook event-type catalogue', () => {
  const cat = eventTypeCatalogue();

  it('lists every data event variant of the build (core and modules), in tag order, with its fields', () => {
    const data = cat.items.filter((t) => t.kind === 'data');
    assert.deepEqual(
      data.map((t) => t.name),
      [...DataEventCodec.tags],
    );
    const account = data.find((t) => t.name === 'AccountCreated')!;
    assert.deepEqual(account.fields, ['id']);
    assert.ok(cat.items.some((t) => t.kind === 'transaction' && t.name === 'Rejected'));
    assert.ok(cat.items.some((t) => t.kind === 'block' && t.name === 'Applied'));
    assert.equal(cat.total, cat.items.length);
    assert.equal(cat.test_kind, 'webhook.test');
  });

  it("gives filters that compile and keep exactly their type's events", () => {
    const keeps = (name: string, event: Parameters<typeof projectEvent>[0]) => {
      const entry = cat.items.find((t) => t.name === name)!;
      const r = compileEventFilter(entry.filter, 8, QUERY_LANGUAGE);
      assert.ok(r.ok, JSON.stringify(r));
      return r.match(projectEvent(event));
    };
    const hash = new Uint8Array(32);
    const created = {
      kind: 'Data',
      blockHeight: 1n,
      transactionHash: hash,
      data: { kind: 'DomainCreated', id: 'd', owner: 'x' },
    } as never;
    assert.equal(keeps('DomainCreated', created), true);
    assert.equal(keeps('DomainDeleted', created), false);
    const committed = { kind: 'Transaction', hash, status: { kind: 'Committed' }, blockHeight: 1n } as never;
    assert.equal(keeps('Committed', committed), true);
    assert.equal(keeps('Queued', committed), false);
  });
});
