// The content bundles module (docs/content.md): bundles of files whose manifest (paths, sizes, SHA-256,
// media types) and access rule are ledger state, and whose bytes each node keeps off chain and serves
// itself — register, set access, retire; the bundle read, upload and download routes, SDK functions and
// `torana content`.

import { sectionValues } from '../../config/schema.js';
import type { DataEvent } from '../../model/events.js';
import type { RejectionCode } from '../../model/rejections.js';
import type { LedgerModule } from '../descriptor.js';
import { registerContentCommands } from './commands.js';
import { contentConfig } from './config.js';
import { CONTENT_DOC_SECTIONS } from './docs.js';
import { CONTENT_GATEWAY_ERRORS } from './errors.js';
import { contentFamily } from './family.js';
import { CONTENT_HANDLERS } from './handlers.js';
import { contentParties } from './parties.js';
import { contentReadPort } from './reads.js';
import { CONTENT_SDK } from './sdk.js';
import { contentWire } from './wire.js';

export const contentModule: LedgerModule = {
  name: 'content',
  instructions: CONTENT_HANDLERS,
  tables: (contentWire.tables ?? []).map((t) => t.name),
  schemaTypes: contentWire.schemaTypes ?? [],
  events: Object.keys(contentWire.events ?? {}) as DataEvent['kind'][],
  rejections: Object.keys(contentWire.rejections ?? {}) as RejectionCode[],
  parties: contentParties,
  // An application family (`app_api.enabled`), built only when served from a node directory.
  routes: (env) =>
    env.storeDir === undefined
      ? undefined
      : contentFamily(env.deps, contentReadPort(env.state), {
          config: sectionValues(env.config, contentConfig),
          storeDir: env.storeDir,
          signedRequests: env.signedRequests,
          now: env.now,
        }),
  gatewayErrors: CONTENT_GATEWAY_ERRORS,
  sdk: CONTENT_SDK,
  cli: registerContentCommands,
  docs: 'docs/content.md',
  docSections: CONTENT_DOC_SECTIONS,
};
