// The ISO 20022 bridge module (docs/iso20022.md): pacs/camt/pain/sese/colr messages read, checked and
// mapped onto ledger transfers that its own bridge account signs, with durable records, status reports
// and an audit manifest anchored on the ledger. An off-ledger module: no instructions, tables, events or
// rejection codes of its own; its pieces are its route family (the bridge service with its record store
// under `<data>/bridge/`, its submitter and its XML body parser), its gateway error codes, its CLI
// commands, its configuration section `[iso20022]` and its entries in the shared docs pages.

import { sectionValues } from '../../config/schema.js';
import type { RouteFamily } from '../../gateway/family.js';
import type { LedgerModule, ModuleRouteEnv } from '../descriptor.js';
import type { Bridge } from './bridge/service.js';
import { registerIsoCommands } from './commands.js';
import { iso20022Config } from './config.js';
import { ISO20022_DOC_SECTIONS } from './docs.js';
import { ISO20022_GATEWAY_ERRORS } from './gateway-errors.js';
import { iso20022Family } from './routes/family.js';
import { startBridge } from './start.js';

/** The bridge's folder under the node's data folder (where node directories already hold its records). */
export const BRIDGE_STORE_FOLDER = 'bridge';

/** The bridge's family, with the bridge service behind its routes (tests reach it). */
export interface Iso20022Family extends RouteFamily {
  readonly bridge: Bridge;
}

/**
 * The family of a node whose `iso20022.enabled` is on: the bridge started over the node's transaction
 * path, its store opened, and closed with the family. The switch needs a node directory (the bridge's key
 * file and store).
 */
export async function iso20022ModuleFamily(env: ModuleRouteEnv): Promise<Iso20022Family | undefined> {
  const c = sectionValues(env.config, iso20022Config);
  if (!c.enabled) return undefined;
  if (env.nodeDir === undefined || env.storeDir === undefined || env.transactions === undefined)
    throw new Error('iso20022.enabled: serveNode needs the node directory ({ dir })');
  const bridge = await startBridge(env, env.transactions, env.nodeDir, env.storeDir, (e) =>
    env.logError('iso20022 bridge', e),
  );
  const family = iso20022Family(bridge, env.deps, {
    xmlBodyBytesMax: c.xmlBodyBytesMax,
    signedRequests: env.signedRequests,
    ...(env.operatorSessions === undefined ? {} : { sessions: env.operatorSessions }),
  });
  return { ...family, bridge, close: () => bridge.close() };
}

export const iso20022Module: LedgerModule = {
  name: 'iso20022',
  instructions: {},
  tables: [],
  schemaTypes: [],
  events: [],
  rejections: [],
  routes: iso20022ModuleFamily,
  storeFolder: BRIDGE_STORE_FOLDER,
  gatewayErrors: ISO20022_GATEWAY_ERRORS,
  cli: registerIsoCommands,
  docs: 'docs/iso20022.md',
  docSections: ISO20022_DOC_SECTIONS,
};
