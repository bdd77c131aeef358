import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AccountAlias, AssetAlias } from '../model/aliases.js';
import { filterIds } from './alias-filter.js';
import { type AliasState, idText } from './alias-resolver.js';

const ALICE = 'ed0120AAAA@wonderland';
const state: AliasState = {
  accountAlias: (a: string) =>
    a === 'alice@wonderland' ? ({ alias: a, account: ALICE } as unknown as AccountAlias) : undefined,
  assetAlias: (a: string) =>
    a === 'rose' ? ({ alias: a, definition: 'rose#wonderland' } as unknown as AssetAlias) : undefined,
};
const chain = { height: () => 0, block: async () => undefined };
const fields = { id: 'account', definition: 'definition', asset: 'asset' } as const;
const notFound = (e: unknown) => (e as { code?: string }).code === 'not_found';

describe('aliases in filters and query parameters', () => {
  it('idText: aliases become ids, ids and other text stay as given, unbound aliases are 404', () => {
    assert.equal(idText(state, 'account', 'alice@wonderland', 0), ALICE);
    assert.equal(idText(state, 'account', 'not an id', 0), 'not an id');
    assert.equal(idText(state, 'definition', 'rose', 0), 'rose#wonderland');
    assert.equal(idText(state, 'definition', 'rose#wonderland', 0), 'rose#wonderland');
    assert.equal(idText(state, 'asset', 'rose#alice@wonderland', 0), `rose#wonderland#${ALICE}`);
    assert.equal(idText(state, 'asset', 'rose', 0), 'rose'); // an asset is never a bare alias
    assert.equal(idText(state, 'asset_or_definition', 'rose', 0), 'rose#wonderland');
    assert.throws(() => idText(state, 'account', 'bob@wonderland', 0), notFound);
    assert.throws(() => idText(state, 'asset', 'tulip#alice@wonderland', 0), notFound);
  });

  it('filterIds rewrites eq, ne, in and nin on id fields, through and, or and not', async () => {
    const input = {
      filter: {
        and: [
          { eq: ['id', 'alice@wonderland'] },
          { not: { in: ['definition', ['rose', 'gem#x']] } },
          { or: [{ nin: ['asset', ['rose#alice@wonderland']] }, { ne: ['name', 'alice@wonderland'] }] },
          { gt: ['id', 'alice@wonderland'] },
        ],
      },
    };
    assert.deepEqual((await filterIds(state, chain, input, fields, 10)).filter, {
      and: [
        { eq: ['id', ALICE] },
        { not: { in: ['definition', ['rose#wonderland', 'gem#x']] } },
        { or: [{ nin: ['asset', [`rose#wonderland#${ALICE}`]] }, { ne: ['name', 'alice@wonderland'] }] },
        { gt: ['id', 'alice@wonderland'] },
      ],
    });
  });

  it('filterIds reads the query-string form, leaves malformed JSON to the filter parser', async () => {
    const text = JSON.stringify({ eq: ['id', 'alice@wonderland'] });
    assert.deepEqual(await filterIds(state, chain, { filterText: text, limit: '5' }, fields, 10), {
      limit: '5',
      filter: { eq: ['id', ALICE] },
    });
    const bad = { filterText: '{not json' };
    assert.equal(await filterIds(state, chain, bad, fields, 10), bad);
    await assert.rejects(
      filterIds(state, chain, { filter: { eq: ['id', 'x@wonderland'] } }, fields, 10),
      notFound,
    );
  });
});
