// The file layer: a TOML document (TOML 1.0, parsed by smol-toml) with one table per section.
// Unknown sections and keys are errors naming them; values are checked by type and bounds.
import { parse, TomlError } from 'smol-toml';
import { type ConfigError, invalidValue, unknownKey } from './errors.js';
import { allPaths, configKeys, isSection, keyByPath, sectionNames } from './keys.js';
import { emptyLayer, type Layer } from './layer.js';
import { suggestion } from './suggest.js';
import { checkValue, describeGiven, displayName } from './values.js';

/** Largest configuration file accepted, in UTF-16 code units; real files are a few KiB. */
export const CONFIG_FILE_LENGTH_MAX = 1024 * 1024;
/** Deepest inline nesting smol-toml may build; our tables are two levels deep. */
const TOML_DEPTH_MAX = 8;
const TOML_OPTS = { numbersAreFloats: true } as const;

export function readFileLayer(text: string, filePath: string | undefined): Layer {
  const layer = emptyLayer();
  const where = filePath ?? '<file>';
  if (text.length > CONFIG_FILE_LENGTH_MAX) {
    layer.errors.push(
      parseError(where, `${where}: file is longer than ${CONFIG_FILE_LENGTH_MAX} characters`),
    );
    return layer;
  }
  let doc: Record<string, unknown>;
  try {
    // Integers as bigint keep `1` and `1.0` apart, and never round a large integer silently.
    doc = parse(text, { integersAsBigInt: true, maxDepth: TOML_DEPTH_MAX, unsafeKeyBehaviour: 'keep' });
  } catch (e) {
    layer.errors.push(tomlParseError(where, e));
    return layer;
  }
  for (const name of Object.keys(doc)) readSection(layer, where, name, doc[name]);
  return layer;
}

function readSection(layer: Layer, where: string, name: string, table: unknown): void {
  if (!isSection(name)) {
    const hint = isTable(table) ? suggestion(name, sectionNames()) : belongsIn(name);
    const what = isTable(table)
      ? `unknown section [${displayName(name)}]`
      : `unknown top-level key '${displayName(name)}'`;
    layer.errors.push(
      unknownKey(
        name,
        `${where}: ${what}${hint}; keys belong in one of ${sectionNames()
          .map((s) => `[${s}]`)
          .join(', ')}`,
      ),
    );
    return;
  }
  if (!isTable(table)) {
    const given = describeGiven(table, TOML_OPTS);
    layer.errors.push(invalidValue(name, `${where}: '${name}' must be a table [${name}], got ${given}`));
    return;
  }
  for (const key of Object.keys(table)) {
    const path = `${name}.${key}`;
    const k = keyByPath(path);
    if (k === undefined) {
      const hint = belongsIn(key) || suggestion(path, allPaths());
      layer.errors.push(
        unknownKey(path, `${where}: unknown key '${displayName(key)}' in section [${name}]${hint}`),
      );
      continue;
    }
    const r = checkValue(k.spec, table[key], TOML_OPTS);
    if (r.ok) layer.values.set(path, r.value);
    else layer.errors.push(invalidValue(path, `${where}: [${name}] ${key}: ${r.problem}`));
  }
}

/** ` (it belongs in [gateway])` when a key of that name exists in other sections, else ''. */
function belongsIn(key: string): string {
  const sections = configKeys()
    .filter((k) => k.key === key)
    .map((k) => `[${k.section}]`);
  return sections.length === 0 ? '' : ` (it belongs in ${sections.join(' or ')})`;
}

function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

function parseError(key: string, message: string, line?: number, column?: number): ConfigError {
  const pos = line !== undefined && column !== undefined ? { line, column } : {};
  return { code: 'config_parse_error', key, message, ...pos };
}

function tomlParseError(where: string, e: unknown): ConfigError {
  if (e instanceof TomlError) {
    // smol-toml's message carries a code excerpt after the first line; the position is enough here.
    const first = e.message.split('\n', 1)[0] ?? 'invalid TOML';
    return parseError(where, `${where}:${e.line}:${e.column}: ${first}`, e.line, e.column);
  }
  return parseError(where, `${where}: ${e instanceof Error ? e.message : String(e)}`);
}
