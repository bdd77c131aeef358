// The single declarative table of every configuration key of a node (docs/design/architecture.md
// "Decisions that shape everything"; docs/design/testing.md "Default limits"). Each key is declared once, with its type, default,
// bounds and doc: the core's here (`CORE_CONFIG_SCHEMA`), a ledger module's in its own folder, added
// through the port in sections.ts; `configSchema()` composes the two into the one schema, and the `Config`
// type, `defaultConfig()`, the environment names, the TOML renderer and docs/configuration.md are all
// derived from it. Names follow "units last" (`...Ms`,
// `...Bytes`, `...Max`) except where the reference's parameter names are kept (`max_clock_drift_ms`).
import { assert } from '../util/assert.js';
import { type ModuleConfigSection, moduleConfigSections } from './sections.js';
import {
  BYTES_CEILING,
  bool,
  COUNT_CEILING,
  type ConfigValue,
  camelCase,
  int,
  type KeySpec,
  list,
  ms,
  oneOf,
  type SectionSpec,
  type SectionValues,
  section,
  str,
} from './spec.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

/** Telemetry profiles: which route visibility classes each serves (docs/configuration.md "Telemetry profiles"). */
export const TELEMETRY_PROFILES = ['disabled', 'operator', 'extended', 'developer', 'full'] as const;
/** pino's levels, plus `silent`. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const LOG_FORMATS = ['auto', 'pretty', 'json'] as const;
/** What a node announces to its peers (src/p2p/hello.ts). */
export const NETWORK_ROLES = ['validator', 'observer'] as const;

/** The switches of the core's application families that need `app_api.enabled` (rules.ts CONFIG_NEEDS). */
const CORE_APP_API_SWITCHES: readonly string[] = [];

/**
 * The description of `app_api.enabled`: the route families it serves, the modules' application
 * families among them, and every switch that needs it (the core's and the modules').
 */
function appApiDoc(moduleFamilies: readonly string[], switches: readonly string[]): string {
  const families = moduleFamilies.map((f) => `, ${f}`).join('');
  const needers =
    switches.length <= 2
      ? switches.join(' and ')
      : `${switches.slice(0, -1).join(', ')} and ${switches.at(-1)}`;
  const verb = switches.length === 1 ? 'needs' : 'need';
  const needs = switches.length === 0 ? '' : ` ${needers} ${verb} it.`;
  return `Serve the application route families (accounts, domains, asset definitions, NFTs${families}, ...); false: none is registered (404) or in OpenAPI, the common, consensus and runtime routes stay.${needs}`;
}

