// The ports through which route families reach the node (docs/design/architecture.md "Layers": the
// gateway sees small interfaces, never concrete classes). `node/serve.ts` adapts the concrete node to these.

import type { CodecError } from '../codec/errors.js';
import type { ConsensusSnapshot } from '../consensus/engine.js';
import type { EvidenceKind } from '../consensus/evidence.js';
import type { EvidenceOutcome, EvidencePage } from '../consensus/evidence-store.js';
import type { Block } from '../model/block.js';
import type {
  Account,
  Asset,
  AssetDefinition,
  Domain,
  Nft,
  Peer,
  Role,
  UpgradeRecord,
} from '../model/entities.js';
import type { EventEnvelope } from '../model/events.js';
import type { IdName, NamedIdKind } from '../model/id-names.js';
import type { ListedRows } from '../model/listed-rows.js';
import type { Parameters } from '../model/parameters.js';
import type { Permission } from '../model/permissions.js';
import type { QueryResponse } from '../model/queries.js';
import type { Rejection } from '../model/rejections.js';
import type { SubmitResult } from '../pipeline/pipeline.js';
import type { QueryPort } from './query-port.js';

export type { ListedRows };

/** One holder in a definition's ordered holder index: its balance's order key and its asset id. */
export interface HolderStep {
  readonly key: Uint8Array;
  readonly child: string;
}

/** A walk of the ordered holder index: resume after `after`, at most `max` steps. */
export interface HolderWalk {
  readonly descending: boolean;
  readonly after?: HolderStep;
  readonly max: number;
}

/** Read-only view of the committed world state. */
export interface StateReader {
  /** A row without copying: only to derive new values from (a list scan's JSON); never change it. */
  peek<N extends keyof ListedRows>(table: N, id: string): Readonly<ListedRows[N]> | undefined;
  domain(id: string): Domain | undefined;
  account(id: string): Account | undefined;
  assetDefinition(id: string): AssetDefinition | undefined;
  asset(id: string): Asset | undefined;
  nft(id: string): Nft | undefined;
  role(id: string): Role | undefined;
  peer(id: string): Peer | undefined;
  upgrade(id: string): UpgradeRecord | undefined;
  parameters(): Parameters;
  abiVersion(): number;
  /** Ids of a table in ascending order, not copied (a snapshot the caller must not change). */
  sortedIds(table: 'domain' | 'account' | 'assetDefinition' | 'asset' | 'nft'): readonly string[];
  listDomains(): Domain[];
  listAccounts(): Account[];
  listAssetDefinitions(): AssetDefinition[];
  listAssets(): Asset[];
  listNfts(): Nft[];
  listRoles(): Role[];
  listPeers(): Peer[];
  listUpgrades(): UpgradeRecord[];
  assetsOfAccount(account: string): Asset[];
  holdersOfDefinition(definition: string): Asset[];
  /** How many assets of the definition are held (on disk one read, whatever the holders). */
  holderCount(definition: string): number;
  /** Ids of the definition's assets in ascending order, not copied (a snapshot the caller must not change). */
  holderIds(definition: string): readonly string[];
  /** The first `n` of holderIds(), read alone; undefined when they cannot be told without all of them. */
  firstHolderIds(definition: string, n: number): readonly string[] | undefined;
  /**
   * The definition's holders in balance order (ascending unless `descending`), `max` after `after`, from the
   * ordered holder index of a state on disk: each step's `key` is its balance's order key
   * (state/state-index-keys.ts `orderKeyMantissa` reads it), `child` its asset id. Undefined for a state in
   * the heap, which keeps no ordered index.
   */
  orderedHolders(definition: string, walk: HolderWalk): readonly HolderStep[] | undefined;
  permissionsOfAccount(account: string): Permission[];
  rolesOfAccount(account: string): string[];
  /** `text` read as a ledger module's name standing in for an id of `kind` (id-resolver.ts). */
  idName(kind: NamedIdKind, text: string): IdName | undefined;
  /** How those names look, for a 400 that lists the accepted forms. */
  idNameForms(kind: NamedIdKind): string[];
  domainCount(): number;
  accountCount(): number;
  stateRoot(): Uint8Array;
  /** Changes with every commit merged into the state (the answer cache's key, answer-cache.ts). */
  readonly version: number;
}

