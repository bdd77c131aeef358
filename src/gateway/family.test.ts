import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { placeFamilies, type RouteFamily } from './family.js';

const fam = (name: string, servedAfter?: string): RouteFamily => ({
  name,
  app: true,
  routes: () => [],
  ...(servedAfter === undefined ? {} : { servedAfter }),
});
const names = (fs: readonly RouteFamily[]) => fs.map((f) => f.name);

describe('placeFamilies', () => {
  it('serves a family naming servedAfter right after that family; the others keep their order', () => {
    const list = [fam('a'), fam('b'), fam('c'), fam('m', 'a'), fam('d')];
    assert.deepEqual(names(placeFamilies(list)), ['a', 'm', 'b', 'c', 'd']);
    assert.deepEqual(names(placeFamilies([fam('a'), fam('b')])), ['a', 'b']);
  });

  it('several after one family keep their list order; one may follow a placed one', () => {
    const list = [
      fam('a'),
      fam('b'),
      fam('m', 'a'),
      fam('n', 'a'),
      fam('o', 'n'),
      fam('p', 'q'),
      fam('q', 'b'),
    ];
    assert.deepEqual(names(placeFamilies(list)), ['a', 'm', 'n', 'o', 'b', 'q', 'p']);
  });

  it('follows the last family of the name; an unknown name or a cycle leaves the family in the list', () => {
    const twice = [fam('s'), fam('x'), fam('s'), fam('t'), fam('m', 's')];
    assert.deepEqual(names(placeFamilies(twice)), ['s', 'x', 's', 'm', 't']);
    assert.deepEqual(names(placeFamilies([fam('a'), fam('m', 'nowhere'), fam('b')])), ['a', 'm', 'b']);
    assert.deepEqual(names(placeFamilies([fam('a'), fam('x', 'y'), fam('y', 'x'), fam('b')])), [
      'a',
      'b',
      'x',
      'y',
    ]);
  });

  it('places module families named after core ones and leaves its input untouched', () => {
    const list = [
      fam('accounts'),
      fam('subscriptions'),
      fam('subscriptions'),
      fam('multisig', 'controls'),
      fam('controls', 'accounts'),
      fam('late', 'subscriptions'),
    ];
    assert.deepEqual(names(placeFamilies(list)), [
      'accounts',
      'controls',
      'multisig',
      'subscriptions',
      'subscriptions',
      'late',
    ]);
    assert.deepEqual(names(list), [
      'accounts',
      'subscriptions',
      'subscriptions',
      'multisig',
      'controls',
      'late',
    ]);
  });

  it('module families of the served interface: a chain of them after a core family, the rest in place', () => {
    const list = [
      fam('accounts'),
      fam('explorer'),
      fam('subscriptions'),
      fam('telemetry'),
      fam('aliases', 'explorer'),
      fam('extra', 'explorer'),
      fam('controls', 'aliases'),
      fam('late', 'not-served'),
    ];
    assert.deepEqual(names(placeFamilies(list)), [
      'accounts',
      'explorer',
      'aliases',
      'controls',
      'extra',
      'subscriptions',
      'telemetry',
      'late',
    ]);
  });

  it('a hosted family is served right after its host, under the host’s name, whatever its own place', () => {
    const host = { ...fam('s', 'a'), hosts: ['t'] };
    const list = [fam('a'), fam('b'), fam('t'), fam('c', 's'), host, fam('d')];
    const placed = placeFamilies(list);
    assert.deepEqual(names(placed), ['a', 's', 's', 'c', 'b', 'd']);
    assert.equal(placed[2]!.routes, list[2]!.routes, 'the hosted family’s own routes');
    assert.equal(list[2]!.name, 't', 'its input untouched');
    // The modules' families as served: triggers hosted by subscriptions, conference naming no place.
    const served = [
      fam('accounts'),
      fam('explorer'),
      fam('ledger-proofs'),
      fam('conference'),
      fam('aliases', 'explorer'),
      fam('multisig', 'controls'),
      fam('controls', 'explorer'),
      fam('triggers'),
      { ...fam('subscriptions', 'ledger-proofs'), hosts: ['triggers'] },
      fam('telemetry'),
    ];
    const order = placeFamilies(served).map((f) => f.name);
    assert.deepEqual(order, [
      'accounts',
      'explorer',
      'aliases',
      'controls',
      'multisig',
      'ledger-proofs',
      'subscriptions',
      'subscriptions',
      'conference',
      'telemetry',
    ]);
    const hostless = placeFamilies(served.map((f) => ({ ...f, hosts: [] })));
    assert.ok(
      hostless.some((f) => f.name === 'triggers'),
      'hosted by none, it keeps its own name',
    );
  });
});