/** The core's sections, in table order; the modules' sections follow MODULE_SECTIONS_AFTER. */
export const CORE_CONFIG_SCHEMA = {
  node: section('Identity of this node and where its files are (paths relative to the node directory).', {
    chain_id: str('torana-dev', 'Chain identifier; transactions signed for another chain are rejected.', {
      nonEmpty: true,
    }),
    genesis_file: str('genesis.json', 'Signed genesis file, relative to the node directory.', {
      nonEmpty: true,
    }),
    key_file: str('node.key.json', 'Key file of this node, relative to the node directory.', {
      nonEmpty: true,
    }),
  }),
  app_api: section('The application API: the app-facing route families (docs/app-api.md).', {
    enabled: bool(true, appApiDoc([], CORE_APP_API_SWITCHES)),
  }),
  gateway: section('The HTTP/SSE/WebSocket gateway: address, body and header limits, timeouts, rates.', {
    host: str('127.0.0.1', 'Address the gateway listens on.', { nonEmpty: true }),
    port: int(8080, 0, 65_535, 'TCP port the gateway listens on; 0 picks a free (ephemeral) port.'),
    tls_cert_file: str(
      '',
      'PEM certificate chain for HTTPS at the gateway, relative to the node directory; empty: plain HTTP. Set together with gateway.tls_key_file (docs/operations.md "TLS").',
    ),
    tls_key_file: str(
      '',
      'PEM private key of gateway.tls_cert_file, relative to the node directory; keep it readable by the node only.',
    ),
    cors_origins: list(
      [],
      'Origins allowed by CORS and to open WebSockets from a browser; empty sends no CORS headers at all.',
    ),
    trusted_proxies: list(
      [],
      'Addresses or CIDR ranges of reverse proxies in front of the gateway: their X-Forwarded-For names the client for rate limits, per-address caps and logs; empty: the socket peer is the client (docs/operations.md "Behind a reverse proxy").',
    ),
    allowed_hosts: list(
      ['localhost', '127.0.0.1', '[::1]'],
      'Names a request Host header may carry (port ignored), besides gateway.host; "*" disables the check (421 above).',
    ),
    transaction_body_bytes_max: int(
      64 * KiB,
      1,
      BYTES_CEILING,
      'Largest body of POST /transaction (413 above).',
    ),
    transaction_batch_items_max: int(
      1024,
      1,
      100_000,
      'Most transactions in one POST /v1/transactions/batch body or one binary message of the /v1/transactions/ws channel (413 transaction_batch_too_large above).',
    ),
    transaction_batch_body_bytes_max: int(
      MiB,
      1,
      BYTES_CEILING,
      'Largest body of POST /v1/transactions/batch (413 above) and largest message of the /v1/transactions/ws channel (closed 1009 above).',
    ),
    transaction_ws_in_flight_max: int(
      4096,
      1,
      COUNT_CEILING,
      'Transactions one /v1/transactions/ws client may have read but not yet answered; the server stops reading its socket above it.',
    ),
    transaction_ws_pending_bytes_max: int(
      2 * MiB,
      1,
      BYTES_CEILING,
      'Message bytes one /v1/transactions/ws client may have read but not answered; reading stops above it, and past it plus one largest message and 64 KiB the channel closes 1008.',
    ),
    query_body_bytes_max: int(64 * KiB, 1, BYTES_CEILING, 'Largest body of POST /query (413 above).'),
    json_body_bytes_max: int(MiB, 1, BYTES_CEILING, 'Largest body of any other route (413 above).'),
    list_query_body_bytes_max: int(
      256 * KiB,
      1,
      BYTES_CEILING,
      'Largest body of the `POST /v1/<resource>/query` list routes (413 above): their filters are capped far lower anyway.',
    ),
    header_bytes_max: int(16 * KiB, KiB, 16 * MiB, 'Largest total size of request headers (431 above).'),
    request_timeout_ms: ms(30_000, 1, 'Time allowed to receive a whole request before the socket is closed.'),
    header_timeout_ms: ms(
      10_000,
      1,
      'Time allowed to receive the request headers; at most request_timeout_ms.',
    ),
    keep_alive_timeout_ms: ms(72_000, 1, 'Idle time before a kept-alive connection is closed.'),
    connections_max: int(1024, 1, COUNT_CEILING, 'Open connections accepted in total.'),
    connections_per_ip_max: int(32, 1, COUNT_CEILING, 'Open connections accepted from one IP address.'),
    rate_per_ip_per_s: int(
      2000,
      1,
      COUNT_CEILING,
      'Requests per second refilled into the bucket of one IP (429 when empty).',
    ),
    rate_burst: int(
      4000,
      1,
      COUNT_CEILING,
      'Size of the per-IP request bucket: the burst allowed above the rate.',
    ),
    list_limit_default: int(
      100,
      1,
      COUNT_CEILING,
      'Page size of simple lists when the request gives no `limit`.',
    ),
    list_limit_max: int(
      500,
      1,
      COUNT_CEILING,
      'Largest `limit` of simple lists (400 invalid_pagination above).',
    ),
    filter_depth_max: int(10, 1, 256, 'Deepest nesting of a `filter` expression on lists and SSE.'),
    list_scans_concurrent_max: int(
      2,
      1,
      COUNT_CEILING,
      'Filtered or sorted list scans running at once; more wait their turn (keeps /health answered).',
    ),
    answer_cache_entries_max: int(
      1024,
      0,
      COUNT_CEILING,
      'Serialised read answers (status-like routes, lists, entities by id) kept until the next commit; 0 turns the cache off.',
    ),
    answer_cache_bytes_max: int(
      8 * MiB,
      0,
      BYTES_CEILING,
      'Bytes of cached read answers, their keys (request URLs) included; one answer with its key may take at most 1/16 of it, larger ones are not kept.',
    ),
  }),
  streams: section('Server-sent events and WebSocket streams: clients, subscriptions, buffers.', {
    sse_clients_max: int(
      1000,
      0,
      COUNT_CEILING,
      'SSE clients connected at once; 0 refuses every SSE client.',
    ),
    ws_clients_max: int(
      100,
      0,
      COUNT_CEILING,
      'WebSocket clients connected at once; 0 refuses every client.',
    ),
    sse_clients_per_ip_max: int(
      16,
      1,
      COUNT_CEILING,
      'SSE clients connected at once from one address (IPv4, or IPv6 /64); 429 above.',
    ),
    ws_clients_per_ip_max: int(
      10,
      1,
      COUNT_CEILING,
      'WebSocket clients connected at once from one address (IPv4, or IPv6 /64); 429 above.',
    ),
    subscriptions_per_connection_max: int(5, 1, COUNT_CEILING, 'Subscriptions one connection may hold.'),
    subscriber_buffer_events_max: int(
      1000,
      1,
      COUNT_CEILING,
      'Events buffered for a slow subscriber before it lags.',
    ),
    subscriber_buffer_bytes_max: int(
      MiB,
      1,
      BYTES_CEILING,
      'Bytes buffered for a slow subscriber before it lags.',
    ),
    ws_frame_bytes_max: int(64 * KiB, 1, BYTES_CEILING, 'Largest WebSocket frame accepted from a client.'),
    ws_ping_interval_ms: ms(30_000, 1, 'Interval of WebSocket pings that detect dead clients.'),
    ws_request_timeout_ms: ms(10_000, 1, 'Time a WebSocket client has to send its subscription request.'),
    event_history_max: int(10_000, 0, COUNT_CEILING, 'Events kept for SSE Last-Event-ID resumption.'),
    sse_heartbeat_ms: ms(15_000, 1, 'Interval of SSE heartbeat comments on idle streams.'),
    consensus_status_interval_ms: ms(1000, 1, 'Interval of the consensus status SSE stream.'),
  }),
  queue: section('The transaction queue between admission and block building.', {
    capacity: int(65_536, 1, COUNT_CEILING, 'Transactions queued in total (429 with Retry-After when full).'),
    per_account_max: int(4096, 1, COUNT_CEILING, 'Transactions queued for one authority account.'),
    per_key_max: int(
      4096,
      1,
      COUNT_CEILING,
      'Transactions queued whose authority is signed by one key, across all its accounts.',
    ),
    per_source_max: int(
      16_384,
      1,
      COUNT_CEILING,
      'Transactions queued from one client address (IPv6: its /64) over HTTP; in-process submitters are not counted.',
    ),
    expiry_ms: ms(86_400_000, 1, 'Time after which a queued transaction expires.'),
  }),
  transaction: section('Admission limits of one signed transaction.', {
    max_clock_drift_ms: ms(1000, 0, 'How far in the future a creation time may be.'),
    bytes_max: int(64 * KiB, 1, BYTES_CEILING, 'Largest encoded signed transaction.'),
    instructions_max: int(4096, 1, COUNT_CEILING, 'Most instructions in one transaction.'),
    signatures_max: int(16, 1, 255, 'Most signatures on one transaction.'),
    metadata_bytes_max: int(16 * KiB, 0, BYTES_CEILING, 'Largest encoded metadata of one transaction.'),
    allowed_algorithms: list(['ed25519'], 'Signature algorithms accepted on transactions.', { itemsMin: 1 }),
  }),
  block: section('Block production (single peer and leader).', {
    max_transactions: int(512, 1, COUNT_CEILING, 'Most transactions in one block.'),
    time_ms: ms(
      1000,
      1,
      'A block is produced as soon as transactions wait, at most every `block.min_interval_ms`, and a non-empty queue never waits longer than `block.time_ms`.',
    ),
    min_interval_ms: ms(
      50,
      0,
      'Least time between the starts of two blocks: under load, transactions gather into fewer, fuller blocks (each block has a fixed cost: certificate, fsync, state commit); 0 lets blocks follow each other at once.',
    ),
    commit_time_ms: ms(2000, 1, 'Time allowed for a proposed block to gather its commit certificate.'),
  }),
  consensus: section(
    'The BFT protocol among validators: pacemaker timers, collectors, sync and gossip batches (docs/consensus.md).',
    {
      view_timeout_ms: ms(
        2000,
        1,
        'Base time a replica waits in view 0 of a height before it sends NEW_VIEW for the next view.',
      ),
      timeout_multiplier_permille: int(
        1500,
        1000,
        10_000,
        'Growth of the view timeout per failed view, in thousandths (1500 = x1.5 per view; 1000 = constant).',
      ),
      view_timeout_max_ms: ms(
        30_000,
        1,
        'Longest view timeout, however many views failed in a row; at least consensus.view_timeout_ms.',
      ),
      rtt_floor_multiplier: int(
        4,
        0,
        1000,
        'A view timeout is never shorter than this many measured round trips to the peers; 0 disables the floor.',
      ),
      round_floor_multiplier: int(
        3,
        0,
        1000,
        'A view timeout is never shorter than this many times the last decided round (view start to commit certificate), capped at consensus.view_timeout_max_ms, so an overloaded network keeps deciding in view 0; 0 disables the floor.',
      ),
      extend_view_while_checking: bool(
        true,
        "A view timer that expires while the view's proposal, received in time, is still being checked and executed here is armed again instead of ending the view, until consensus.view_timeout_max_ms from the view's start; false: the view ends at its timeout.",
      ),
      jitter_permille: int(
        100,
        0,
        1000,
        'Random extra view timeout, up to this many thousandths of it, so replicas do not time out in lockstep; 0 = none.',
      ),
      collectors_k: int(
        2,
        1,
        1024,
        'Collectors per (height, view) that aggregate votes into certificates: k plan slots from the leader on (the leader first); every vote goes to each of them.',
      ),
      // The upper bounds are what a peer's decoder accepts in one message (consensus/bft/messages.ts
      // SYNC_BLOCKS_MAX, GOSSIP_TXS_MAX): a larger batch would be refused as garbage by every peer.
      sync_batch_blocks: int(
        64,
        1,
        256,
        'Most blocks (with their certificates) asked of one peer in one block-sync request.',
      ),
      gossip_batch_max: int(256, 1, 4096, 'Most transactions gossiped to the peers in one message.'),
    },
  ),
  query: section('Signed queries, their cursors, and the cost of filters and lists.', {
    fetch_size_default: int(
      100,
      1,
      COUNT_CEILING,
      'Batch size of iterable queries when the request gives none.',
    ),
    fetch_size_max: int(10_000, 1, COUNT_CEILING, 'Largest batch size of iterable queries.'),
    cursors_max: int(1024, 1, COUNT_CEILING, 'Live query cursors kept at once (429 above).'),
    cursor_idle_ms: ms(30_000, 1, 'Idle time after which a cursor is dropped (410 after).'),
    cursors_per_account_max: int(
      16,
      1,
      COUNT_CEILING,
      'Live query cursors one account may hold at once (429 cursors_exhausted above).',
    ),
    filter_value_chars_max: int(
      64 * 1024,
      1,
      BYTES_CEILING,
      'Summed canonical size of the values of one filter (signed queries and list routes; 400 invalid_filter above).',
    ),
    work_units_max: int(
      4_000_000,
      1_000,
      COUNT_CEILING,
      'Work one query or list request may do: items scanned plus filter work (422 query_budget_exceeded above).',
    ),
    max_age_ms: ms(
      60_000,
      1,
      'Oldest creation time a signed query may carry (400 query_expired); also the replay window.',
    ),
    replay_cache_max: int(
      65_536,
      1,
      COUNT_CEILING,
      'Signed queries remembered within the replay window (409 query_replayed on a repeat).',
    ),
  }),
  signed_requests: section(
    'Signed app requests of every family (x-ledger-* headers; docs/security.md "Signed app requests"). The timestamp window is the chain parameter maxClockDriftMs.',
    {
      nonces_per_account_max: int(
        1000,
        1,
        COUNT_CEILING,
        'Nonces one signing account holds within the clock-drift window, over all families (429 request_nonces_full above; other accounts are not affected).',
      ),
    },
  ),
  codec: section('Decoding limits of the binary codec (docs/codec.md).', {
    depth_max: int(32, 1, 1024, 'Deepest nesting of compound values.'),
    sequence_items_max: int(100_000, 1, COUNT_CEILING, 'Most elements of one sequence or map.'),
    bytes_max: int(16 * MiB, 1, BYTES_CEILING, 'Largest byte string or text one field may hold.'),
  }),
  network: section(
    'Peer connections (src/p2p/README.md): listen address, peers, frame and queue limits, timers.',
    {
      listen: str(
        '',
        'host:port (or [v6]:port) peers connect to; empty = no listener (a lone node, or a peer that only dials).',
      ),
      peers: list(
        [],
        'Peers (bootstrap list, observer allow-list): `<ed0120 key>@host:port` (dial and accept) or `<ed0120 key>` (accept only). Peers registered on chain are admitted too; other keys are refused.',
      ),
      role: oneOf(
        NETWORK_ROLES,
        'validator',
        'What this node announces to its peers: a validator votes; an observer only follows.',
      ),
      frame_bytes_max: int(
        4 * MiB,
        KiB,
        16 * MiB - KiB,
        'Largest peer message (a whole block with its transactions travels in one); a peer sending more is disconnected.',
      ),
      send_queue_max: int(
        1024,
        1,
        COUNT_CEILING,
        'Messages waiting to be written to one peer; past it the peer is disconnected.',
      ),
      send_queue_bytes_max: int(
        64 * MiB,
        KiB,
        BYTES_CEILING,
        'Bytes waiting to be written to one peer; past it the peer is disconnected.',
      ),
      recv_queue_max: int(
        1024,
        1,
        COUNT_CEILING,
        "Messages from one peer not yet handled; past it that peer's socket is paused.",
      ),
      reconnect_base_ms: ms(
        200,
        1,
        'First delay before redialing a lost peer; doubles per failed attempt (with jitter).',
      ),
      reconnect_max_ms: ms(10_000, 1, 'Longest delay between redials of one peer.'),
      handshake_timeout_ms: ms(
        5_000,
        1,
        'Time allowed for the encrypted handshake and HELLO of a new connection.',
      ),
      handshakes_per_address_max: int(
        4,
        1,
        COUNT_CEILING,
        'Inbound connections one source address may have in their handshake at once (times the configured peers at that address); beyond it they are closed on arrival. Configured peer addresses also have handshake slots of their own beside the shared 64.',
      ),
      ping_interval_ms: ms(2_000, 1, 'A ping goes to a peer after this long without sending it anything.'),
      idle_timeout_ms: ms(
        10_000,
        1,
        'A connection with nothing received for this long is closed and redialed.',
      ),
    },
  ),
  storage: section('The block store and the persisted world state.', {
    segment_bytes_max: int(
      128 * MiB,
      64 * KiB,
      1024 * GiB,
      'Size at which the block log starts a new segment.',
    ),
    record_bytes_max: int(64 * MiB, 1, BYTES_CEILING, 'Largest record of the block log (one block).'),
    fsync: bool(true, 'Fsync before a commit is acknowledged; false only for tests and benchmarks.'),
    lmdb_map_bytes: int(
      16 * GiB,
      MiB,
      256 * 1024 * GiB,
      'LMDB map size: the most the world state may grow to.',
    ),
    read_ahead: bool(
      true,
      "Kernel read-ahead on the state store's map; false reads only the page a lookup needs (for a state larger than memory, read at random keys).",
    ),
    map_chunks: bool(
      false,
      "Map the state store in chunks of 16 pages, a bounded number at a time, instead of one mapping of the whole file: the mapped file pages in the node's RSS stay under about 512 MiB, but commits on a large state are slower (docs/operations.md).",
    ),
    warm_up: bool(
      false,
      "After start, read the world state's rows and their indexes once in the background (a worker thread, never delaying readiness or blocking execution), so account reads find their pages in the page cache; progress in the log and in the state_warm_up_* metrics.",
    ),
    state_tree_cache_nodes: int(
      200_000,
      0,
      100_000_000,
      'Decoded state-tree nodes kept in memory: the top levels by position (up to two thirds of the bound), deeper nodes by recent use; the rest are read from the state store.',
    ),
    state_row_cache_rows: int(
      100_000,
      1,
      100_000_000,
      'Decoded world-state rows kept in memory (least recently used out first); the rows and their indexes are read from the state store.',
    ),
    state_tree_versions_kept: int(
      128,
      2,
      1_000_000,
      'Recent heights whose state-tree nodes stay stored, so proofs at them can be served; older ones are pruned.',
    ),
    state_proof_pins_max: int(
      16,
      0,
      1024,
      'Heights an operator may pin (POST /v1/proofs/retention/pins) so their state proofs stay served beyond the kept window.',
    ),
  }),
  verify: section('Signature verification.', {
    threads: int(1, 0, 256, 'Signature verification worker threads; 0 verifies on the main thread.'),
  }),
  telemetry: section('Which status, metrics and developer routes are served.', {
    profile: oneOf(
      TELEMETRY_PROFILES,
      'operator',
      'Telemetry profile: which route classes this node serves (docs/configuration.md "Telemetry profiles"); forbidden routes answer 503.',
    ),
  }),
  dashboard: section('The web dashboard served at /dashboard (docs/dashboard.md).', {
    enabled: bool(
      true,
      "Serve the dashboard's static files under /dashboard/ (shown by the developer and full telemetry profiles, else 503); false: not registered (404).",
    ),
    connect_src: list(
      [],
      'Other nodes the dashboard may read, as origins (https://node-b.example:8080), added to its Content-Security-Policy connect-src after \'self\'; each node must allow this origin by CORS (docs/dashboard.md "Another node").',
    ),
  }),
  operator: section('Operator authentication for /v1/operator/* routes.', {
    public_keys: list([], 'Operator public keys in text form; empty disables operator routes (403).'),
    // 30 s and 10,000 (docs/security.md "The HTTP surface", operator requests), equal to the defaults of
    // gateway/operator-auth.ts.
    request_max_age_ms: ms(
      30_000,
      1,
      'How far (either side of node time) the timestamp of a signed operator request may be.',
    ),
    nonces_max: int(10_000, 1, COUNT_CEILING, 'Operator request nonces remembered to refuse replays.'),
    // Operator sign-in (docs/operator.md "Sign-in sessions"; gateway/operator-sessions.ts): a challenge is answered within 60 s.
    session_challenge_ttl_ms: ms(60_000, 1, 'How long a sign-in challenge can be answered (single use).'),
    session_ttl_ms: ms(
      900_000,
      1,
      'How long an operator session token lasts (401 operator_session_expired after); sessions live in memory, a restart ends them.',
    ),
    sessions_max: int(
      64,
      1,
      COUNT_CEILING,
      'Active operator sessions; a new one above it evicts the oldest (its token answers operator_session_revoked).',
    ),
    session_challenges_max: int(
      1024,
      1,
      COUNT_CEILING,
      'Open sign-in challenges in all; when full, the oldest challenge of the address holding the most makes room for an address holding fewer (503 operator_challenges_full only when none holds more).',
    ),
    session_client_challenges_max: int(
      8,
      1,
      COUNT_CEILING,
      'Open sign-in challenges one client address (IPv6 by /64) may hold (429 rate_limited above).',
    ),
    session_audit_max: int(
      1000,
      1,
      COUNT_CEILING,
      'Session events kept for GET /v1/operator/sessions/audit.',
    ),
  }),
  mcp: section('The MCP bridge (docs/mcp.md).', {
    enabled: bool(
      false,
      'Serve the Model Context Protocol endpoint /v1/mcp (an application family: also needs the app API); false: not registered (404, not in OpenAPI).',
    ),
  }),
  log: section('Structured logs (pino).', {
    level: oneOf(LOG_LEVELS, 'info', 'Least severe level written.'),
    format: oneOf(
      LOG_FORMATS,
      'auto',
      'pretty: one readable line per entry; json: one JSON object per line; auto: pretty on a terminal, else json.',
    ),
    access: bool(false, 'Write one log entry per HTTP request and response (access log).'),
  }),
} as const;