export interface TxLocation {
  height: number;
  index: number;
}

/** Committed blocks and transaction indexes. */
export interface ChainReader {
  height(): number;
  tipHash(): Uint8Array;
  /** Creation time (Unix ms) of the newest block; 0 before block 1. */
  tipTimeMs(): number;
  block(height: number): Promise<Block | undefined>;
  locate(hash: Uint8Array): TxLocation | undefined;
  accountTransactions(
    account: string,
    offset: number,
    limit: number,
  ): Promise<{ total: number; items: TxLocation[] }>;
}

/**
 * The answer to one submission: the pipeline's result (pipeline.ts `SubmitResult`, declared there once),
 * or the gateway's own refusal when the client is over its rate budget.
 */
export type SubmitOutcome = SubmitResult | { ok: false; kind: 'rate_limited'; retryAfterS: number };

/**
 * The rate budget of a batch: called once its items are read, with their count; only the first `granted`
 * are admitted, the others answer `rate_limited` (gateway rate-limit.ts `takeUpTo`).
 */
export type BatchBudget = (count: number) => { granted: number; retryAfterS: number };

/** A batch of signed transactions: one outcome per item, in order, or why the batch was not read. */
export type BatchOutcome =
  | { ok: true; results: SubmitOutcome[] }
  | { ok: false; kind: 'codec'; error: CodecError }
  | { ok: false; kind: 'too_many'; count: number; max: number };

export type TxStatusView =
  | { status: 'Queued' }
  | { status: 'Expired' }
  | { status: 'Dropped'; message: string }
  | { status: 'Committed'; blockHeight: number }
  | { status: 'Rejected'; reason: Rejection; blockHeight: number };

export interface PipelineCountersView {
  txsApproved: number;
  txsRejected: number;
  txsExpired: number;
  blocks: number;
  blocksNonEmpty: number;
  lastCommitMs: number;
}

export interface TransactionsPort {
  /** `source`: the submitter's client key (network address), for the per-source queue cap. */
  submit(body: Uint8Array, source?: string): Promise<SubmitOutcome>;
  /**
   * A framed or bare SignedTransactionBatch of at most `itemsMax` items: every item admitted with every
   * check (signatures verified together), one outcome each, in order; with a `budget`, only the items it
   * grants are admitted.
   */
  submitBatch(
    body: Uint8Array,
    itemsMax: number,
    source?: string,
    budget?: BatchBudget,
  ): Promise<BatchOutcome>;
  status(hash: Uint8Array): Promise<TxStatusView | undefined>;
  queueDepth(): number;
  queueCapacity(): number;
  counters(): PipelineCountersView;
}

export type QueryOutcome =
  | { ok: true; response: QueryResponse }
  | { ok: false; code: string; message: string; details?: Record<string, unknown> };

export interface QueriesPort {
  /** Decodes, verifies and runs a signed query (framed or bare codec bytes). */
  execute(body: Uint8Array): Promise<QueryOutcome>;
  /** Stops background work (the cursor sweep timer). */
  close?(): void;
  /** Live query cursors (for tests and metrics). */
  openCursors?(): number;
}

export interface EventsPort {
  since(lastId: number): EventEnvelope[] | 'gone';
  subscribe(listener: (e: EventEnvelope) => void): () => void;
  lastId(): number;
}

/** A signed acknowledgement of receipt, by the node's key. */
export interface Receipt {
  txHash: string;
  submittedAtMs: number;
  submittedAtHeight: number;
  nodePublicKey: string;
  signature: string;
}

