import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
// The registry adds the modules' sections to the schema (sections.ts): they are checked like the core's.
import '../modules/registry.js';
import type { ConfigError } from './errors.js';
import { type ConfigSources, loadConfig } from './load.js';
import { defaultConfig } from './schema.js';

function ok(src: ConfigSources) {
  const r = loadConfig(src);
  assert.ok(r.ok, r.ok ? '' : JSON.stringify(r.errors, null, 2));
  return r.config;
}
function errors(src: ConfigSources): ConfigError[] {
  const r = loadConfig(src);
  assert.ok(!r.ok, 'expected errors');
  return r.errors;
}
function only(src: ConfigSources): ConfigError {
  const errs = errors(src);
  assert.equal(errs.length, 1, JSON.stringify(errs, null, 2));
  return errs[0]!;
}

describe('loadConfig: defaults and precedence', () => {
  it('gives the defaults when nothing is set', () => {
    assert.deepEqual(ok({}), defaultConfig());
    assert.deepEqual(ok({ file: '', env: {}, overrides: {} }), defaultConfig());
  });

  it('layers defaults < file < env < overrides, key by key', () => {
    const file = [
      '[gateway]',
      'port = 1001',
      'host = "0.0.0.0"',
      'cors_origins = ["https://a.example"]',
      '[queue]',
      'capacity = 10000',
      '[log]',
      'level = "debug"',
    ].join('\n');
    const env = { TORANA_GATEWAY_PORT: '1002', TORANA_QUEUE_CAPACITY: '20000', PATH: '/bin', HOME: '/root' };
    const overrides = { 'gateway.port': '1003', 'storage.fsync': false };
    const c = ok({ file, env, overrides });
    assert.equal(c.gateway.port, 1003); // overrides beat env and file
    assert.equal(c.queue.capacity, 20000); // env beats file
    assert.equal(c.gateway.host, '0.0.0.0'); // file beats defaults
    assert.deepEqual(c.gateway.corsOrigins, ['https://a.example']);
    assert.equal(c.log.level, 'debug');
    assert.equal(c.storage.fsync, false);
    assert.equal(c.gateway.listLimitMax, defaultConfig().gateway.listLimitMax); // untouched keys keep defaults
    assert.ok(Object.isFrozen(c.gateway) && Object.isFrozen(c.gateway.corsOrigins));
  });

  it('reads every value type from the environment', () => {
    const c = ok({
      env: {
        TORANA_ISO20022_ENABLED: 'true',
        TORANA_TELEMETRY_PROFILE: 'full',
        TORANA_OPERATOR_PUBLIC_KEYS: 'ed0120aa, ed0120bb',
        TORANA_ISO20022_BRIDGE_ACCOUNT: '',
        TORANA_STORAGE_LMDB_MAP_BYTES: '1099511627776',
        TORANA_NODE_CHAIN_ID: 'prod-1',
        TORANA_UNSET: undefined,
      },
    });
    // A module's section (`[iso20022]`): read through the untyped form.
    assert.equal((c as unknown as Record<string, { enabled: boolean }>).iso20022?.enabled, true);
    assert.equal(c.telemetry.profile, 'full');
    assert.deepEqual(c.operator.publicKeys, ['ed0120aa', 'ed0120bb']);
    assert.equal(c.storage.lmdbMapBytes, 2 ** 40);
    assert.equal(c.node.chainId, 'prod-1');
  });

  it('ignores the allow-listed non-configuration variables and unprefixed ones', () => {
    const env = {
      TORANA_FAILPOINT: 'x',
      TORANA_DIR: '/tmp/n',
      TORANA_LOG: 'debug',
      torana_gateway_port: 'x',
      NODE_ENV: 'x',
    };
    assert.deepEqual(ok({ env }), defaultConfig());
  });

  it('accepts typed override values and ignores undefined ones', () => {
    const c = ok({ overrides: { 'gateway.port': 0, 'gateway.cors_origins': ['*'], 'log.level': undefined } });
    assert.equal(c.gateway.port, 0);
    assert.deepEqual(c.gateway.corsOrigins, ['*']);
    assert.equal(c.log.level, 'info');
  });
});

