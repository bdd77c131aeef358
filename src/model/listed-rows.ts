// The tables list routes page through by id, and their rows: what the world state lends to a list scan
// (state/world-state.ts `peek`) and what the gateway's StateReader port reads (gateway/ports.ts).

import type { Account, Asset, AssetDefinition, Domain, Nft } from './entities.js';

export interface ListedRows {
  domain: Domain;
  account: Account;
  assetDefinition: AssetDefinition;
  asset: Asset;
  nft: Nft;
}
