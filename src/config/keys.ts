// A flat index over the schema (core and modules' sections, schema.ts `configSchema`): one entry per key
// with its dotted path, camelCase field and environment variable name, and lookups by each. Built once,
// on first use (after the modules' sections were added), and never mutated.
import { assert } from '../util/assert.js';
import { type Config, configSchema } from './schema.js';
import { type ConfigValue, camelCase, type KeySpec } from './spec.js';

/** Prefix of every environment variable the node reads. */
export const ENV_PREFIX = 'TORANA_';

export interface ConfigKey {
  /** The section: a core one (`ConfigSectionName`) or a module's. */
  readonly section: string;
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
  for (const [section, sec] of Object.entries(configSchema())) {
    for (const [key, spec] of Object.entries<KeySpec>(sec.keys)) {
      out.push(
        Object.freeze({
          section,
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

interface KeyIndex {
  readonly keys: readonly ConfigKey[];
  readonly byPath: ReadonlyMap<string, ConfigKey>;
  readonly byEnv: ReadonlyMap<string, ConfigKey>;
  readonly sections: readonly string[];
}

let built: KeyIndex | undefined;

function index(): KeyIndex {
  if (built !== undefined) return built;
  const keys = indexKeys();
  // Maps rather than object lookups, so that user-supplied names such as `constructor` or
  // `__proto__` can never reach Object.prototype.
  built = Object.freeze({
    keys,
    byPath: new Map(keys.map((k) => [k.path, k])),
    byEnv: new Map(keys.map((k) => [k.envVar, k])),
    sections: Object.freeze(Object.keys(configSchema())),
  });
  return built;
}

/** Every key, in schema order (sections in schema order, keys in declaration order). */
export function configKeys(): readonly ConfigKey[] {
  return index().keys;
}

/** Section names, in schema order. */
export function sectionNames(): readonly string[] {
  return index().sections;
}

export function keyByPath(path: string): ConfigKey | undefined {
  return index().byPath.get(path);
}

export function keyByEnvVar(name: string): ConfigKey | undefined {
  return index().byEnv.get(name);
}

export function isSection(name: string): boolean {
  return index().sections.includes(name);
}

export function keysOfSection(section: string): ConfigKey[] {
  return index().keys.filter((k) => k.section === section);
}

export function allPaths(): IterableIterator<string> {
  return index().byPath.keys();
}

export function allEnvVars(): IterableIterator<string> {
  return index().byEnv.keys();
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
