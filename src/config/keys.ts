// A flat index over CONFIG_SCHEMA: one entry per key with its dotted path, camelCase field and
// environment variable name, and lookups by each. Built once from the table and never mutated.
import { assert } from '../util/assert.js';
import { CONFIG_SCHEMA, type Config, type ConfigSectionName } from './schema.js';
import { type ConfigValue, camelCase, type KeySpec } from './spec.js';

/** Prefix of every environment variable the node reads. */
export const ENV_PREFIX = 'TORANA_';

export interface ConfigKey {
  readonly section: ConfigSectionName;
  /** snake_case name inside the section, as written in TOML. */
  readonly key: string;
  /** `section.key`, as used in errors, flags and docs. */
  readonly path: string;
  /** camelCase field name in `Config[section]`. */
  readonly field: string;
  /** `TORANA_<SECTION>_<KEY>`. */
  readonly envVar: string;
  readonly spec: KeySpec;
}

export function envVarName(section: string, key: string): string {
  return `${ENV_PREFIX}${section.toUpperCase()}_${key.toUpperCase()}`;
}

function indexKeys(): readonly ConfigKey[] {
  const out: ConfigKey[] = [];
  for (const [section, sec] of Object.entries(CONFIG_SCHEMA)) {
    for (const [key, spec] of Object.entries<KeySpec>(sec.keys)) {
      out.push(
        Object.freeze({
          section: section as ConfigSectionName,
          key,
          path: `${section}.${key}`,
          field: camelCase(key),
          envVar: envVarName(section, key),
          spec,
        }),
      );
    }
  }
  return Object.freeze(out);
}

/** Every key, in table order (sections in declaration order, keys in declaration order). */
export const CONFIG_KEYS: readonly ConfigKey[] = indexKeys();

// Maps rather than object lookups, so that user-supplied names such as `constructor` or
// `__proto__` can never reach Object.prototype.
const BY_PATH: ReadonlyMap<string, ConfigKey> = new Map(CONFIG_KEYS.map((k) => [k.path, k]));
const BY_ENV: ReadonlyMap<string, ConfigKey> = new Map(CONFIG_KEYS.map((k) => [k.envVar, k]));

/** Section names, in table order. */
export const SECTION_NAMES: readonly string[] = Object.freeze(Object.keys(CONFIG_SCHEMA));

export function keyByPath(path: string): ConfigKey | undefined {
  return BY_PATH.get(path);
}

export function keyByEnvVar(name: string): ConfigKey | undefined {
  return BY_ENV.get(name);
}

export function isSection(name: string): boolean {
  return SECTION_NAMES.includes(name);
}

export function keysOfSection(section: string): ConfigKey[] {
  return CONFIG_KEYS.filter((k) => k.section === section);
}

export function allPaths(): IterableIterator<string> {
  return BY_PATH.keys();
}

export function allEnvVars(): IterableIterator<string> {
  return BY_ENV.keys();
}

/** Reads one key's value out of a typed `Config`. */
export function configValue(config: Config, k: ConfigKey): ConfigValue {
  const sec = (config as unknown as Readonly<Record<string, Readonly<Record<string, ConfigValue>>>>)[
    k.section
  ];
  const v = sec?.[k.field];
  assert(v !== undefined, `config has no value for ${k.path}`);
  return v;
}

export function sameValue(a: ConfigValue, b: ConfigValue): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b;
}
