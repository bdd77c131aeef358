// The triggers module (docs/triggers.md): time triggers — instructions scheduled by block height or block
// time, run inside block execution with the authority that registered them.

import type { DataEvent } from '../../model/events.js';
import type { RejectionCode } from '../../model/rejections.js';
import type { LedgerModule } from '../descriptor.js';
import { registerTriggerCommands } from './commands.js';
import { TRIGGER_DOC_SECTIONS } from './docs.js';
import { registerTrigger, unregisterTrigger } from './handlers.js';
import { triggerReadPort } from './reads.js';
import { triggersFamily } from './routes.js';
import { TRIGGER_DUE_WORK } from './run.js';
import { TRIGGER_SCHEDULED_RUNS } from './scheduled.js';
import { TRIGGER_SDK } from './sdk.js';
import { triggersWire } from './wire.js';

export const triggersModule: LedgerModule = {
  name: 'triggers',
  instructions: { RegisterTrigger: registerTrigger, UnregisterTrigger: unregisterTrigger },
  tables: (triggersWire.tables ?? []).map((t) => t.name),
  schemaTypes: triggersWire.schemaTypes ?? [],
  events: Object.keys(triggersWire.events ?? {}) as DataEvent['kind'][],
  rejections: Object.keys(triggersWire.rejections ?? {}) as RejectionCode[],
  dueWork: TRIGGER_DUE_WORK,
  scheduledRuns: TRIGGER_SCHEDULED_RUNS,
  routes: (env) => triggersFamily(triggerReadPort(env.state), env.deps),
  sdk: TRIGGER_SDK,
  cli: registerTriggerCommands,
  docs: 'docs/triggers.md',
  docSections: TRIGGER_DOC_SECTIONS,
};
