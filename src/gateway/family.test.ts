import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { placeFamilies, type RouteFamily } from './family.js';

const fam = (name: string, servedAt: number): RouteFamily => ({
  name,
  app: true,
  servedAt,
  routes: () => [],
});
const names = (fs: readonly RouteFamily[]) => fs.map((f) => f.name);

describe('placeFamilies', () => {
  it('serves the families in ascending servedAt, whatever their list order', () => {
    const list = [fam('a', 100), fam('b', 300), fam('c', 400), fam('m', 110), fam('d', 500)];
    assert.deepEqual(names(placeFamilies(list)), ['a', 'm', 'b', 'c', 'd']);
    assert.deepEqual(names(placeFamilies([fam('b', 2), fam('a', 1)])), ['a', 'b']);
    assert.deepEqual(names(placeFamilies([])), []);
  });

  it('equal ranks keep their list order; its input is left untouched', () => {
    const list = [fam('x', 200), fam('s', 100), fam('y', 200), fam('t', 300), fam('s', 100)];
    assert.deepEqual(names(placeFamilies(list)), ['s', 's', 'x', 'y', 't']);
    assert.deepEqual(names(list), ['x', 's', 'y', 't', 's']);
  });

  it('a rank between two others takes its place between them: no family names another', () => {
    const served = [fam('accounts', 100), fam('proofs', 200), fam('policy', 500)];
    assert.deepEqual(names(placeFamilies([...served, fam('newcomer', 150)])), [
      'accounts',
      'newcomer',
      'proofs',
      'policy',
    ]);
    assert.deepEqual(names(placeFamilies([fam('newcomer', 150), ...served])), [
      'accounts',
      'newcomer',
      'proofs',
      'policy',
    ]);
  });

  it('a hosted family is served right after its host, under the host’s name, whatever its own rank', () => {
    const host = { ...fam('s', 150), hosts: ['t'] };
    const list = [fam('a', 100), fam('b', 200), fam('t', 50), fam('c', 160), host, fam('d', 300)];
    const placed = placeFamilies(list);
    assert.deepEqual(names(placed), ['a', 's', 's', 'c', 'b', 'd']);
    assert.equal(placed[2]!.routes, list[2]!.routes, 'the hosted family’s own routes');
    assert.equal(placed[2]!.servedAt, 150, 'at its host’s rank');
    assert.equal(list[2]!.name, 't', 'its input untouched');
    const hostless = placeFamilies(list.map((f) => ({ ...f, hosts: [] })));
    assert.deepEqual(
      names(hostless),
      ['t', 'a', 's', 'c', 'b', 'd'],
      'hosted by none: its own name and rank',
    );
  });
});
