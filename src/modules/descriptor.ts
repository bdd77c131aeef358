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

import type { CliIdNames } from '../cli/id-names.js';
import type { AnyCodec } from '../codec/codec.js';
import type { Config } from '../config/schema.js';
import type { RouteDeps } from '../gateway/deps.js';
import type { ErrorSpec } from '../gateway/errors.js';
import type { ModuleEventScope } from '../gateway/event-scope.js';
import type { RouteFamily } from '../gateway/family.js';
import type { OperatorAuth } from '../gateway/operator-auth.js';
import type { OperatorSessions } from '../gateway/operator-sessions.js';
import type { EventsPort } from '../gateway/ports.js';
import type { SignedRequests } from '../gateway/signed-request.js';
import type { DataEvent, EventEnvelope } from '../model/events.js';
import type { RejectionCode } from '../model/rejections.js';
import type { TransactionAdmission, TransactionFate } from '../model/transaction-fate.js';
import type { Ledger } from '../pipeline/ledger.js';
import type { HandlerTable } from '../state/exec-context.js';
import type { TableName } from '../state/keys.js';
import type {
  AuthorityCheck,
  DueWork,
  IdNaming,
  InstructionParties,
  RemovalHook,
  ScheduledRunMaker,
  ScheduledRuns,
  TouchedBy,
  TransferCheck,
} from '../state/module-host.js';
import type { WorldState } from '../state/world-state.js';

/**
 * The node's feed of committed events with their ids (the same ids as the SSE streams': block height and
 * position, stable across restarts), held in memory for a while.
 */
export interface CommittedEventFeed {
  /** Events with id > lastId still held in memory, or 'gone' when some are no longer held. */
  since(lastId: number): EventEnvelope[] | 'gone';
  /** Every event as it is published, in id order; returns the unsubscribe function. */
  subscribe(listener: (e: EventEnvelope) => void): () => void;
  lastId(): number;
}

/**
 * Committed events read back from the chain for a gap the feed no longer holds (after a crash): the
 * blocks are re-executed from genesis on an empty world state and their events handed over block by block
 * with the feed's ids. Costly; a module runs it in the background and caps it by `blocks()`.
 */
export interface CommittedEventReplay {
  /** Calls `onBlock` with the committed events of every block from the one of `afterId` up to the tip. */
  replay(afterId: number, onBlock: (events: EventEnvelope[]) => void): Promise<void>;
  /** Blocks a replay re-executes (from genesis to the tip). */
  blocks(): number;
}

/**
 * The node's own transaction path, for a module that runs a node-local service signing and submitting
 * transactions of its own account (node/module-ledger.ts adapts the pipeline and the chain to it).
 */
export interface NodeTransactions {
  readonly chainId: string;
  /** The genesis transaction's authority (a node-local service never signs as it). */
  readonly genesisAuthority: string;
  /** Submits a framed signed transaction (`application/x-codec` bytes). */
  submit(framedTx: Uint8Array): Promise<TransactionAdmission>;
  /** Several at once (one batched admission, every check kept for each), one answer each, in order. */
  submitMany(framedTxs: readonly Uint8Array[]): Promise<TransactionAdmission[]>;
  status(hash: Uint8Array): Promise<TransactionFate>;
  /** Creation time of a committed block (its header), or undefined. */
  blockTimeMs(height: number): number | undefined;
}

/**
 * The committed chain a read family is served from (node/read-backend.ts): the node's own ledger, or a
 * replica of it that the configuration names (the indexer's database), which trails the node's height.
 */
export interface CommittedReads {
  /** The route deps over these reads' state and chain (names given in place of ids resolve against it). */
  readonly deps: RouteDeps;
  /** The ledger read: committed blocks, state and the commit-time indexes (pipeline/index-writes.ts). */
  readonly ledger: Ledger;
  /** Committed events as they are applied, with their ids. */
  readonly events: EventsPort;
  /** The height of a committed block by its hash, among the newest blocks it can look up. */
  blockHeightByHash(hash: Uint8Array): Promise<number | undefined>;
  /** Peers the node is configured with or connected to, itself included. */
  peerCount(): number;
  /**
   * The family as served over these reads: over a replica every answer names the height it was given
   * at, and the replica is closed with the last family served over it. A family built over these reads
   * is served through this.
   */
  serve(family: RouteFamily): RouteFamily;
}

