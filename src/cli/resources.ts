// The resources `torana query` lists, and the iterable query each maps to.

import type { IterableQuery } from '../model/queries.js';

export const RESOURCES: Readonly<Record<string, IterableQuery['kind']>> = {
  domains: 'FindDomains',
  accounts: 'FindAccounts',
  'asset-definitions': 'FindAssetDefinitions',
  assets: 'FindAssets',
  nfts: 'FindNfts',
  roles: 'FindRoles',
  peers: 'FindPeers',
  transactions: 'FindTransactions',
  blocks: 'FindBlocks',
  upgrades: 'FindUpgrades',
};

export const RESOURCE_NAMES = Object.keys(RESOURCES);
