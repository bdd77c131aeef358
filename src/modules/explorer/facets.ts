// What an instruction names, for the explorer's list and stream filters:
// the accounts it concerns, the assets (balances) and the asset definitions it touches.
// Pure functions of the instruction; no index is read (the "history" indexes are another part's).

import { assetId, parseAssetId } from '../../model/ids.js';
import type { Instruction } from '../../model/instructions.js';

export interface InstructionFacets {
  accounts: readonly string[];
  assets: readonly string[];
  definitions: readonly string[];
}

const NONE: InstructionFacets = { accounts: [], assets: [], definitions: [] };

function ofAsset(asset: string, also: string[] = []): InstructionFacets {
  const p = parseAssetId(asset);
  if (p === undefined) return { accounts: also, assets: [asset], definitions: [] };
  const extra = also.map((a) => assetId(p.definition, a));
  return { accounts: [p.account, ...also], assets: [asset, ...extra], definitions: [p.definition] };
}

function ofTarget(i: Extract<Instruction, { kind: 'SetKeyValue' | 'RemoveKeyValue' }>): InstructionFacets {
  const t = i.target;
  if (t.kind === 'Account') return { ...NONE, accounts: [t.id] };
  if (t.kind === 'AssetDefinition') return { ...NONE, definitions: [t.id] };
  return NONE;
}

export function instructionFacets(i: Instruction): InstructionFacets {
  switch (i.kind) {
    case 'RegisterAccount':
    case 'UnregisterAccount':
      return { ...NONE, accounts: [i.id] };
    case 'RegisterAssetDefinition':
    case 'UnregisterAssetDefinition':
      return { ...NONE, definitions: [i.id] };
    case 'MintAsset':
    case 'BurnAsset':
      return ofAsset(i.asset);
    case 'TransferAsset':
      return ofAsset(i.source, [i.destination]);
    case 'TransferNft':
    case 'TransferDomain':
      return { ...NONE, accounts: [i.source, i.destination] };
    case 'GrantPermission':
    case 'RevokePermission':
    case 'GrantRole':
    case 'RevokeRole':
      return { ...NONE, accounts: [i.account] };
    case 'SetKeyValue':
    case 'RemoveKeyValue':
      return ofTarget(i);
    default:
      return NONE;
  }
}
