// Which asset definitions and assets a transaction touches, for the definition → transactions and
// asset → transactions indexes (app-families.md §1.4): the definitions it registers, unregisters or
// writes metadata to, and the assets it mints, burns or moves (both sides of a transfer). Sorted, unique,
// so the index writes are deterministic.

import { assetId, parseAssetId } from '../model/ids.js';
import type { Instruction } from '../model/instructions.js';
import type { SignedTransaction } from '../model/transaction.js';

export interface Touched {
  definitions: string[];
  assets: string[];
}

function add(into: Touched, asset: string): void {
  const a = parseAssetId(asset);
  if (a === undefined) return;
  into.assets.push(asset);
  into.definitions.push(a.definition);
}

function collect(into: Touched, i: Instruction): void {
  switch (i.kind) {
    case 'RegisterAssetDefinition':
    case 'UnregisterAssetDefinition':
      into.definitions.push(i.id);
      return;
    case 'MintAsset':
    case 'BurnAsset':
      add(into, i.asset);
      return;
    case 'TransferAsset': {
      add(into, i.source);
      const a = parseAssetId(i.source);
      if (a !== undefined) add(into, assetId(a.definition, i.destination));
      return;
    }
    case 'SetKeyValue':
    case 'RemoveKeyValue':
      if (i.target.kind === 'AssetDefinition') into.definitions.push(i.target.id);
      return;
    default:
      return;
  }
}

function sortedUnique(xs: string[]): string[] {
  return xs.length < 2 ? xs : [...new Set(xs)].sort();
}

export function touchedAssets(tx: SignedTransaction): Touched {
  const t: Touched = { definitions: [], assets: [] };
  for (const i of tx.payload.instructions) collect(t, i);
  return { definitions: sortedUnique(t.definitions), assets: sortedUnique(t.assets) };
}