/**
 * Where the committed reads of the read families come from (node/read-backend.ts): the node's own
 * ledger, or a replica ledger that re-executes the blocks `torana index --pg` wrote into a PostgreSQL
 * database (`conninfo`, followed every `pollMs`), which trails the node's height. `label` names the
 * setting in the replica's errors (the configuration key of `conninfo`).
 */
export type ReadSource =
  | { readonly kind: 'ledger' }
  | {
      readonly kind: 'pg-replica';
      readonly conninfo: string;
      readonly pollMs: number;
      readonly label: string;
    };

/** What a module's route family is built from (the node adapts itself to this in node/families.ts). */
export interface ModuleRouteEnv {
  /** The committed world state (read-only for routes). */
  readonly state: WorldState;
  readonly deps: RouteDeps;
  /** The node's configuration: a module reads its own section (and its own switch). */
  readonly config: Config;
  /** The node's one signed-request verifier, shared by every family. */
  readonly signedRequests: SignedRequests;
  /** Node time (ms). */
  now(): number;
  /** Logs a background failure of the family (a worker, a follower of committed blocks). */
  logError(what: string, e: unknown): void;
  /** The server's operator authentication (for routes that also accept operators). */
  readonly operatorAuth: OperatorAuth;
  /** The gateway's operator session store, whose tokens the operator authentication accepts. */
  readonly operatorSessions: OperatorSessions;
  /** Logs an audit line of the family (an operator ceremony, …) at info level. */
  logInfo(entry: object, message: string): void;
  /** The committed events as the node announces them. */
  readonly events: CommittedEventFeed;
  /** Reading committed events back from the chain; absent when the node cannot (no block log). */
  readonly replay?: CommittedEventReplay;
  /** The committed reads the configuration names, opened on the first call (read-only families). */
  reads(): Promise<CommittedReads>;
  /**
   * The folder of the module's own node-local store, `<data>/<module name>` in the node directory; absent
   * when the node is served without a directory (a module that needs a store then leaves its family
   * out). The module opens its store when its family is built and closes it in the family's `close`;
   * the node's online backup copies every LMDB store of the data folder, so this one too.
   */
  readonly storeDir?: string;
  /** The node directory (its key files and the files its configuration names); absent without one. */
  readonly nodeDir?: string;
  /** The node's own transaction path, for a node-local service that submits signed transactions. */
  readonly transactions?: NodeTransactions;
  /**
   * The node's peer channel (p2p, authenticated senders) for the messages the module claims (its
   * `peerMessages`); absent on a lone node, which has no network.
   */
  readonly peers?: ModulePeerChannel;
}

/** The node's peer channel as a module sees it: its own messages out to every connected peer, and in. */
export interface ModulePeerChannel {
  /** Sends to every connected peer; answers how many sends were queued. */
  broadcast(bytes: Uint8Array): number;
  /** Calls `fn` with every message a peer sends (the module keeps those it claims). */
  onMessage(fn: (fromPeerId: string, bytes: Uint8Array) => void): void;
}

