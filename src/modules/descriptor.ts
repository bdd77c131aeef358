// A ledger module's descriptor (docs/design/modules.md): ONE object through which a feature declares
// every piece the core layers need from it, as a Cosmos SDK module or a Fastify plugin does. The core
// never imports a module: src/modules/registry.ts lists the descriptors and installs them; the core sees
// them through its own ports (state/module-host.ts for the executor, node/families.ts for routes, the
// CLI's and the SDK's composition files for commands and functions).
//
// Wire compatibility: instruction and event tags, parameter tags, rejection numbers and table ids stay
// in the core's append-only tag tables (model/tags.ts). A module declares what those entries carry in
// its `wire.ts` (state/module-wire.ts `declareModuleWire`), which the registry imports; its descriptor
// claims the entries by name, and load.ts checks the claims at start-up.

import type { AnyCodec } from '../codec/codec.js';
import type { RouteDeps } from '../gateway/deps.js';
import type { RouteFamily } from '../gateway/family.js';
import type { DataEvent } from '../model/events.js';
import type { RejectionCode } from '../model/rejections.js';
import type { HandlerTable } from '../state/exec-context.js';
import type { TableName } from '../state/keys.js';
import type { DueWork } from '../state/module-host.js';
import type { ModuleWire } from '../state/module-wire.js';
import type { WorldState } from '../state/world-state.js';

/** What a module's route family is built from (the node adapts itself to this in node/families.ts). */
export interface ModuleRouteEnv {
  /** The committed world state (read-only for routes). */
  readonly state: WorldState;
  readonly deps: RouteDeps;
}

/** A CLI command group's declaration: registers its commands on the program (commander). */
export type CliRegistration = (program: import('commander').Command) => void;

export interface LedgerModule {
  /** Short name: the module's folder under src/modules/ and its name in logs and docs. */
  readonly name: string;
  /** The instructions it claims, by kind (tags in the core tag table), with their handlers. */
  readonly instructions: Readonly<Partial<HandlerTable>>;
  /** The world-state tables it owns (ids in the core tag table state/keys.ts). */
  readonly tables: readonly TableName[];
  /** Its wire types in the schema registry (GET /schema, frame schema hashes). */
  readonly schemaTypes: readonly AnyCodec[];
  /** The data events it emits. */
  readonly events: readonly DataEvent['kind'][];
  /** The rejection codes it declares. */
  readonly rejections: readonly RejectionCode[];
  /** Work run at the end of a block when due (state/module-host.ts), within the due-work weight share. */
  readonly dueWork?: DueWork;
  /** Its route family, placed in node/families.ts at the module's registry position. */
  readonly routes?: (env: ModuleRouteEnv) => RouteFamily;
  /** Its SDK functions by name; src/sdk/index.ts exports each under the same name. */
  readonly sdk?: Readonly<Record<string, (...args: never[]) => unknown>>;
  /** Its CLI commands (the same function its entry in src/modules/registry.ts hands to the CLI). */
  readonly cli?: CliRegistration;
  /** Its documentation page, relative to the repository root. */
  readonly docs: string;
  /** The modules it builds on (as in its registry entry). */
  readonly dependsOn?: readonly string[];
}

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
  /** The modules it builds on (their tables, rows or codecs); each is listed before it. */
  readonly dependsOn?: readonly string[];
}
