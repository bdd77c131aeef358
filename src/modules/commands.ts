// The CLI command groups of the ledger modules, in registry order: what `torana` (cli/main.ts) registers
// after its own commands. Kept apart from registry.ts so that `torana --help` loads only commander and
// the declaration files, never the node; registry.test.ts checks this list against the descriptors.

import { registerConferenceCommands } from './conference/commands.js';
import { registerControlCommands } from './controls/commands.js';
import type { CliRegistration } from './descriptor.js';
import { registerMultisigCommands } from './multisig/commands.js';
import { registerTriggerCommands } from './triggers/commands.js';

export const MODULE_COMMANDS: readonly CliRegistration[] = [
  registerConferenceCommands,
  registerMultisigCommands,
  registerControlCommands,
  registerTriggerCommands,
];