/**
 * A section of a shared documentation page made of the modules' own entries (src/modules/docs.ts):
 * `app-api-families` (a `| family | routes | needs |` row of docs/app-api.md), `app-api-always` (a
 * `| family | routes |` row of docs/app-api.md: a family that is not an application family, served
 * whatever `app_api.enabled` says), `app-api-names` (a
 * paragraph of its "Names in place of ids": the names a module gives and how they resolve),
 * `app-api-id-names` (a `| where | parameters |` row of its table of names taken in place of ids),
 * `security-writes` (a paragraph of docs/security.md "Writing to the ledger"),
 * `errors-routes` (a `## …` section of docs/errors.md: the gateway error codes its routes answer with,
 * one `| code | HTTP status | meaning |` table each), `errors-cli` (a `| code | meaning |` row of
 * docs/errors.md: its commands' own CLI codes), `data-model-ids` (a `| entity | text form | example |` row of
 * docs/data-model.md), `data-model-entities` (a paragraph of docs/data-model.md "Entities": its rows),
 * `data-model-instructions` (a paragraph of docs/data-model.md "Instructions": its instructions),
 * `errors-rejections` (a `| code | number | meaning |` row of docs/errors.md: a core rejection code of a
 * ledger piece the module's page documents), `security-sections` (a `## …` section of docs/security.md),
 * `app-api-switches` (a paragraph of docs/app-api.md "The switch": its own switch and how it follows),
 * `config-sections` (its configuration section in docs/configuration.md "Keys of the modules":
 * `renderModuleConfigDocs` of src/config/docs.ts).
 * `operations-alerts` (a `| alert | severity | means | do |` row of docs/operations.md "Alerts": an alert
 * of deploy/prometheus/torana-alerts.yml on the module's own series).
 * `indexer-replica-intro` and `indexer-replica` (docs/indexer.md: the section on serving read families
 * from the indexer's database, its heading and lead before the `indexer-read-families` table, its
 * configuration and behaviour after it: the module whose section chooses that source),
 * `security-read-replica` (a paragraph and table of docs/security.md "The PostgreSQL indexer": that source's limits).
 * Besides these, the sections a module hosts on its own page (`hostsDocSections`, named in
 * `HostedDocSectionNames`).
 */
export type ModuleDocSection = CoreDocSection | keyof HostedDocSectionNames;

/**
 * The names of the sections modules host on their own pages, which other modules fill: the hosting
 * module adds its names by augmentation (`declare module '../descriptor.js' { interface
 * HostedDocSectionNames { 'its-section': true } }`, in its docs.ts) and declares where they sit in its
 * descriptor's `hostsDocSections`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the modules' augmentations
export interface HostedDocSectionNames {}

/** Where a shared section sits (its page) and how its entries are laid out (a head, joined by `join`). */
export interface DocSectionPlace {
  readonly page: string;
  readonly head: readonly string[];
  readonly join: string;
}

/** The sections the core's shared pages hold. */
export type CoreDocSection =
  | 'app-api-families'
  | 'app-api-always'
  | 'app-api-names'
  | 'app-api-id-names'
  | 'security-writes'
  | 'errors-routes'
  | 'errors-cli'
  | 'data-model-ids'
  | 'data-model-entities'
  | 'data-model-instructions'
  | 'errors-rejections'
  | 'security-sections'
  | 'app-api-switches'
  | 'config-sections'
  | 'operations-alerts'
  | 'indexer-read-families'
  | 'indexer-replica-intro'
  | 'indexer-replica'
  | 'security-read-replica';

