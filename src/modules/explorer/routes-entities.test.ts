// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newAccount } from '../../../test/helpers/tx.js';
import type { StateReader } from '../../gateway/ports.js';
import type { Asset, AssetDefinition } from '../../model/entities.js';
import { numeric } from '../../model/numeric.js';
import { assetRow, assetsPage, definitionDetail } from './routes-entities.js';
import { definitionRow } from './routes-state.js';

const ROSE = 'rose#wonderland';
const KEY = newAccount('w', 1).id.split('@')[0]!;

/**
 * A state whose definition has `n` holders, read as the world state reads them (count, first ids, one
 * asset by id); listing its holders (`holdersOfDefinition`, `holderIds`) is counted in `listed`.
 */
function holdersState(n: number) {
  const ids = Array.from({ length: n }, (_, i) => `${ROSE}#${KEY}@d${String(i).padStart(7, '0')}`).sort();
  const assets = new Map<string, Asset>(ids.map((id, i) => [id, { id, value: numeric(String(i + 1)) }]));
  const definition = {
    id: ROSE,
    totalQuantity: numeric('1'),
    scale: 0,
    mintable: 'Infinitely',
    ownedBy: `${KEY}@wonderland`,
    metadata: {},
  } as unknown as AssetDefinition;
  const stats = { listed: 0 };
  const mine = (d: string) => (d === ROSE ? ids : []);
  const state = {
    assetDefinition: (id: string) => (id === ROSE ? definition : undefined),
    asset: (id: string) => assets.get(id),
    holderCount: (d: string) => mine(d).length,
    firstHolderIds: (d: string, k: number) => mine(d).slice(0, k),
    holderIds: (d: string) => {
      stats.listed++;
      return mine(d);
    },
    holdersOfDefinition: (d: string) => {
      stats.listed++;
      return mine(d).map((id) => assets.get(id)!);
    },
  } as unknown as StateReader;
  return { state, ids, assets, definition, stats };
}

/** The page as listing every holder gave it: each balance's row, sorted by id, cut at the page. */
function listedPage(all: readonly Asset[], page: number, perPage: number) {
  const rows = all.map(assetRow).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const offset = (page - 1) * perPage;
  return {
    pagination: { page, perPage, totalPages: Math.ceil(rows.length / perPage), totalItems: rows.length },
    items: rows.slice(offset, offset + perPage),
  };
}

describe("explorer: a definition's holders counted and paged without listing them", () => {
  it('answers as listing every holder did, at 100,000 holders without listing one id', () => {
    const n = 100_000;
    const { state, assets, definition, stats } = holdersState(n);
    const all = [...assets.values()];
    assert.equal(definitionRow(state, definition).holderCount, n);
    assert.equal(definitionDetail(state, ROSE)?.holderCount, n);
    assert.equal(definitionDetail(state, 'tulip#wonderland'), undefined);
    for (const [page, perPage] of [
      [1, 20],
      [3, 7],
      [5000, 20],
      [5001, 20],
    ] as const) {
      const p = { page, perPage, offset: (page - 1) * perPage };
      assert.deepEqual(
        assetsPage(state, p, { definition: ROSE }),
        listedPage(all, page, perPage),
        `page ${page}`,
      );
    }
    assert.deepEqual(
      assetsPage(state, { page: 1, perPage: 10, offset: 0 }, { definition: 'tulip#wonderland' }),
      {
        pagination: { page: 1, perPage: 10, totalPages: 0, totalItems: 0 },
        items: [],
      },
    );
    assert.equal(stats.listed, 0, 'no holder id listed');
  });

  it('still narrows an owner or one asset by the definition', () => {
    const { state, ids, assets } = holdersState(3);
    const one = assets.get(ids[1]!)!;
    const account = assetRow(one).accountId;
    const withOwner = {
      ...state,
      assetsOfAccount: (a: string) => (a === account ? [one] : []),
    } as unknown as StateReader;
    const p = { page: 1, perPage: 10, offset: 0 };
    assert.deepEqual(assetsPage(withOwner, p, { definition: ROSE, owned_by: account }).items, [
      assetRow(one),
    ]);
    assert.deepEqual(
      assetsPage(withOwner, p, { definition: 'tulip#wonderland', owned_by: account }).items,
      [],
    );
    assert.deepEqual(assetsPage(withOwner, p, { definition: ROSE, asset_id: one.id }).items, [assetRow(one)]);
  });
});