describe('loadConfig: unknown keys', () => {
  it('rejects an unknown section, naming it and the closest section', () => {
    const e = only({ file: '[gatway]\nport = 1\n', filePath: 'node.toml' });
    assert.equal(e.code, 'config_unknown_key');
    assert.equal(e.key, 'gatway');
    assert.match(e.message, /^node\.toml: unknown section \[gatway\] \(did you mean 'gateway'\?\)/);
  });

  it('rejects a top-level key outside any section', () => {
    const e = only({ file: 'port = 8080\n' });
    assert.deepEqual([e.code, e.key], ['config_unknown_key', 'port']);
    assert.match(e.message, /^<file>: unknown top-level key 'port' \(it belongs in \[gateway\]\)/);
    const misplaced = only({ file: '[log]\nport = 8080\n' });
    assert.equal(misplaced.key, 'log.port');
    assert.match(misplaced.message, /unknown key 'port' in section \[log\] \(it belongs in \[gateway\]\)/);
  });

  it('rejects an unknown key inside a known section, naming section.key', () => {
    const e = only({ file: '[gateway]\nprot = 8080\n' });
    assert.deepEqual([e.code, e.key], ['config_unknown_key', 'gateway.prot']);
    assert.match(e.message, /unknown key 'prot' in section \[gateway\] \(did you mean 'gateway\.port'\?\)/);
  });

  it('rejects nested tables and prototype names as unknown keys', () => {
    const errs = errors({ file: '[gateway.tls]\ncert = "x"\n[node]\n__proto__ = 1\nconstructor = 2\n' });
    assert.deepEqual(
      errs.map((e) => [e.code, e.key]),
      [
        ['config_unknown_key', 'gateway.tls'],
        ['config_unknown_key', 'node.__proto__'],
        ['config_unknown_key', 'node.constructor'],
      ],
    );
  });

  it('quotes unknown names that are not plain, so messages stay one clean line', () => {
    const e = only({ file: '[gateway]\n"evil\\nkey" = 1\n' });
    assert.equal(e.key, 'gateway.evil\nkey');
    assert.ok(!e.message.includes('\n'), e.message);
    assert.match(e.message, /unknown key '"evil\\nkey"'/);
    const long = only({ env: { [`TORANA_${'X'.repeat(200)}`]: '1' } });
    assert.ok(long.message.length < 400, long.message);
  });

  it('rejects a section that is not a table', () => {
    const e = only({ file: 'gateway = 5\n' });
    assert.deepEqual([e.code, e.key], ['config_invalid_value', 'gateway']);
    assert.match(e.message, /must be a table \[gateway\], got integer 5/);
  });

  it('rejects an unknown TORANA_ variable, naming it', () => {
    const e = only({ env: { TORANA_GATEWAY_PROT: '1' } });
    assert.deepEqual([e.code, e.key], ['config_unknown_key', 'TORANA_GATEWAY_PROT']);
    assert.match(
      e.message,
      /unknown environment variable TORANA_GATEWAY_PROT \(did you mean 'TORANA_GATEWAY_PORT'\?\)/,
    );
    assert.equal(only({ env: { TORANA_: 'x' } }).key, 'TORANA_');
  });

  it('rejects an unknown override', () => {
    const e = only({ overrides: { 'gateway.prot': 1 } });
    assert.deepEqual([e.code, e.key], ['config_unknown_key', 'gateway.prot']);
    assert.deepEqual(only({ overrides: { port: 1 } }).key, 'port');
  });
});