type Schema = typeof CORE_CONFIG_SCHEMA;
export type ConfigSectionName = keyof Schema & string;

/** The typed, deeply read-only configuration of one node (camelCase fields, one object per section). */
export type Config = { readonly [S in ConfigSectionName]: SectionValues<Schema[S]['keys']> };

export type NodeConfig = Config['node'];
export type AppApiConfig = Config['app_api'];
export type GatewayConfig = Config['gateway'];
export type StreamsConfig = Config['streams'];
export type QueueConfig = Config['queue'];
export type TransactionConfig = Config['transaction'];
export type BlockConfig = Config['block'];
/** Pacemaker, collector, sync and gossip settings of the BFT engine (docs/consensus.md). */
export type ConsensusConfig = Config['consensus'];
export type QueryConfig = Config['query'];
export type SignedRequestsConfig = Config['signed_requests'];
export type CodecConfig = Config['codec'];
export type NetworkConfig = Config['network'];
export type StorageConfig = Config['storage'];
export type VerifyConfig = Config['verify'];
export type OperatorConfig = Config['operator'];
export type McpConfig = Config['mcp'];
export type LogConfig = Config['log'];
export type TelemetryProfile = (typeof TELEMETRY_PROFILES)[number];
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The core section the modules' sections are placed after, in registry order (a section naming the
 * core section it is written after, `writtenAfter`, first); the sections after it (mcp, log) keep their
 * place after them.
 */
