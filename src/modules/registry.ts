// The ledger modules of this build, one entry each, in tag order (each module's lowest instruction tag):
// the ONE file that names the modules (docs/design/modules.md). It is light — each module's wire
// declarations and SDK functions, never its handlers, routes, due work or commands — so every entry point
// imports it: the node and the simulator (through load.ts), the CLI (through commands.ts) and the SDK
// (`export *` from src/sdk/index.ts: the modules' SDK functions under their names). Importing it declares
// every module's wire pieces (its `wire.ts`) into the core's codecs and tables before any codec use.
// The heavy parts of a module are found by convention from its name, so no other file names it:
// `<name>/descriptor.ts`, loaded by load.ts (only composition roots import it), and `<name>/commands.ts`,
// found by commands.ts (the CLI, whose `--help` must not load the model) — a browser bundle of the SDK
// never reaches handlers, routes or CLI code.
//
// The module list is this file's DEFAULT export (`export *` does not re-export a default), so that the
// SDK's `export *` takes only the modules' SDK functions below.

import type { ModuleEntry } from './descriptor.js';
import { triggerInstructions } from './triggers/sdk.js';
import { triggersWire } from './triggers/wire.js';

// The modules' SDK functions (src/sdk/index.ts re-exports them).
export {
  type TriggerDueInput,
  type TriggerList,
  type TriggerRepeatInput,
  type TriggerRow,
  triggerDetail,
  triggersList,
} from './triggers/sdk.js';

/** The modules' instruction builders, spread into the SDK's `instructions` (src/sdk/instructions.ts). */
export const moduleInstructions = { ...triggerInstructions } as const;

const LEDGER_MODULES: readonly ModuleEntry[] = Object.freeze([
  // The features still in the core folders (modules/ledger.ts): their wire is the core's own.
  { name: 'ledger' },
  { name: 'triggers', wire: triggersWire, cli: true },
]);

export default LEDGER_MODULES;