describe('loadConfig: invalid values', () => {
  it('names section.key, the expected type and what was given for wrong TOML types', () => {
    const cases: [string, string, RegExp][] = [
      [
        '[gateway]\nport = "8080"',
        'gateway.port',
        /\[gateway\] port: expected an integer in 0\.\.65535, got string "8080"/,
      ],
      ['[gateway]\nport = 8080.0', 'gateway.port', /got float 8080/],
      ['[gateway]\nport = 70000', 'gateway.port', /got integer 70000/],
      ['[storage]\nfsync = "yes"', 'storage.fsync', /expected a boolean \(true or false\), got string "yes"/],
      ['[gateway]\ncors_origins = "x"', 'gateway.cors_origins', /list of non-empty strings, got string "x"/],
      ['[node]\nchain_id = 1', 'node.chain_id', /expected a non-empty string, got integer 1/],
      ['[node]\nchain_id = ""', 'node.chain_id', /non-empty string, got an empty string/],
      ['[transaction]\nallowed_algorithms = []', 'transaction.allowed_algorithms', /at least 1/],
      ['[log]\nlevel = 1979-05-27T07:32:00Z', 'log.level', /got a date-time/],
    ];
    for (const [file, key, message] of cases) {
      const e = only({ file });
      assert.deepEqual([e.code, e.key], ['config_invalid_value', key], file);
      assert.match(e.message, message);
    }
  });

  it('accepts only origins in dashboard.connect_src (no way to end the CSP directive)', () => {
    const good = ['https://node-b.example', 'http://127.0.0.1:8081', 'wss://*.example:*', 'http://[::1]:80'];
    assert.deepEqual(ok({ overrides: { 'dashboard.connect_src': good } }).dashboard.connectSrc, good);
    for (const bad of [
      "'self'; script-src *",
      'https://a.example/path',
      'ftp://a.example',
      '*',
      'https://a b',
    ]) {
      const e = only({ overrides: { 'dashboard.connect_src': [bad] } });
      assert.deepEqual([e.code, e.key], ['config_invalid_value', 'dashboard.connect_src'], bad);
    }
  });

  it('rejects a value outside an enum', () => {
    const e = only({ file: '[telemetry]\nprofile = "verbose"\n' });
    assert.deepEqual([e.code, e.key], ['config_invalid_value', 'telemetry.profile']);
    assert.match(e.message, /one of 'disabled', 'operator', 'extended', 'developer', 'full', got "verbose"/);
    assert.equal(only({ env: { TORANA_LOG_LEVEL: 'loud' } }).key, 'log.level');
  });

  it('parses integers from the environment strictly', () => {
    for (const text of ['08', '1e3', '-1', '99999999999999999999', ' 5']) {
      const e = only({ env: { TORANA_GATEWAY_PORT: text } });
      assert.deepEqual([e.code, e.key], ['config_invalid_value', 'gateway.port'], text);
      assert.match(
        e.message,
        /^environment variable TORANA_GATEWAY_PORT \(gateway\.port\): expected an integer/,
      );
    }
    assert.equal(only({ overrides: { 'gateway.port': '1e3' } }).key, 'gateway.port');
  });

  it('reports TOML syntax errors with line and column', () => {
    const e = only({ file: '[gateway]\nport = = 1\n', filePath: 'node.toml' });
    assert.equal(e.code, 'config_parse_error');
    assert.equal(e.key, 'node.toml');
    assert.deepEqual([e.line, e.column], [2, 8]);
    assert.match(e.message, /^node\.toml:2:8: /);
    // Integers arrive as bigint, so one beyond 64 bits is a range error, never a silently rounded number.
    const big = only({ file: '[gateway]\nport = 99999999999999999999\n' });
    assert.deepEqual([big.code, big.key], ['config_invalid_value', 'gateway.port']);
    assert.match(big.message, /got integer 99999999999999999999/);
  });

  it('refuses an oversized file without parsing it', () => {
    const e = only({ file: `# ${'x'.repeat(1024 * 1024)}\n` });
    assert.equal(e.code, 'config_parse_error');
    assert.match(e.message, /longer than/);
  });

  it('collects every error of every layer, in layer order', () => {
    const errs = errors({
      file: '[gateway]\nport = "x"\nprot = 1\n[nope]\n[log]\nlevel = "loud"\n',
      env: { TORANA_QUEUE_CAPACITY: '-1', TORANA_BOGUS: '1' },
      overrides: { 'storage.fsync': 'maybe', 'x.y': 1 },
    });
    assert.deepEqual(
      errs.map((e) => `${e.code} ${e.key}`),
      [
        'config_invalid_value gateway.port',
        'config_unknown_key gateway.prot',
        'config_unknown_key nope',
        'config_invalid_value log.level',
        'config_unknown_key TORANA_BOGUS',
        'config_invalid_value queue.capacity',
        'config_invalid_value storage.fsync',
        'config_unknown_key x.y',
      ],
    );
  });
});