export const MODULE_SECTIONS_AFTER: ConfigSectionName = 'operator';

/** The key `app_api.enabled` a module's family switch needs (its description lists the family). */
const APP_API_ENABLED = 'app_api.enabled';

let composed: Readonly<Record<string, SectionSpec>> | undefined;

/**
 * The one schema: the core's sections with the modules' (added through sections.ts) after
 * MODULE_SECTIONS_AFTER. Built once, on first use, which seals the modules' list.
 */
export function configSchema(): Readonly<Record<string, SectionSpec>> {
  composed ??= composeConfigSchema(moduleConfigSections());
  return composed;
}

/** The core's sections with `modules`' placed after MODULE_SECTIONS_AFTER (pure: tests compose their own). */
export function composeConfigSchema(
  modules: readonly ModuleConfigSection[],
): Readonly<Record<string, SectionSpec>> {
  for (const m of modules) {
    if (m.inCoreSection === true) {
      const core = (CORE_CONFIG_SCHEMA as Readonly<Record<string, SectionSpec>>)[m.name];
      assert(core !== undefined, `config section ${m.name} adds to no core section of that name`);
      assert(m.writtenAfter === undefined, `config section ${m.name} is in a core section: no writtenAfter`);
      for (const key of Object.keys(m.spec.keys))
        assert(!Object.hasOwn(core.keys, key), `config key ${m.name}.${key} is the core's`);
      continue;
    }
    assert(!Object.hasOwn(CORE_CONFIG_SCHEMA, m.name), `config section ${m.name} is the core's`);
    assert(
      m.writtenAfter === undefined ||
        Object.hasOwn(CORE_CONFIG_SCHEMA, m.writtenAfter) ||
        modules.some((o) => o.name === m.writtenAfter && o.inCoreSection !== true),
      `config section ${m.name} is written after ${m.writtenAfter}, which is not a core section or a module's own`,
    );
  }
  // The modules' sections after each core section: those naming it first, then (after
  // MODULE_SECTIONS_AFTER) the others, each group in registry order; each followed at once by the
  // sections written after it (a module section's place can be right after another module's).
  const own = modules.filter((m) => m.inCoreSection !== true);
  const chain = (m: ModuleConfigSection): ModuleConfigSection[] => [
    m,
    ...own.filter((o) => o.writtenAfter === m.name).flatMap(chain),
  ];
  const after = (name: string): ModuleConfigSection[] =>
    [
      ...own.filter((m) => m.writtenAfter === name),
      ...(name === MODULE_SECTIONS_AFTER ? own.filter((m) => m.writtenAfter === undefined) : []),
    ].flatMap(chain);
  // The modules' keys written in a core section of the same name (`inCoreSection`), after the core's own
  // keys, in registry order.
  const within = (name: string, sec: SectionSpec): SectionSpec => {
    const added = modules.filter((m) => m.inCoreSection === true && m.name === name);
    if (added.length === 0) return sec;
    return section(sec.doc, Object.assign({}, sec.keys, ...added.map((m) => m.spec.keys)));
  };
  const ordered = [
    ...Object.keys(CORE_CONFIG_SCHEMA).flatMap((name) => [
      ...modules.filter((m) => m.inCoreSection === true && m.name === name),
      ...after(name),
    ]),
  ];
  // The app API's description lists the families and switches in the order the sections are written.
  const families = ordered.filter(
    (m) =>
      m.appFamily === true || (m.needs ?? []).some((r) => r.key === 'enabled' && r.needs === APP_API_ENABLED),
  );
  const switches = [
    ...CORE_APP_API_SWITCHES,
    ...ordered.flatMap((m) =>
      (m.needs ?? []).filter((r) => r.needs === APP_API_ENABLED).map((r) => `${m.name}.${r.key}`),
    ),
  ];
  const appApi = CORE_CONFIG_SCHEMA.app_api;
  const out: Record<string, SectionSpec> = {};
  for (const [name, sec] of Object.entries<SectionSpec>(CORE_CONFIG_SCHEMA)) {
    out[name] =
      sec === appApi
        ? section(appApi.doc, {
            ...appApi.keys,
            enabled: bool(
              appApi.keys.enabled.default,
              appApiDoc(
                families.map((m) => m.title ?? m.name),
                switches,
              ),
            ),
          })
        : within(name, sec);
    for (const m of after(name)) out[m.name] = m.spec;
  }
  for (const m of own)
    assert(Object.hasOwn(out, m.name), `config section ${m.name} is written after a loop of module sections`);
  return Object.freeze(out);
}

