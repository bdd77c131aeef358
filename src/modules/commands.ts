// The CLI command groups of the ledger modules, in registry order: what `torana` (cli/main.ts) registers
// after its own commands. Kept apart from registry.ts so that `torana --help` loads only commander and
// the declaration files, never the node; registry.test.ts checks these lists against the descriptors.

import type { CliIdNames } from '../cli/id-names.js';
import { ALIAS_ID_NAMES, registerAliasCommands } from './aliases/commands.js';
import { registerConferenceCommands } from './conference/commands.js';
import { registerControlCommands } from './controls/commands.js';
import type { CliRegistration } from './descriptor.js';
import { registerMultisigCommands } from './multisig/commands.js';
import { registerTriggerCommands } from './triggers/commands.js';

export const MODULE_COMMANDS: readonly CliRegistration[] = [
  registerConferenceCommands,
  registerAliasCommands,
  registerMultisigCommands,
  registerControlCommands,
  registerTriggerCommands,
];

/** The modules' names accepted in place of ids on the command line (cli/id-names.ts), in registry order. */
export const MODULE_CLI_ID_NAMES: readonly CliIdNames[] = [ALIAS_ID_NAMES];