describe('loadConfig: keys that must agree', () => {
  it('refuses a default page size above the maximum', () => {
    const e = only({ overrides: { 'gateway.list_limit_default': 600 } });
    assert.deepEqual([e.code, e.key], ['config_invalid_value', 'gateway.list_limit_default']);
    assert.match(
      e.message,
      /gateway\.list_limit_default \(600\) must be at most gateway\.list_limit_max \(500\)/,
    );
  });

  it('refuses a header timeout above the request timeout, whichever layer set them', () => {
    const e = only({
      file: '[gateway]\nheader_timeout_ms = 20000\n',
      env: { TORANA_GATEWAY_REQUEST_TIMEOUT_MS: '15000' },
    });
    assert.equal(e.key, 'gateway.header_timeout_ms');
    assert.ok(ok({ overrides: { 'gateway.header_timeout_ms': 30000 } }));
  });

  it('refuses network timers and sizes that contradict each other', () => {
    const base = only({ overrides: { 'network.reconnect_base_ms': 20_000 } });
    assert.equal(base.key, 'network.reconnect_base_ms');
    assert.match(base.message, /must be at most network\.reconnect_max_ms \(10000\)/);
    const ping = only({ env: { TORANA_NETWORK_IDLE_TIMEOUT_MS: '1000' } });
    assert.equal(ping.key, 'network.ping_interval_ms');
    const tx = only({ file: '[network]\nframe_bytes_max = 32768\n' });
    assert.equal(tx.key, 'transaction.bytes_max');
    assert.ok(ok({ overrides: { 'network.reconnect_base_ms': 10_000, 'network.frame_bytes_max': 65536 } }));
  });

  it('refuses consensus timers that contradict each other or their bounds', () => {
    const e = only({ file: '[consensus]\nview_timeout_ms = 40000\n' });
    assert.deepEqual([e.code, e.key], ['config_invalid_value', 'consensus.view_timeout_ms']);
    assert.match(e.message, /must be at most consensus\.view_timeout_max_ms \(30000\)/);
    assert.equal(
      only({ overrides: { 'consensus.timeout_multiplier_permille': 999 } }).key,
      'consensus.timeout_multiplier_permille',
    );
    assert.equal(
      only({ env: { TORANA_CONSENSUS_JITTER_PERMILLE: '1001' } }).key,
      'consensus.jitter_permille',
    );
    assert.equal(only({ overrides: { 'consensus.collectors_k': 0 } }).key, 'consensus.collectors_k');
    const c = ok({
      overrides: { 'consensus.view_timeout_ms': 30_000, 'consensus.collectors_k': 1 },
    }).consensus;
    assert.deepEqual([c.viewTimeoutMs, c.viewTimeoutMaxMs, c.collectorsK], [30_000, 30_000, 1]);
  });

  it('checks pairs only once every key is valid on its own', () => {
    const errs = errors({ overrides: { 'gateway.list_limit_default': 600, 'gateway.port': 'x' } });
    assert.deepEqual(
      errs.map((e) => e.key),
      ['gateway.port'],
    );
  });
});
