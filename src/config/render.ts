// Writing a `Config` back out: as a commented TOML file (for `torana init`, and the round-trip
// test), and as plain snake_case JSON (for docs, status and tests). Both walk the table in order,
// so output is deterministic.
import { type ConfigKey, configKeys, configValue, keyByPath, keysOfSection, sameValue } from './keys.js';
import { configFollows } from './rules.js';
import { type Config, configSchema } from './schema.js';
import type { ConfigValue } from './spec.js';

export interface RenderOptions {
  /** Write only keys whose value differs from the default (and only sections holding one). */
  onlyNonDefault?: boolean;
}

const FILE_HEADER = [
  '# torana node configuration (TOML). Every key, its default and its environment variable',
  '# (TORANA_<SECTION>_<KEY>) are listed in docs/configuration.md.',
];

export function renderConfigToml(config: Config, opts: RenderOptions = {}): string {
  const lines = [...FILE_HEADER];
  for (const [section, sec] of Object.entries(configSchema())) {
    const keys = keysOfSection(section).filter((k) => keep(config, k, opts));
    if (keys.length === 0) continue;
    lines.push('', `# ${sec.doc}`, `[${section}]`);
    for (const k of keys) lines.push(`# ${k.spec.doc}`, `${k.key} = ${tomlValue(configValue(config, k))}`);
  }
  return `${lines.join('\n')}\n`;
}

function keep(config: Config, k: ConfigKey, opts: RenderOptions): boolean {
  return opts.onlyNonDefault !== true || !sameValue(configValue(config, k), defaultOf(config, k));
}

/** The value a key takes when left unset: its own default, or the value of the key it follows (rules.ts). */
function defaultOf(config: Config, k: ConfigKey): ConfigValue {
  const source = keyByPath(configFollows().get(k.path) ?? '');
  return source === undefined ? k.spec.default : configValue(config, source);
}

export function tomlValue(v: ConfigValue): string {
  if (typeof v === 'string') return tomlString(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return `[${v.map(tomlString).join(', ')}]`;
}

const SHORT_ESCAPES: ReadonlyMap<string, string> = new Map([
  ['"', '\\"'],
  ['\\', '\\\\'],
  ['\b', '\\b'],
  ['\t', '\\t'],
  ['\n', '\\n'],
  ['\f', '\\f'],
  ['\r', '\\r'],
]);

/**
 * A TOML basic string (TOML 1.0 "String"): quote, backslash and the control characters other than
 * tab must be escaped; everything else is written as is.
 */
export function tomlString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const short = SHORT_ESCAPES.get(ch);
    const code = ch.codePointAt(0) ?? 0;
    if (short !== undefined) out += short;
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** The configuration as nested snake_case JSON: `{ gateway: { port: 8080, ... }, ... }`. */
export function configToJson(config: Config): Record<string, unknown> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const k of configKeys()) {
    const v = configValue(config, k);
    const sec = out[k.section] ?? {};
    sec[k.key] = Array.isArray(v) ? [...v] : v;
    out[k.section] = sec;
  }
  return out;
}
