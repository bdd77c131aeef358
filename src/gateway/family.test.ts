import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mountFamilies, type RouteFamily } from './family.js';

const fam = (name: string): RouteFamily => ({ name, app: true, routes: () => [] });
const names = (list: readonly RouteFamily[]) => list.map((f) => f.name);

describe('mountFamilies: a module family keeps its place in the served interface', () => {
  it('mounts a placed family right after the last family of its anchor’s name', () => {
    const core = [fam('accounts'), fam('controls'), fam('subscriptions'), fam('subscriptions')];
    const out = mountFamilies(core, [
      { family: fam('multisig'), after: 'controls' },
      { family: fam('late'), after: 'subscriptions' },
    ]);
    assert.deepEqual(names(out), [
      'accounts',
      'controls',
      'multisig',
      'subscriptions',
      'subscriptions',
      'late',
    ]);
    assert.deepEqual(
      names(core),
      ['accounts', 'controls', 'subscriptions', 'subscriptions'],
      'input untouched',
    );
  });

  it('families placed after one anchor keep their given order', () => {
    const out = mountFamilies(
      [fam('a'), fam('b')],
      [
        { family: fam('x'), after: 'a' },
        { family: fam('y'), after: 'a' },
      ],
    );
    assert.deepEqual(names(out), ['a', 'x', 'y', 'b']);
  });

  it('a family placed after another placed family waits for it; one without its anchor goes last', () => {
    const out = mountFamilies(
      [fam('a'), fam('b')],
      [
        { family: fam('m'), after: 'c' },
        { family: fam('c'), after: 'a' },
        { family: fam('orphan'), after: 'absent' },
      ],
    );
    assert.deepEqual(names(out), ['a', 'c', 'm', 'b', 'orphan']);
  });
});