export interface NodeInfoPort {
  chainId: string;
  peerId: string;
  /** `validator`, `observer` (networked, never votes) or `single` (a lone validator, no network). */
  role: 'validator' | 'observer' | 'single';
  /** `torana/<package version>`. */
  version: string;
  address: string;
  startedAtMs: number;
  nowMs(): number;
  healthy(): boolean;
  /** Signs a receipt for an admitted transaction. */
  receipt(txHash: Uint8Array, submittedAtMs: number, submittedAtHeight: number): Receipt;
  /** `<peer id>@<address>` of every connected peer. */
  connectedPeers(): string[];
  /** Every configured peer with its live state (empty for a lone node). */
  peers(): PeerDetail[];
  /** Clock offsets measured against the peers (node/time-sync.ts); the fallback for a lone node. */
  time(): TimeReport;
}

export interface PeerTimeReport {
  peer: string;
  lastOffsetMs: number;
  lastRttMs: number;
  /** Samples taken from this peer since it connected. */
  count: number;
}

/** What the time routes report (node/time-sync.ts: NTP-style exchanges over the peer channel). */
export interface TimeReport {
  /** Peers with a live session now. */
  peers: number;
  /** Samples in the windows of all peers. */
  samples: number;
  /** Median over peers of how far their clocks are ahead of this one (0 in fallback). */
  offsetMs: number;
  /** Half the median round trip of the samples used: the bound of the offset's error (0 in fallback). */
  confidenceMs: number;
  /** Fewer samples than the minimum: offset 0, this node's own clock. */
  fallback: boolean;
  perPeer: PeerTimeReport[];
  rttHistogram: { leMs: number; count: number }[];
}

export interface PeerDetail {
  peerId: string;
  /** Configured or observed `host:port`; '' when unknown. */
  address: string;
  /** What the peer announced: `validator`, `observer`, or `unknown` before it first connected. */
  role: string;
  connected: boolean;
  /** Wall-clock ms of the last bytes received from it; 0 = never. */
  lastSeenMs: number;
}

/**
 * Consensus settings the routes report, fixed for the life of a node. In single-peer mode the one validator
 * is leader and sole collector (k = r = 1) and never changes view, so no pacemaker timeout ever fires.
 */
export interface ConsensusSettings {
  /** config `block.time_ms`: the longest a non-empty queue waits for a block. */
  blockTimeMs: number;
  /** config `block.commit_time_ms`: the time a proposal has to gather its commit certificate (view timeout). */
  commitTimeMs: number;
  /** Collectors per (height, view), and collectors each vote is sent to. */
  collectorsK: number;
  collectorsR: number;
  /** config `streams.consensus_status_interval_ms`: period of `/v1/consensus/status/sse`. */
  statusIntervalMs: number;
  /** How many of the newest blocks `blockHeightByHash` can find. */
  blockHashLookupMax: number;
}

export interface EvidencePort {
  /** Decodes (framed or bare codec bytes), verifies and stores one record; resolves once it is durable. */
  submit(bytes: Uint8Array): Promise<EvidenceOutcome>;
  list(q: { kind?: EvidenceKind; offset: number; limit: number }): EvidencePage;
  count(): number;
}

/**
 * One consensus key and its lifecycle, from the committed peer rows (consensus/membership.ts): active at
 * every height in [activeFrom, disabledAt); genesis keys have registeredAt 0 and activeFrom 1.
 */
export interface ConsensusKeyRecord {
  peerId: string;
  blsKey: string;
  registeredAt: number;
  activeFrom: number;
  disabledAt: number | undefined;
}

export interface ConsensusPort {
  snapshot(): ConsensusSnapshot;
  settings(): ConsensusSettings;
  /** Every registered peer's consensus key, live and disabled, sorted by peer id (committed state). */
  keyLifecycle(): readonly ConsensusKeyRecord[];
  /** The height of a committed block by its hash, among the newest `blockHashLookupMax` blocks. */
  blockHeightByHash(blockHash: Uint8Array): Promise<number | undefined>;
  evidence: EvidencePort;
}

export interface GatewayPorts {
  node: NodeInfoPort;
  /** The query language of list filters, sorts and event filters (query-port.ts). */
  query: QueryPort;
  state: StateReader;
  chain: ChainReader;
  transactions: TransactionsPort;
  queries: QueriesPort;
  events: EventsPort;
  consensus: ConsensusPort;
}
