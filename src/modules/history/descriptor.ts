// The transaction history module (docs/history.md): the signed caller history `/v1/transactions/history`
// and the public per-account and per-asset-definition lists, read from the core's commit-time indexes
// (pipeline/index-writes.ts, written in every commit whatever modules are installed). An off-ledger,
// read-only module: no instructions, tables, events, rejection codes or gateway codes of its own; its
// pieces are its route family (served over the node's committed reads), its CLI command and its entries
// in the shared docs pages.

import { sectionValues } from '../../config/schema.js';
import type { LedgerModule, ModuleRouteEnv } from '../descriptor.js';
import { registerHistoryCommands } from './commands.js';
import { historyConfig } from './config.js';
import { HISTORY_DOC_SECTIONS } from './docs.js';
import { historyPort } from './port.js';
import { historyFamily } from './routes.js';

async function historyOf(env: ModuleRouteEnv) {
  const reads = await env.reads();
  return reads.serve(
    historyFamily(historyPort(reads.ledger), reads.deps, {
      signedRequests: env.signedRequests,
      scanEntriesMax: sectionValues(env.config, historyConfig).scanEntriesMax,
    }),
  );
}

export const historyModule: LedgerModule = {
  name: 'history',
  instructions: {},
  tables: [],
  schemaTypes: [],
  events: [],
  rejections: [],
  // An application family: without the application API it is absent (not even built).
  routes: (env) => (env.config.app_api.enabled ? historyOf(env) : undefined),
  cli: registerHistoryCommands,
  docs: 'docs/history.md',
  docSections: HISTORY_DOC_SECTIONS,
};
