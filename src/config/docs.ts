// The key table of docs/configuration.md, generated from CONFIG_SCHEMA. docs.test.ts fails when the
// document does not contain exactly this table, so the docs cannot drift from the code; to
// regenerate, paste the table the failing test prints (or print `renderConfigDocsTable()`).
import { CONFIG_KEYS, type ConfigKey } from './keys.js';
import { tomlValue } from './render.js';
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

/**
 * The table with padded, aligned columns, which is the form the project's formatter (biome) gives
 * markdown tables; an unaligned table would be rewritten by `biome check --write` and then no longer
 * match. Widths are counted in UTF-16 units, which is exact because every cell is ASCII
 * (docs.test.ts checks that).
 */
export function renderConfigDocsTable(): string {
  const body = CONFIG_KEYS.map((k) =>
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

function defaultCell(k: ConfigKey): string {
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