/**
 * Builds a frozen `Config` by asking `pick` for every key of the schema (core and modules' sections),
 * in schema order. The callers (defaults here, the loader in load.ts) have already validated each value
 * against its spec. A module's section is in the object too; the module reads it with `sectionValues`.
 */
export function buildConfig(pick: (path: string, spec: KeySpec) => ConfigValue): Config {
  const out: Record<string, Record<string, ConfigValue>> = {};
  for (const [name, sec] of Object.entries(configSchema())) {
    const fields: Record<string, ConfigValue> = {};
    for (const [key, spec] of Object.entries<KeySpec>(sec.keys)) {
      const v = pick(`${name}.${key}`, spec);
      fields[camelCase(key)] = Array.isArray(v) ? Object.freeze([...v]) : v;
    }
    out[name] = Object.freeze(fields);
  }
  // The table and the mapped `Config` type describe the same shape; the test suite checks it key by key.
  return Object.freeze(out) as unknown as Config;
}

let defaults: Config | undefined;

/** Every default, in one place: the `default` of each key of the schema (built once, on first use). */
export function defaultConfig(): Config {
  defaults ??= buildConfig((_path, spec) => spec.default);
  return defaults;
}

/** A module's section of `config`, typed by its declaration (a section not added is a bug: it throws). */
export function sectionValues<K extends Record<string, KeySpec>>(
  config: Config,
  decl: ModuleConfigSection<K>,
): SectionValues<K> {
  const v = (config as unknown as Readonly<Record<string, SectionValues<K> | undefined>>)[decl.name];
  assert(v !== undefined, `the configuration has no section ${decl.name}: its module was not registered`);
  return v;
}
