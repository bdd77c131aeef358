// The node directory (`--dir`, default ./.torana): config, keys, genesis, data and the client settings
// file that later CLI commands read. One place names every file.

import { join, resolve } from 'node:path';

export const DEFAULT_NODE_DIR = './.torana';

export interface NodeFiles {
  dir: string;
  config: string;
  nodeKey: string;
  consensusKey: string;
  adminKey: string;
  /** A peer's own client account key (`torana testnet init`; client.json names it). */
  clientKey: string;
  /** The bridge account's key (a node-local service's own account, never the admin's). */
  bridgeKey: string;
  /** The bridge's participants (the accounts it acts for; its module's page says the format). */
  participants: string;
  genesis: string;
  client: string;
  data: string;
  /** Consensus evidence records, append-only (src/consensus/evidence-file.ts). */
  evidence: string;
  /** The consensus safety state, replaced atomically (src/node/safety-file.ts). */
  safety: string;
}

export function nodeFiles(dir: string): NodeFiles {
  const d = resolve(dir);
  return {
    dir: d,
    config: join(d, 'config.toml'),
    nodeKey: join(d, 'node.key.json'),
    consensusKey: join(d, 'consensus.key.json'),
    adminKey: join(d, 'admin.key.json'),
    clientKey: join(d, 'client.key.json'),
    bridgeKey: join(d, 'bridge.key.json'),
    participants: join(d, 'participants.json'),
    genesis: join(d, 'genesis.json'),
    client: join(d, 'client.json'),
    data: join(d, 'data'),
    evidence: join(d, 'data', 'evidence.log'),
    safety: join(d, 'data', 'consensus-safety.bin'),
  };
}
