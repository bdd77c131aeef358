// The transfer controls module (docs/controls.md): freeze, blacklist, allow and deny lists and caps on the
// movement of an asset, per holder or for every holder of a definition, enforced on every balance change
// through the core's transfer check hook; read routes, SDK functions and `torana controls`.

import type { DataEvent } from '../../model/events.js';
import type { RejectionCode } from '../../model/rejections.js';
import type { LedgerModule } from '../descriptor.js';
import { controlsTransferCheck } from './check.js';
import { registerControlCommands } from './commands.js';
import { CONTROLS_DOC_SECTIONS } from './docs.js';
import {
  CONTROLS_REMOVAL,
  setTransferBlacklist,
  setTransferCap,
  setTransferFreeze,
  setTransferListEntry,
} from './handlers.js';
import { controlReadPort } from './reads.js';
import { controlsFamily } from './routes.js';
import { CONTROL_SDK } from './sdk.js';
import { controlTouches } from './touched.js';
import { controlsWire } from './wire.js';

export const controlsModule: LedgerModule = {
  name: 'controls',
  instructions: {
    SetTransferFreeze: setTransferFreeze,
    SetTransferBlacklist: setTransferBlacklist,
    SetTransferListEntry: setTransferListEntry,
    SetTransferCap: setTransferCap,
  },
  tables: (controlsWire.tables ?? []).map((t) => t.name),
  schemaTypes: controlsWire.schemaTypes ?? [],
  events: Object.keys(controlsWire.events ?? {}) as DataEvent['kind'][],
  rejections: Object.keys(controlsWire.rejections ?? {}) as RejectionCode[],
  transferCheck: controlsTransferCheck,
  removal: CONTROLS_REMOVAL,
  touches: controlTouches,
  routes: (env) =>
    controlsFamily(controlReadPort(env.state, env.deps.ports.state, env.deps.ports.chain), env.deps),
  sdk: CONTROL_SDK,
  cli: registerControlCommands,
  docs: 'docs/controls.md',
  docSections: CONTROLS_DOC_SECTIONS,
};
