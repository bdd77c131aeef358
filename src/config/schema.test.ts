import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
// The registry adds the modules' sections (`[conference]`, `[iso20022]`) to the schema (sections.ts).
import '../modules/registry.js';
import { configKeys, configValue, keyByEnvVar, keyByPath } from './keys.js';
import { configToJson } from './render.js';
import { configSchema, defaultConfig } from './schema.js';
import { camelCase } from './spec.js';
import { checkValue } from './values.js';

// The defaults of the brief, written out a second time on purpose: changing a default in the schema
// must be a deliberate act that also changes this test.
const EXPECTED_DEFAULTS = {
  node: { chain_id: 'torana-dev', genesis_file: 'genesis.json', key_file: 'node.key.json' },
  app_api: { enabled: true },
  gateway: {
    host: '127.0.0.1',
    port: 8080,
    tls_cert_file: '',
    tls_key_file: '',
    cors_origins: [],
    trusted_proxies: [],
    allowed_hosts: ['localhost', '127.0.0.1', '[::1]'],
    transaction_body_bytes_max: 65536,
    transaction_batch_items_max: 1024,
    transaction_batch_body_bytes_max: 1048576,
    transaction_ws_in_flight_max: 4096,
    transaction_ws_pending_bytes_max: 2 * 1024 * 1024,
    query_body_bytes_max: 65536,
    json_body_bytes_max: 1048576,
    list_query_body_bytes_max: 262144,
    header_bytes_max: 16384,
    request_timeout_ms: 30000,
    header_timeout_ms: 10000,
    keep_alive_timeout_ms: 72000,
    connections_max: 1024,
    connections_per_ip_max: 32,
    rate_per_ip_per_s: 2000,
    rate_burst: 4000,
    list_limit_default: 100,
    list_limit_max: 500,
    filter_depth_max: 10,
    list_scans_concurrent_max: 2,
    answer_cache_entries_max: 1024,
    answer_cache_bytes_max: 8 * 1024 * 1024,
  },
  streams: {
    sse_clients_max: 1000,
    ws_clients_max: 100,
    sse_clients_per_ip_max: 16,
    ws_clients_per_ip_max: 10,
    subscriptions_per_connection_max: 5,
    subscriber_buffer_events_max: 1000,
    subscriber_buffer_bytes_max: 1048576,
    ws_frame_bytes_max: 65536,
    ws_ping_interval_ms: 30000,
    ws_request_timeout_ms: 10000,
    event_history_max: 10000,
    sse_heartbeat_ms: 15000,
    consensus_status_interval_ms: 1000,
  },
  queue: {
    capacity: 65536,
    per_account_max: 4096,
    per_key_max: 4096,
    per_source_max: 16384,
    expiry_ms: 86400000,
  },
  transaction: {
    max_clock_drift_ms: 1000,
    bytes_max: 65536,
    instructions_max: 4096,
    signatures_max: 16,
    metadata_bytes_max: 16384,
    allowed_algorithms: ['ed25519'],
  },
  block: { max_transactions: 512, time_ms: 1000, min_interval_ms: 50, commit_time_ms: 2000 },
  consensus: {
    view_timeout_ms: 2000,
    timeout_multiplier_permille: 1500,
    view_timeout_max_ms: 30000,
    rtt_floor_multiplier: 4,
    round_floor_multiplier: 3,
    extend_view_while_checking: true,
    jitter_permille: 100,
    collectors_k: 2,
    sync_batch_blocks: 64,
    gossip_batch_max: 256,
  },
  query: {
    fetch_size_default: 100,
    fetch_size_max: 10000,
    cursors_max: 1024,
    cursor_idle_ms: 30000,
    cursors_per_account_max: 16,
    filter_value_chars_max: 65536,
    work_units_max: 4000000,
    max_age_ms: 60000,
    replay_cache_max: 65536,
  },
  history: { scan_entries_max: 1000000 },
  explorer: { backend: 'embedded', pg: '', pg_poll_ms: 500 },
  signed_requests: { nonces_per_account_max: 1000 },
  codec: { depth_max: 32, sequence_items_max: 100000, bytes_max: 16777216 },
  network: {
    listen: '',
    peers: [],
    role: 'validator',
    frame_bytes_max: 4194304,
    send_queue_max: 1024,
    send_queue_bytes_max: 67108864,
    recv_queue_max: 1024,
    reconnect_base_ms: 200,
    reconnect_max_ms: 10000,
    handshake_timeout_ms: 5000,
    handshakes_per_address_max: 4,
    ping_interval_ms: 2000,
    idle_timeout_ms: 10000,
  },
  storage: {
    segment_bytes_max: 134217728,
    record_bytes_max: 67108864,
    fsync: true,
    lmdb_map_bytes: 17179869184,
    read_ahead: true,
    map_chunks: false,
    warm_up: false,
    state_tree_cache_nodes: 200000,
    state_proof_pins_max: 16,
    state_row_cache_rows: 100000,
    state_tree_versions_kept: 128,
  },
  verify: { threads: 1 },
  telemetry: {
    profile: 'operator',
    live_interval_ms: 5000,
    gossip_interval_ms: 5000,
    gateway_url: '',
    peer_reports_max: 4,
    peer_report_stale_ms: 60_000,
    peer_report_min_gap_ms: 1000,
  },
  dashboard: { enabled: true, connect_src: [] },
  operator: {
    public_keys: [],
    request_max_age_ms: 30000,
    nonces_max: 10000,
    session_challenge_ttl_ms: 60000,
    session_ttl_ms: 900000,
    sessions_max: 64,
    session_challenges_max: 1024,
    session_client_challenges_max: 8,
    session_audit_max: 1000,
    passkeys_enabled: false,
    passkey_rp_id: 'localhost',
    passkey_rp_name: 'torana node',
    passkey_origins: ['http://localhost:8080'],
    passkey_bootstrap_secret: '',
    passkey_challenge_ttl_ms: 60_000,
    passkey_credentials_max: 16,
    passkey_challenges_max: 256,
  },
  iso20022: {
    enabled: false,
    bridge_account: '',
    bridge_key_file: 'bridge.key.json',
    participants_file: 'participants.json',
    retry_interval_ms: 1000,
    submit_batch_max: 256,
    reference_data_dir: '',
    allow_non_iban_accounts: false,
    xml_body_bytes_max: 1048576,
    xml_depth_max: 64,
    xml_attribute_bytes_max: 4096,
  },
  conference: {
    enabled: true,
    relay_telemetry: true,
    signal_offers_per_call_max: 256,
    signal_answers_per_call_max: 256,
    signal_envelope_bytes_max: 16 * 1024,
    signal_ttl_ms: 3_600_000,
    signal_bytes_max: 64 * 1024 * 1024,
    signal_answer_bytes_max: 64 * 1024 * 1024,
    signal_host_bytes_max: 4 * 1024 * 1024,
    signal_host_records_max: 1024,
    signal_body_bytes_max: 256 * 1024,
    signal_backfill_blocks: 1000,
    signal_offers_per_request_max: 64,
    signal_page_max: 500,
  },
  webhooks: {
    allow_private_targets: false,
    allowed_targets: [],
    webhooks_max: 1000,
    per_owner_max: 20,
    url_chars_max: 2048,
    secret_chars_max: 256,
    secret_overlap_ms: 86_400_000,
    attempts_max: 12,
    retry_base_ms: 1000,
    retry_max_delay_ms: 60_000,
    timeout_ms: 10_000,
    in_flight_max: 64,
    in_flight_per_owner_max: 8,
    delivery_window: 256,
    recovery_blocks_max: 100_000,
    response_bytes_max: 16384,
    queue_per_webhook_max: 10_000,
    queue_total_max: 100_000,
    queue_per_owner_max: 20_000,
    dead_letters_per_webhook_max: 1000,
    recent_per_webhook_max: 50,
    body_bytes_max: 16384,
  },
  content: {
    store_bytes_max: 1073741824,
    upload_bytes_max: 16777216,
    cache_max_age_s: 31536000,
    egress_window_ms: 60000,
    egress_node_bytes: 1073741824,
    egress_client_bytes: 67108864,
  },
  mcp: { enabled: false },
  connect: {
    enabled: true,
    sessions_max: 1000,
    token_ttl_ms: 60_000,
    idle_ms: 300_000,
    frame_bytes_max: 65_536,
    frames_per_second: 20,
    frame_burst: 40,
    pending_frames_max: 8,
  },
  log: { level: 'info', format: 'auto', access: false },
};

