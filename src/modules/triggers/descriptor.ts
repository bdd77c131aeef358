// The triggers module (docs/triggers.md): time triggers — instructions scheduled by block height or block
// time, run inside block execution with the authority that registered them.

import { TriggerCodec } from '../../model/trigger-row.js';
import { TriggerDueRowCodec } from '../../model/triggers.js';
import type { LedgerModule } from '../descriptor.js';
import { registerTriggerCommands } from './commands.js';
import { registerTrigger, unregisterTrigger } from './handlers.js';
import { triggerReadPort } from './reads.js';
import { triggersFamily } from './routes.js';
import { TRIGGER_DUE_WORK } from './run.js';
import { TRIGGER_SDK } from './sdk.js';

export const triggersModule: LedgerModule = {
  name: 'triggers',
  instructions: { RegisterTrigger: registerTrigger, UnregisterTrigger: unregisterTrigger },
  tables: ['trigger', 'triggerDue'],
  schemaTypes: [TriggerCodec, TriggerDueRowCodec],
  events: ['TriggerRegistered', 'TriggerUnregistered', 'TriggerExecuted', 'TriggerFailed'],
  rejections: [
    'trigger_invalid',
    'trigger_not_found',
    'trigger_reserved',
    'trigger_repeat_too_fast',
    'trigger_limit',
  ],
  dueWork: TRIGGER_DUE_WORK,
  routes: (env) => triggersFamily(triggerReadPort(env.state), env.deps),
  sdk: TRIGGER_SDK,
  cli: registerTriggerCommands,
  docs: 'docs/triggers.md',
};
