// Which asset definitions and assets a transaction touches, for the definition → transactions and
// asset → transactions indexes: the definitions it registers, unregisters or writes metadata to, the
// assets it mints, burns or moves (both sides of a transfer), and what the installed ledger modules say
// their instructions touch (state/module-host.ts `TouchedBy`). Sorted, unique, so the index writes are
// deterministic. Ids come from decoded transactions, whose codec already made
// them canonical and well formed (model/ids.ts), so an asset id is split at its second '#' without
// parsing it again (this runs once per committed transaction).

import type { Instruction } from '../model/instructions.js';
import type { SignedTransaction } from '../model/transaction.js';
import { installedTouches, type TouchSink } from '../state/module-host.js';
import { assert } from '../util/assert.js';

export interface Touched {
  definitions: string[];
  assets: string[];
}

/** Position of the '#' between an asset id's definition and account, or -1. */
function accountSeparator(asset: string): number {
  const first = asset.indexOf('#');
  const at = first < 0 ? -1 : asset.indexOf('#', first + 1);
  // A canonical asset id (model/ids.ts) is `name#domain#account`: both separators or neither.
  assert(at < 0 || (first > 0 && at > first + 1), `touched: asset id ${asset}`);
  return at;
}

/** Inserts `x` into the sorted, repeat-free `list` (lists here hold a few names). */
function insert(list: string[], x: string): void {
  let at = list.length;
  while (at > 0 && list[at - 1]! > x) at--;
  if (at > 0 && list[at - 1] === x) return;
  // Its place keeps the list sorted and repeat-free: the next name (if any) sorts after it.
  assert(at === list.length || list[at]! > x, 'touched: insertion out of order');
  list.splice(at, 0, x);
}

function addAsset(into: Touched, asset: string, at: number): void {
  assert(at > 0 && asset[at] === '#', `asset ${asset} split at ${at}`);
  insert(into.assets, asset);
  insert(into.definitions, asset.slice(0, at));
}

function collect(into: Touched, i: Instruction, sink: TouchSink): void {
  switch (i.kind) {
    case 'RegisterAssetDefinition':
    case 'UnregisterAssetDefinition':
      insert(into.definitions, i.id);
      return;
    case 'MintAsset':
    case 'BurnAsset': {
      const at = accountSeparator(i.asset);
      if (at >= 0) addAsset(into, i.asset, at);
      return;
    }
    case 'TransferAsset': {
      const at = accountSeparator(i.source);
      if (at < 0) return;
      addAsset(into, i.source, at);
      insert(into.assets, `${i.source.slice(0, at)}#${i.destination}`);
      return;
    }
    case 'SetKeyValue':
    case 'RemoveKeyValue':
      if (i.target.kind === 'AssetDefinition') insert(into.definitions, i.target.id);
      return;
    default:
      for (const touches of installedTouches()) touches(i, sink);
      return;
  }
}

export function touchedAssets(tx: SignedTransaction): Touched {
  const t: Touched = { definitions: [], assets: [] };
  const sink: TouchSink = {
    definition: (id) => insert(t.definitions, id),
    asset: (definition, account) => {
      insert(t.assets, `${definition}#${account}`);
      insert(t.definitions, definition);
    },
  };
  for (const i of tx.payload.instructions) collect(t, i, sink);
  // Every asset's definition is listed too: the definition index sees what the asset index sees.
  assert(
    t.assets.every((a) => t.definitions.includes(a.slice(0, accountSeparator(a)))),
    'touched: an asset without its definition',
  );
  return t;
}
