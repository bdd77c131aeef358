// The Connect relay (docs/connect.md): a wallet and an app pair through this node, which relays their
// end-to-end encrypted frames without reading them. It needs nothing of the ledger (no instruction,
// table, event or rejection): only its routes, its gateway error codes and its docs.

import { sectionValues } from '../../config/schema.js';
import type { LedgerModule } from '../descriptor.js';
import { registerConnectCommands } from './commands.js';
import { connectConfig } from './config.js';
import { CONNECT_DOC_SECTIONS } from './docs.js';
import { connectFamily } from './family.js';
import { CONNECT_GATEWAY_ERRORS } from './gateway-errors.js';

export const connectModule: LedgerModule = {
  name: 'connect',
  instructions: {},
  tables: [],
  schemaTypes: [],
  events: [],
  rejections: [],
  // An application family: registered with `app_api.enabled`, built only with `connect.enabled`.
  routes: (env) => {
    const c = sectionValues(env.config, connectConfig);
    return c.enabled
      ? connectFamily(
          env.deps,
          {
            sessionsMax: c.sessionsMax,
            tokenTtlMs: c.tokenTtlMs,
            idleMs: c.idleMs,
            frameBytesMax: c.frameBytesMax,
            framesPerSecond: c.framesPerSecond,
            frameBurst: c.frameBurst,
            pendingFramesMax: c.pendingFramesMax,
          },
          env.now,
        )
      : undefined;
  },
  gatewayErrors: CONNECT_GATEWAY_ERRORS,
  cli: registerConnectCommands,
  docs: 'docs/connect.md',
  docSections: CONNECT_DOC_SECTIONS,
};
