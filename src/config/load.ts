// Loading a node's configuration in three layers: what the
// user wrote (TOML file, environment, flags) is checked key by key, with unknown keys rejected; the
// layers are merged over the defaults with precedence defaults < file < env < overrides; the result
// is one typed, frozen `Config`. Every problem of every layer is reported, not just the first.
import { readEnvLayer } from './env.js';
import { type ConfigError, invalidValue, unknownKey } from './errors.js';
import { readFileLayer } from './file.js';
import { allPaths, keyByPath } from './keys.js';
import { emptyLayer, type Layer } from './layer.js';
import { checkRules, configFollows } from './rules.js';
import { buildConfig, type Config } from './schema.js';
import type { ConfigValue } from './spec.js';
import { suggestion } from './suggest.js';
import { checkValue, displayName, parseText } from './values.js';

export type { ConfigError, ConfigErrorCode } from './errors.js';
// renderConfigToml and configToJson live in render.ts; the brief's API names them here too.
export { configToJson, renderConfigToml } from './render.js';

export interface ConfigSources {
  /** TOML text of the configuration file. */
  file?: string | undefined;
  /** The file's path, used only in messages. */
  filePath?: string | undefined;
  /** The process environment (or a test's); only `TORANA_` variables are read. */
  env?: Record<string, string | undefined> | undefined;
  /**
   * Dotted `section.key` → value, from command-line flags. A string is parsed like an environment
   * value; any other value must already have the key's type. `undefined` entries are ignored.
   */
  overrides?: Record<string, unknown> | undefined;
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; errors: ConfigError[] };

export function loadConfig(src: ConfigSources): ConfigResult {
  const layers: Layer[] = [];
  if (src.file !== undefined) layers.push(readFileLayer(src.file, src.filePath));
  if (src.env !== undefined) layers.push(readEnvLayer(src.env));
  if (src.overrides !== undefined) layers.push(readOverrideLayer(src.overrides));

  const errors = layers.flatMap((l) => l.errors);
  const merged = new Map<string, ConfigValue>();
  for (const layer of layers) for (const [path, v] of layer.values) merged.set(path, v);
  const config = buildConfig(
    (path, spec) => merged.get(path) ?? followedDefault(path, merged) ?? spec.default,
  );
  // Cross-key rules only make sense once every key is valid on its own; before that they would
  // mostly report consequences of the errors already listed.
  if (errors.length === 0) errors.push(...checkRules(config));
  return errors.length === 0 ? { ok: true, config } : { ok: false, errors };
}

/** The value a key with a derived default (rules.ts configFollows) takes when no layer set it. */
function followedDefault(path: string, merged: ReadonlyMap<string, ConfigValue>): ConfigValue | undefined {
  const source = configFollows().get(path);
  if (source === undefined) return undefined;
  return merged.get(source) ?? keyByPath(source)?.spec.default;
}

function readOverrideLayer(overrides: Record<string, unknown>): Layer {
  const layer = emptyLayer();
  for (const path of Object.keys(overrides)) {
    const raw = overrides[path];
    if (raw === undefined) continue;
    const k = keyByPath(path);
    if (k === undefined) {
      const hint = suggestion(path, allPaths());
      layer.errors.push(
        unknownKey(path, `unknown setting '${displayName(path)}'${hint}; settings are named section.key`),
      );
      continue;
    }
    const r =
      typeof raw === 'string' ? parseText(k.spec, raw) : checkValue(k.spec, raw, { numbersAreFloats: false });
    if (r.ok) layer.values.set(path, r.value);
    else layer.errors.push(invalidValue(path, `setting ${path}: ${r.problem}`));
  }
  return layer;
}
