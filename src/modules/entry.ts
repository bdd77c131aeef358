// A module's entry in the registry (registry.ts): its name, its wire and whether it has CLI commands.
// Apart from descriptor.ts because the registry is part of the SDK: the SDK's published declarations
// reach this file, so it imports no server type (no gateway, Fastify, storage).

import type { ModuleConfigSection } from '../config/sections.js';
import type { RejectionForms } from '../model/rejection-text.js';
import type { ModuleWire } from '../state/module-wire.js';

/**
 * A module's entry in src/modules/registry.ts: its light parts. Its descriptor is loaded from
 * `src/modules/<name>/descriptor.ts` (the export whose `name` is the module's) by load.ts, its commands
 * from `src/modules/<name>/commands.ts` (its one exported function) by commands.ts; the entry `ledger`
 * stands for the features still in the core folders (modules/ledger.ts).
 */
export interface ModuleEntry {
  readonly name: string;
  /** Its wire declarations (declared when its `wire.ts` was imported). */
  readonly wire?: ModuleWire;
  /** Whether it has CLI commands (`<name>/commands.ts`, registered by cli/main.ts in registry order). */
  readonly cli?: true;
  /**
   * Its configuration section (`<name>/config.ts`), added to the one config schema when the registry is
   * imported (src/config/sections.ts): keys, defaults, docs, switch rules.
   */
  readonly config?: ModuleConfigSection;
  /**
   * Its committed rejection messages that carry base units, as a reader sees them (`<name>/rejection-forms.ts`,
   * added to src/model/rejection-text.ts when the registry is imported).
   */
  readonly rejectionForms?: RejectionForms;
  /** The modules it builds on (their tables, rows or codecs); each is listed before it. */
  readonly dependsOn?: readonly string[];
}
