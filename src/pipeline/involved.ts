// Which accounts a transaction concerns, for the per-account index of committed transactions: its authority and every
// account an instruction names as a party (sorted, so the index writes are deterministic).

import { parseAssetId } from '../model/ids.js';
import type { Instruction } from '../model/instructions.js';
import type { SignedTransaction } from '../model/transaction.js';
import { moduleParties } from '../state/module-host.js';
import { assert } from '../util/assert.js';

function partiesOf(i: Instruction): string[] {
  switch (i.kind) {
    case 'RegisterAccount':
    case 'UnregisterAccount':
      return [i.id];
    case 'MintAsset':
    case 'BurnAsset': {
      const a = parseAssetId(i.asset);
      return a === undefined ? [] : [a.account];
    }
    case 'TransferAsset': {
      const a = parseAssetId(i.source);
      return a === undefined ? [i.destination] : [a.account, i.destination];
    }
    case 'TransferNft':
    case 'TransferDomain':
      return [i.source, i.destination];
    case 'GrantPermission':
    case 'RevokePermission':
    case 'GrantRole':
    case 'RevokeRole':
      return [i.account];
    default: {
      // A module's instruction: the parties its descriptor names (state/module-host.ts).
      const parties = moduleParties(i, partiesOf) ?? [];
      assert(
        parties.every((p) => typeof p === 'string' && p !== ''),
        `involved: a module named an empty party for ${i.kind}`,
      );
      return parties;
    }
  }
}

/** Up to this many names, dedupe and sort in place (no Set, no sort's scratch copy); beyond, the general way. */
const SMALL_LIST_MAX = 16;

export function involvedAccounts(tx: SignedTransaction): string[] {
  const all = [tx.payload.authority];
  for (const i of tx.payload.instructions) for (const a of partiesOf(i)) all.push(a);
  if (all.length > SMALL_LIST_MAX) return [...new Set(all)].sort();
  // Insertion sort by code units (the order of Array.prototype.sort's default), dropping repeats.
  const out: string[] = [];
  for (const a of all) {
    let at = out.length;
    while (at > 0 && out[at - 1]! > a) at--;
    if (at > 0 && out[at - 1] === a) continue;
    out.splice(at, 0, a);
  }
  // Sorted and free of repeats: the index writes are deterministic.
  for (let i = 1; i < out.length; i++) assert(out[i - 1]! < out[i]!, 'involved accounts out of order');
  return out;
}
