// The explorer module (docs/explorer.md): the `/v1/explorer/*` lists, details, latest-N views and SSE
// streams over the committed world state and the block store. An off-ledger, read-only module: no
// instructions, tables, events, rejection codes or gateway codes of its own; its pieces are its route
// family (served over the node's committed reads: its own ledger, or the indexer's database), its SDK
// readers, its CLI commands and its entries in the shared docs pages.

import { sectionValues } from '../../config/schema.js';
import type { LedgerModule, ModuleRouteEnv, ReadSource } from '../descriptor.js';
import { registerExplorerCommands } from './commands.js';
import { explorerConfig } from './config.js';
import { EXPLORER_DOC_SECTIONS } from './docs.js';
import { explorerFamily } from './family.js';
import type { ExplorerPort } from './port.js';

/** The family's port over the node's committed reads (its ledger, or a replica of it). */
async function explorerOf(env: ModuleRouteEnv) {
  const reads = await env.reads();
  const port: ExplorerPort = {
    state: reads.deps.ports.state,
    chain: reads.deps.ports.chain,
    events: reads.events,
    blockHeightByHash: (hash) => reads.blockHeightByHash(hash),
    peerCount: () => reads.peerCount(),
    nowMs: env.now,
  };
  return reads.serve(explorerFamily(port, reads.deps, env.logError));
}

/** The committed reads `[explorer]` chooses: the node's ledger, or the indexer's database replayed. */
function readSourceOf(config: Parameters<typeof sectionValues>[0]): ReadSource {
  const c = sectionValues(config, explorerConfig);
  return c.backend === 'embedded'
    ? { kind: 'ledger' }
    : { kind: 'pg-replica', conninfo: c.pg, pollMs: c.pgPollMs, label: 'explorer.pg' };
}

export const explorerModule: LedgerModule = {
  name: 'explorer',
  instructions: {},
  tables: [],
  schemaTypes: [],
  events: [],
  rejections: [],
  // An application family: without the application API it is absent (not even built).
  routes: (env) => (env.config.app_api.enabled ? explorerOf(env) : undefined),
  // Its section chooses the committed reads every read family is served over (the history's too).
  readSource: readSourceOf,
  cli: registerExplorerCommands,
  docs: 'docs/explorer.md',
  docSections: EXPLORER_DOC_SECTIONS,
};
