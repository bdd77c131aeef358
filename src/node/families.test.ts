import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RouteFamily } from '../gateway/family.js';
import { mountModuleFamilies } from './families.js';

const family = (name: string, tag = name): RouteFamily & { tag: string } => ({
  name,
  tag,
  app: true,
  routes: () => [],
});

describe('module families are mounted in the served order', () => {
  it('after the family they name (the last of that name, or a module mounted before), in list order; else at the end', () => {
    const core = [family('accounts'), family('explorer'), family('subscriptions'), family('telemetry')];
    const mounted = mountModuleFamilies(core, [
      { family: family('aliases'), after: 'explorer' },
      { family: family('subscriptions', 'triggers'), after: 'subscriptions' },
      { family: family('extra'), after: 'explorer' },
      { family: family('controls'), after: 'aliases' },
      { family: family('late'), after: 'not-served' },
    ]);
    assert.deepEqual(
      mounted.map((f) => (f as RouteFamily & { tag?: string }).tag),
      [
        'accounts',
        'explorer',
        'aliases',
        'controls',
        'extra',
        'subscriptions',
        'triggers',
        'telemetry',
        'late',
      ],
    );
  });
});
