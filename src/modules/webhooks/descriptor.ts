// The webhooks module (docs/webhooks.md): node-local registrations that POST every committed event
// matching a filter to a URL, with a durable queue per webhook, retries, dead letters and replay. An
// off-ledger module: no instructions, tables, events or rejection codes; its pieces are its route family
// (with its store under `<data>/webhooks/`, its intake and delivery workers and its metrics), its gateway
// error codes, its SDK methods, its CLI commands and its entries in the shared docs pages.

import { sectionValues } from '../../config/schema.js';
import type { LedgerModule, ModuleRouteEnv } from '../descriptor.js';
import { registerWebhookCommands } from './commands.js';
import { webhooksConfig } from './config.js';
import { WEBHOOK_DOC_SECTIONS } from './docs.js';
import { webhooksFamily } from './family.js';
import { WEBHOOK_GATEWAY_ERRORS } from './gateway-errors.js';
import type { WebhooksPort } from './port.js';
import { WEBHOOK_SDK } from './sdk.js';

/** The family's port from the node's route env: its store folder, the event feed and its replay. */
export function webhooksPortOf(env: ModuleRouteEnv, storeDir: string): WebhooksPort {
  const c = env.config;
  return {
    events: env.events,
    nowMs: env.now,
    dir: storeDir,
    fsync: c.storage.fsync,
    config: sectionValues(c, webhooksConfig),
    filterDepthMax: c.gateway.filterDepthMax,
    query: env.deps.ports.query,
    ...(env.replay === undefined
      ? {}
      : { replay: env.replay.replay, replayBlocks: () => env.replay!.blocks() }),
  };
}

export const webhooksModule: LedgerModule = {
  name: 'webhooks',
  instructions: {},
  tables: [],
  schemaTypes: [],
  events: [],
  rejections: [],
  // An application family that keeps its store in the node's data folder: without a node directory (or
  // without the application API) it is absent, and its store is not even opened.
  routes: (env) =>
    env.storeDir === undefined || !env.config.app_api.enabled
      ? undefined
      : webhooksFamily(webhooksPortOf(env, env.storeDir), env.deps, {
          operatorAuth: env.operatorAuth,
          signedRequests: env.signedRequests,
          logError: env.logError,
        }),
  gatewayErrors: WEBHOOK_GATEWAY_ERRORS,
  sdk: WEBHOOK_SDK,
  cli: registerWebhookCommands,
  docs: 'docs/webhooks.md',
  docSections: WEBHOOK_DOC_SECTIONS,
};
