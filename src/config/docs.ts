// The key tables of docs/configuration.md: the core's, generated from CORE_CONFIG_SCHEMA, and each
// module's section (its keys and switches), which the module's descriptor places in the page's generated
// `<!-- modules:config-sections -->` block (src/modules/docs.ts). docs.test.ts fails when the document
// does not contain exactly these, so the docs cannot drift from the code; to regenerate, paste the table
// the failing test prints (or print `renderConfigDocsTable()`; the modules' block: src/modules/docs.ts).
import type { ConfigKey } from './keys.js';
import { tomlValue } from './render.js';
import { composeConfigSchema } from './schema.js';
import type { ModuleConfigSection } from './sections.js';
import type { ConfigValue, KeySpec } from './spec.js';

const KiB = 1024;
const UNITS: readonly (readonly [number, string])[] = [
  [KiB * KiB * KiB * KiB, 'TiB'],
  [KiB * KiB * KiB, 'GiB'],
  [KiB * KiB, 'MiB'],
  [KiB, 'KiB'],
];
const DURATIONS: readonly (readonly [number, string])[] = [
  [3_600_000, 'h'],
  [60_000, 'min'],
  [1000, 's'],
];

const HEADER = ['key', 'type', 'default', 'description'];

/** What a table row shows of a key. */
type TableKey = Pick<ConfigKey, 'key' | 'path' | 'spec'>;

/**
 * The core's keys table, as the core declares them: a description a module adds to (the families
 * `app_api.enabled` serves) shows the core's words; the module's block says what it adds
 * (`renderModuleConfigDocs`).
 */
export function renderConfigDocsTable(): string {
  const core = composeConfigSchema([]);
  const keys = Object.entries(core).flatMap(([name, sec]) =>
    Object.entries<KeySpec>(sec.keys).map(([key, spec]) => ({ key, path: `${name}.${key}`, spec })),
  );
  return renderKeysTable(keys);
}

/**
 * A module's section as docs/configuration.md shows it: its table name, doc, keys table, and its
 * switches (what each needs, what it follows when unset).
 */
export function renderModuleConfigDocs(decl: ModuleConfigSection): string {
  const keys = Object.entries<KeySpec>(decl.spec.keys).map(([key, spec]) => ({
    key,
    path: `${decl.name}.${key}`,
    spec,
  }));
  const family = (decl.needs ?? []).some((r) => r.key === 'enabled' && r.needs === 'app_api.enabled');
  const rules = [
    ...(family
      ? [
          `An application family: the description of \`app_api.enabled\` (the running node's, and its \`torana config\` output) lists \`${decl.name}\` among the route families it serves.`,
        ]
      : []),
    ...(decl.needs ?? []).map(
      (r) =>
        `\`${decl.name}.${r.key}\` needs \`${r.needs}\` (${r.why}): set to true while \`${r.needs}\` is false is \`config_invalid_value\` naming it.`,
    ),
    ...Object.entries(decl.follows ?? {}).map(
      ([key, source]) => `Left unset, \`${decl.name}.${key}\` takes the value of \`${source}\`.`,
    ),
    ...(decl.checkDoc === undefined ? [] : [decl.checkDoc]),
  ];
  return [
    decl.inCoreSection === true ? `### Keys at the end of \`[${decl.name}]\`` : `### \`[${decl.name}]\``,
    decl.spec.doc,
    ...(rules.length > 0 ? [rules.join(' ')] : []),
    renderKeysTable(keys).trimEnd(),
  ].join('\n\n');
}

/**
 * A table with padded, aligned columns, which is the form the project's formatter (biome) gives
 * markdown tables; an unaligned table would be rewritten by `biome check --write` and then no longer
 * match. Widths are counted in UTF-16 units, which is exact because every cell is ASCII
 * (docs.test.ts checks that).
 */
function renderKeysTable(keys: readonly TableKey[]): string {
  const body = keys.map((k) =>
    [`\`${k.path}\``, typeCell(k.spec), defaultCell(k), k.spec.doc].map(escapeCell),
  );
  const widths = HEADER.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]?.length ?? 0)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  const rule = `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`;
  return `${[line(HEADER), rule, ...body.map(line)].join('\n')}\n`;
}

function typeCell(spec: KeySpec): string {
  switch (spec.type) {
    case 'string':
      return spec.nonEmpty ? 'string, non-empty' : 'string';
    case 'integer':
      return `integer ${spec.min}..${spec.max}`;
    case 'boolean':
      return 'boolean';
    case 'string[]':
      return spec.itemsMin > 0 ? `string[], at least ${spec.itemsMin}` : 'string[]';
    case 'enum':
      return `one of ${spec.values.join(', ')}`;
  }
}

function defaultCell(k: TableKey): string {
  const v: ConfigValue = k.spec.default;
  const hint = typeof v === 'number' ? humanize(k.key, v) : '';
  return `\`${tomlValue(v)}\`${hint === '' ? '' : ` (${hint})`}`;
}

/** `65536` of a `..._bytes...` key reads "64 KiB"; `30000` of a `..._ms` key reads "30 s". */
function humanize(key: string, v: number): string {
  const table = key.includes('bytes') ? UNITS : key.endsWith('_ms') ? DURATIONS : [];
  for (const [size, unit] of table) if (v >= size && v % size === 0) return `${v / size} ${unit}`;
  return '';
}

function escapeCell(s: string): string {
  return s.replaceAll('|', '\\|').replaceAll('\n', ' ');
}
