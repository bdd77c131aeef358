// A ledger module's descriptor (docs/design/modules.md): ONE object through which a feature declares
// every piece the core layers need from it, as a Cosmos SDK module or a Fastify plugin does. The core
// never imports a module: src/modules/registry.ts lists the descriptors and installs them; the core sees
// them through its own ports (state/module-host.ts for the executor, node/families.ts for routes, the
// CLI's and the SDK's composition files for commands and functions).
//
// Wire compatibility: instruction tags (model/instructions.ts INSTRUCTION_KINDS), table ids
// (state/keys.ts TABLE_TAGS), event tags and rejection numbers stay in the core's append-only tag tables;
// a descriptor claims entries of those tables by name, and the registry checks the claims at start-up.

import type { CliIdNames } from '../cli/id-names.js';
import type { AnyCodec } from '../codec/codec.js';
import type { RouteDeps } from '../gateway/deps.js';
import type { ModuleEventScope } from '../gateway/event-scope.js';
import type { RouteFamily } from '../gateway/family.js';
import type { DataEvent } from '../model/events.js';
import type { RejectionCode } from '../model/rejections.js';
import type { HandlerTable } from '../state/exec-context.js';
import type { TableName } from '../state/keys.js';
import type { DueWork, EntityCleanup, IdNaming } from '../state/module-host.js';
import type { WorldState } from '../state/world-state.js';

/** What a module's route family is built from (the node adapts itself to this in node/families.ts). */
export interface ModuleRouteEnv {
  /** The committed world state (read-only for routes). */
  readonly state: WorldState;
  readonly deps: RouteDeps;
}

/** A module's route family and the served family it is mounted after (undefined: after all). */
export interface ModuleFamily {
  readonly family: RouteFamily;
  readonly after: string | undefined;
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
  /** What its data events are about, for the event filters' `account` / `definition` / … fields. */
  readonly eventScope?: ModuleEventScope;
  /** The rejection codes it declares. */
  readonly rejections: readonly RejectionCode[];
  /** Work run at the end of a block when due (state/module-host.ts), within the due-work weight share. */
  readonly dueWork?: DueWork;
  /** What it removes of its own when the core unregisters a domain, account or asset definition. */
  readonly cleanup?: EntityCleanup;
  /** Its names that stand in for account or definition ids on every route (model/id-names.ts). */
  readonly idNaming?: IdNaming;
  /** Its route family, mounted by node/families.ts (see routesAfter). */
  readonly routes?: (env: ModuleRouteEnv) => RouteFamily;
  /**
   * The served family after which its routes are mounted; by default the one its family publishes under
   * (a module's routes kept in a family users know join it), else after all of them. A feature moved
   * into a module keeps its place in the served route order, so the OpenAPI document and the
   * capabilities' features list stay as they were.
   */
  readonly routesAfter?: string;
  /** Its SDK functions by name; src/sdk/index.ts exports each under the same name. */
  readonly sdk?: Readonly<Record<string, (...args: never[]) => unknown>>;
  /** Its CLI commands (the same function src/modules/commands.ts hands to the CLI). */
  readonly cli?: CliRegistration;
  /** Its names given on the command line in place of ids (listed likewise in src/modules/commands.ts). */
  readonly cliIdNames?: CliIdNames;
  /** Its documentation page, relative to the repository root. */
  readonly docs: string;
}
