// Invariants that tie two keys together. Each key may be valid alone and the pair still unusable
// (a default page size above the maximum page size, a family switched on without the application API),
// so these run on the merged configuration. A few booleans default to another key's value (follows).
// A module's section declares its own (sections.ts); they are checked and documented like the core's.

import { assert } from '../util/assert.js';
import { badProxyEntry } from '../util/ip-ranges.js';
import { type ConfigError, invalidValue } from './errors.js';
import { configValue, keyByPath } from './keys.js';
import type { Config } from './schema.js';
import { type ModuleConfigSection, moduleConfigSections } from './sections.js';

interface AtMostRule {
  /** This key's value must be <= the value of `limit`. */
  readonly key: string;
  readonly limit: string;
  readonly why: string;
}

export const CONFIG_RULES: readonly AtMostRule[] = Object.freeze([
  {
    key: 'gateway.list_limit_default',
    limit: 'gateway.list_limit_max',
    why: 'the default page must be a valid page',
  },
  {
    key: 'query.fetch_size_default',
    limit: 'query.fetch_size_max',
    why: 'the default batch must be a valid batch',
  },
  {
    key: 'gateway.connections_per_ip_max',
    limit: 'gateway.connections_max',
    why: 'one address cannot hold more than every connection',
  },
  {
    key: 'gateway.header_timeout_ms',
    limit: 'gateway.request_timeout_ms',
    why: "Node's HTTP server refuses a headers timeout above the request timeout",
  },
  {
    key: 'block.min_interval_ms',
    limit: 'block.time_ms',
    why: 'a waiting queue must get a block within block.time_ms',
  },
  {
    key: 'queue.per_account_max',
    limit: 'queue.capacity',
    why: 'one account cannot hold more than the whole queue',
  },
  {
    key: 'transaction.metadata_bytes_max',
    limit: 'transaction.bytes_max',
    why: 'metadata is part of the transaction',
  },
  {
    key: 'storage.record_bytes_max',
    limit: 'storage.segment_bytes_max',
    why: 'a segment must be able to hold its largest record',
  },
  {
    key: 'network.reconnect_base_ms',
    limit: 'network.reconnect_max_ms',
    why: 'the first redial delay cannot exceed the longest',
  },
  {
    key: 'network.ping_interval_ms',
    limit: 'network.idle_timeout_ms',
    why: 'a live peer must be heard from before its connection counts as idle',
  },
  {
    key: 'network.frame_bytes_max',
    limit: 'network.send_queue_bytes_max',
    why: 'a send queue must be able to hold one largest message',
  },
  {
    key: 'consensus.view_timeout_ms',
    limit: 'consensus.view_timeout_max_ms',
    why: 'the first view timeout cannot exceed the longest',
  },
  {
    key: 'transaction.bytes_max',
    limit: 'network.frame_bytes_max',
    why: 'a transaction gossiped to the peers travels in one message',
  },
]);

/** This boolean key may be true only while `needs` is true (full `section.key` paths). */
export interface NeedsRule {
  readonly key: string;
  readonly needs: string;
  readonly why: string;
}

/** The core's switches that need another; the modules' sections add theirs (`configNeeds`). */
export const CONFIG_NEEDS: readonly NeedsRule[] = Object.freeze([]);

let needs: readonly NeedsRule[] | undefined;

/** Every switch that needs another: the core's, then each module section's (its keys made full paths). */
export function configNeeds(): readonly NeedsRule[] {
  needs ??= Object.freeze([
    ...CONFIG_NEEDS,
    ...moduleConfigSections().flatMap((m) =>
      (m.needs ?? []).map((r) => Object.freeze({ ...r, key: `${m.name}.${r.key}` })),
    ),
  ]);
  return needs;
}

let follows: ReadonlyMap<string, string> | undefined;

/**
 * Boolean keys whose default is another key's value (declared by the modules' sections, `follows`):
 * left unset, such a switch is off when the key it follows is off (instead of contradicting it); set to
 * true, `configNeeds` refuses the pair.
 */
export function configFollows(): ReadonlyMap<string, string> {
  follows ??= new Map(
    moduleConfigSections().flatMap((m) =>
      Object.entries(m.follows ?? {}).map(([key, source]) => [`${m.name}.${key}`, source] as const),
    ),
  );
  return follows;
}