describe('config schema', () => {
  it('has the documented defaults, and nothing else', () => {
    assert.deepEqual(configToJson(defaultConfig()), EXPECTED_DEFAULTS);
  });

  it('exposes typed camelCase fields', () => {
    // These assignments are checked by tsc; the values by the runtime.
    const port: number = defaultConfig().gateway.port;
    const bodyMax: number = defaultConfig().gateway.transactionBodyBytesMax;
    const profile: 'disabled' | 'operator' | 'extended' | 'developer' | 'full' =
      defaultConfig().telemetry.profile;
    const algorithms: readonly string[] = defaultConfig().transaction.allowedAlgorithms;
    const fsync: boolean = defaultConfig().storage.fsync;
    assert.deepEqual(
      [port, bodyMax, profile, algorithms, fsync],
      [8080, 65536, 'operator', ['ed25519'], true],
    );
    assert.equal(defaultConfig().gateway.ratePerIpPerS, 2000);
    // @ts-expect-error the snake_case name is not a field of the typed value
    assert.equal(defaultConfig().gateway.rate_per_ip_per_s, undefined);
    // @ts-expect-error nor is a misspelt one
    assert.equal(defaultConfig().gateway.prot, undefined);
    // A module's section (`[iso20022]`) is in the value too, read through the untyped form.
    const modules = defaultConfig() as unknown as Record<string, { xmlBodyBytesMax?: number }>;
    assert.equal(modules.iso20022?.xmlBodyBytesMax, 1048576);
  });

  it('is deeply frozen', () => {
    assert.ok(Object.isFrozen(defaultConfig()));
    for (const section of Object.values(defaultConfig())) assert.ok(Object.isFrozen(section));
    assert.ok(Object.isFrozen(defaultConfig().gateway.corsOrigins));
    assert.throws(() => {
      (defaultConfig().gateway as { port: number }).port = 1;
    }, TypeError);
    assert.throws(() => (defaultConfig().transaction.allowedAlgorithms as string[]).push('x'), TypeError);
  });

  it('indexes every key once, with matching field, path and environment names', () => {
    const declared = Object.entries(configSchema()).flatMap(([s, sec]) =>
      Object.keys(sec.keys).map((k) => `${s}.${k}`),
    );
    assert.deepEqual(
      configKeys().map((k) => k.path),
      declared,
    );
    assert.equal(new Set(configKeys().map((k) => k.envVar)).size, configKeys().length);
    for (const k of configKeys()) {
      assert.equal(k.field, camelCase(k.key));
      assert.match(k.key, /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/, k.path);
      assert.equal(keyByPath(k.path), k);
      assert.equal(keyByEnvVar(k.envVar), k);
      assert.equal(k.envVar, `TORANA_${k.section.toUpperCase()}_${k.key.toUpperCase()}`);
    }
    assert.equal(keyByPath('constructor'), undefined);
    assert.equal(keyByPath('__proto__'), undefined);
  });

  it('declares defaults that pass their own checks', () => {
    for (const k of configKeys()) {
      const r = checkValue(k.spec, k.spec.default, { numbersAreFloats: false });
      assert.ok(r.ok, `${k.path}: ${r.ok ? '' : r.problem}`);
      if (k.spec.type === 'integer') {
        assert.ok(
          Number.isSafeInteger(k.spec.min) && Number.isSafeInteger(k.spec.max) && k.spec.min <= k.spec.max,
        );
      }
      assert.deepEqual(configValue(defaultConfig(), k), k.spec.default);
    }
  });

  it('converts snake_case to camelCase', () => {
    assert.equal(camelCase('transaction_body_bytes_max'), 'transactionBodyBytesMax');
    assert.equal(camelCase('rate_per_ip_per_s'), 'ratePerIpPerS');
    assert.equal(camelCase('port'), 'port');
  });
});
