// Which accounts a transaction concerns, for per-account transaction history: its authority and every
// account an instruction names as a party (sorted, so the index writes are deterministic).

import { parseAssetId } from '../model/ids.js';
import type { Instruction } from '../model/instructions.js';
import type { SignedTransaction } from '../model/transaction.js';

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
    default:
      return [];
  }
}

export function involvedAccounts(tx: SignedTransaction): string[] {
  const set = new Set<string>([tx.payload.authority]);
  for (const i of tx.payload.instructions) for (const a of partiesOf(i)) set.add(a);
  return [...set].sort();
}