/**
 * A source `dashboard.connect_src` may add to the page's CSP: an http(s) or ws(s) origin (host may
 * start with `*.`, port may be `*`), nothing else, so no value can end the directive or add another.
 */
export const CSP_ORIGIN =
  /^(https?|wss?):\/\/(\*\.)?([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(:(\d{1,5}|\*))?$/;

function checkProxies(config: Config): ConfigError[] {
  const bad = badProxyEntry(config.gateway.trustedProxies);
  return bad === undefined
    ? []
    : [
        invalidValue(
          'gateway.trusted_proxies',
          `gateway.trusted_proxies: ${JSON.stringify(bad.slice(0, 100))} is not an IP address or a CIDR range`,
        ),
      ];
}

/** HTTPS needs both halves of the key pair: one without the other is a mistake, not plain HTTP. */
function checkTls(config: Config): ConfigError[] {
  const cert = config.gateway.tlsCertFile !== '';
  const key = config.gateway.tlsKeyFile !== '';
  if (cert === key) return [];
  const [set, unset] = cert
    ? ['gateway.tls_cert_file', 'gateway.tls_key_file']
    : ['gateway.tls_key_file', 'gateway.tls_cert_file'];
  return [
    invalidValue(unset, `${set} is set but ${unset} is empty: HTTPS needs the certificate and its key`),
  ];
}

function checkConnectSrcOrigins(config: Config): ConfigError[] {
  const bad = config.dashboard.connectSrc.filter((s) => !CSP_ORIGIN.test(s));
  return bad.length === 0
    ? []
    : [
        invalidValue(
          'dashboard.connect_src',
          `dashboard.connect_src: ${JSON.stringify(bad[0]!.slice(0, 100))} is not an origin (scheme http, https, ws or wss, a host, an optional port; no path)`,
        ),
      ];
}

/**
 * The findings of the sections' own checks (`ModuleConfigSection.check`) on `config`, each at its
 * `section.key`; a finding that names a key its section does not have is a bug of the module (it throws).
 */
export function checkSections(
  config: Config,
  sections: readonly ModuleConfigSection[] = moduleConfigSections(),
): ConfigError[] {
  const errors: ConfigError[] = [];
  for (const m of sections) {
    if (m.check === undefined) continue;
    const values = (config as unknown as Readonly<Record<string, unknown>>)[m.name];
    assert(values !== undefined, `the configuration has no section ${m.name}`);
    for (const f of m.check(values as never)) {
      assert(Object.hasOwn(m.spec.keys, f.key), `config section ${m.name} checks an unknown key ${f.key}`);
      errors.push(invalidValue(`${m.name}.${f.key}`, f.message));
    }
  }
  return errors;
}

export function checkRules(config: Config): ConfigError[] {
  const errors: ConfigError[] = [
    ...checkSections(config),
    ...checkNeeds(config),
    ...checkConnectSrcOrigins(config),
    ...checkTls(config),
    ...checkProxies(config),
  ];
  for (const rule of CONFIG_RULES) {
    const k = keyByPath(rule.key);
    const limit = keyByPath(rule.limit);
    assert(k !== undefined && limit !== undefined, `config rule names an unknown key: ${rule.key}`);
    const v = configValue(config, k);
    const max = configValue(config, limit);
    if (typeof v === 'number' && typeof max === 'number' && v > max) {
      errors.push(
        invalidValue(rule.key, `${rule.key} (${v}) must be at most ${rule.limit} (${max}): ${rule.why}`),
      );
    }
  }
  return errors;
}

function checkNeeds(config: Config): ConfigError[] {
  const errors: ConfigError[] = [];
  for (const rule of configNeeds()) {
    const k = keyByPath(rule.key);
    const needed = keyByPath(rule.needs);
    assert(k !== undefined && needed !== undefined, `config rule names an unknown key: ${rule.key}`);
    if (configValue(config, k) === true && configValue(config, needed) === false) {
      errors.push(
        invalidValue(
          rule.key,
          `${rule.key} is true but ${rule.needs} is false: ${rule.why}; set ${rule.key} = false or ${rule.needs} = true`,
        ),
      );
    }
  }
  return errors;
}