/** A module's entries in the shared docs pages, by section (table rows or paragraphs, in Markdown). */
export type ModuleDocSections = Readonly<Partial<Record<ModuleDocSection, readonly string[]>>>;

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
  /**
   * Refuses a transaction by its authority before any instruction runs (state/module-host.ts), e.g. an
   * account that acts only through the module's own instructions.
   */
  readonly authorityCheck?: AuthorityCheck;
  /** Its check of every movement of value (state/exec-value.ts `moveValue`; state/module-host.ts). */
  readonly transferCheck?: TransferCheck;
  /**
   * What an Unregister* (domain, account or asset definition) asks of it: a refusal while it still needs
   * the entity, and its rows that hang off the entity to drop.
   */
  readonly removal?: RemovalHook;
  /**
   * The peer messages it sends and takes on the node's p2p channel, told apart by their leading bytes
   * (the module's magic): the node keeps them from the consensus engine (node/bft.ts), which would take
   * them for garbage and disconnect their sender, and hands them to its family (`ModuleRouteEnv.peers`).
   */
  readonly peerMessages?: (bytes: Uint8Array) => boolean;
  /** Its store of the runs the core schedules for later blocks (at most one module gives one). */
  readonly scheduledRuns?: ScheduledRuns;
  /**
   * What it says of the runs it schedules through that store (one module for every `$` id, others for
   * the ids their prefix begins): the refusal message
   * when an account tries to remove one by hand.
   */
  readonly scheduledRunMaker?: ScheduledRunMaker;
  /** The accounts its instructions name as parties (the commit-time account index, pipeline/involved.ts). */
  readonly parties?: InstructionParties;
  /** The asset definitions and assets its instructions touch (the history's indexes). */
  readonly touches?: TouchedBy;
  /** Its names that stand in for account or definition ids on every route (model/id-names.ts). */
  readonly idNaming?: IdNaming;
  /**
   * Its route family (or families), each served at its own rank (`servedAt`, docs/design/modules.md
   * "Serving order"); undefined when the module's own configuration switch is off (a family left out is not even built).
   * A family with a store or background workers builds asynchronously (a promise): it opens its store
   * and starts its workers when built, registers its metrics in its `install`, and stops its workers
   * and closes its store in its `close` (gateway/family.ts), which the server calls when it closes.
   */
  readonly routes?: (
    env: ModuleRouteEnv,
  ) =>
    | RouteFamily
    | readonly RouteFamily[]
    | Promise<RouteFamily | readonly RouteFamily[] | undefined>
    | undefined;
  /**
   * The name of its store folder under the node's data folder (`storeDir`), when not the module's name:
   * a feature that kept a store before it became a module keeps the folder node directories already hold.
   */
  readonly storeFolder?: string;
  /**
   * The gateway error codes its routes answer with, added to the node's one error registry at
   * composition time (gateway/errors.ts `createErrorRegistry`); docs/errors.md lists them.
   */
  readonly gatewayErrors?: Readonly<Record<string, ErrorSpec>>;
  /**
   * Whether, under `config`, it opens operator sessions by other means than an operator key (the
   * gateway's operator authentication then accepts session tokens on a node with no operator keys:
   * gateway/operator-auth.ts `sessionsWithoutKeys`).
   */
  readonly opensSessionsWithoutKeys?: (config: Config) => boolean;
  /**
   * The committed reads it wants the read families served over, under `config` (its own section's
   * choice): every family's `ModuleRouteEnv.reads` opens that source. At most one installed module
   * names a source other than the node's ledger (node/read-backend.ts `readSourceOf`); none: the ledger.
   */
  readonly readSource?: (config: Config) => ReadSource;
  /** Its SDK functions by name; src/sdk/index.ts exports each under the same name. */
  readonly sdk?: Readonly<Record<string, (...args: never[]) => unknown>>;
  /** Its CLI commands (the same function its entry in src/modules/registry.ts hands to the CLI). */
  readonly cli?: CliRegistration;
  /** Its names given on the command line in place of ids (listed likewise in src/modules/commands.ts). */
  readonly cliIdNames?: CliIdNames;
  /** Its documentation page, relative to the repository root. */
  readonly docs: string;
  /** Its entries in the shared documentation pages (table rows or paragraphs, in Markdown). */
  readonly docSections?: ModuleDocSections;
  /**
   * The sections it hosts on its own docs page, which every module (itself included) may fill through
   * `docSections`: where each sits and how its entries are laid out (src/modules/docs.ts).
   */
  readonly hostsDocSections?: Readonly<Partial<Record<keyof HostedDocSectionNames, DocSectionPlace>>>;
  /** The modules it builds on (as in its registry entry). */
  readonly dependsOn?: readonly string[];
}

// The registry's entry (one per module) lives in entry.ts, which the SDK's declarations reach: no
// server types there.
export type { ModuleEntry } from './entry.js';
