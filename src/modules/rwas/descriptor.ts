// The RWA lots module (docs/rwas.md): real-world-asset lots with quantitative provenance — register,
// split by transfer, merge, redeem, freeze, hold, forced transfer by the controller — moving under the
// transfer rules of their policy through the core's neutral transfer-check port; read routes, SDK
// functions and `torana rwa`.

import type { DataEvent } from '../../model/events.js';
import type { RejectionCode } from '../../model/rejections.js';
import type { LedgerModule } from '../descriptor.js';
import { registerRwaCommands } from './commands.js';
import { RWAS_DOC_SECTIONS } from './docs.js';
import { RWA_HANDLERS } from './handlers.js';
import { rwaParties } from './parties.js';
import { rwaReadPort } from './reads.js';
import { rwasFamily } from './routes.js';
import { RWA_SDK } from './sdk.js';
import { rwasWire } from './wire.js';

export const rwasModule: LedgerModule = {
  name: 'rwas',
  instructions: RWA_HANDLERS,
  tables: (rwasWire.tables ?? []).map((t) => t.name),
  schemaTypes: rwasWire.schemaTypes ?? [],
  events: Object.keys(rwasWire.events ?? {}) as DataEvent['kind'][],
  rejections: Object.keys(rwasWire.rejections ?? {}) as RejectionCode[],
  parties: rwaParties,
  routes: (env) => rwasFamily(rwaReadPort(env.state), env.deps),
  sdk: RWA_SDK,
  cli: registerRwaCommands,
  docs: 'docs/rwas.md',
  docSections: RWAS_DOC_SECTIONS,
};
