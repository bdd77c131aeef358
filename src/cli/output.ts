// CLI output: one JSON document per result with --json (one per line when following), aligned tables
// otherwise; progress goes to stderr so stdout stays machine-readable.

import type { Json } from '../codec/codec.js';

export interface OutputOptions {
  json?: boolean;
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}\n`);
}

/** Epoch milliseconds from here on are read as points in time (2001-09-09), not durations. */
const EPOCH_MS_MIN = 1e12;

/** A column of epoch milliseconds (`created_at_ms`, `block_time_ms`): shown as a UTC time. */
const isTimeColumn = (name: string) => /(^|_)(at|time|start|end)_ms$/.test(name) || /(At|Time)Ms$/.test(name);

function asTime(v: Json | undefined): string | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{13,16}$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n >= EPOCH_MS_MIN
    ? new Date(n).toISOString().replace('.000Z', 'Z')
    : undefined;
}

/** A column of amounts (`amount`, `balance`, `total_billed_gas`, `gasRatePerMinute`, …). */
const isAmountColumn = (name: string) =>
  /(^|_)(amount|balance|total|quantity|value|fee|gas|cap|supply)s?$/i.test(name) ||
  /(Amount|Balance|Total|Quantity|Value|Fee|Gas|Cap|Supply|PerMinute)s?$/.test(name);

/**
 * A decimal amount for a person: the whole part grouped by thousands (`12,345,678.5`), the fraction as
 * the ledger gives it. Only tables and records: `--json` keeps the ledger's text, which is what the CLI
 * takes back as an argument.
 */
export function amountText(v: Json | undefined): string | undefined {
  const text = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : typeof v === 'string' ? v : '';
  const m = /^(-?)(\d{4,})(\.\d+)?$/.exec(text);
  if (m === null) return undefined;
  return `${m[1]}${m[2]!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${m[3] ?? ''}`;
}

/**
 * A short text for a value in a cell: no JSON documents, epoch milliseconds as ISO-8601 UTC, amounts
 * grouped by thousands.
 */
export function cellText(column: string, v: Json | undefined): string {
  if (v === undefined || v === null) return '';
  if (isTimeColumn(column)) {
    const time = asTime(v);
    if (time !== undefined) return time;
  }
  if (isAmountColumn(column)) {
    const amount = amountText(v);
    if (amount !== undefined) return amount;
  }
  if (Array.isArray(v)) {
    if (v.every((x) => x === null || typeof x !== 'object')) return v.map((x) => String(x)).join(', ');
    return `${v.length} item${v.length === 1 ? '' : 's'}`;
  }
  if (typeof v === 'object') {
    const kind = (v as { kind?: unknown }).kind;
    const fields = Object.entries(v).filter(([k]) => k !== 'kind');
    const simple = fields.every(([, x]) => x === null || typeof x !== 'object');
    const parts = simple ? fields.map(([k, x]) => `${k}=${cellText(k, x)}`) : [`${fields.length} fields`];
    if (typeof kind === 'string') return fields.length === 0 ? kind : `${kind} ${parts.join(' ')}`;
    return parts.join(' ');
  }
  return String(v);
}

/** A header: a column of times without its `_ms` (its cells are times now, not milliseconds). */
function headerText(c: string, values: (Json | undefined)[]): string {
  const times = isTimeColumn(c) && values.some((v) => asTime(v) !== undefined);
  return (times ? c.replace(/_?ms$/i, '') : c).toUpperCase();
}

/** The lines of an aligned table with a header line. */
export function tableLines(rows: Record<string, Json | undefined>[], columns?: string[]): string[] {
  if (rows.length === 0) return ['(none)'];
  const cols = columns ?? Object.keys(rows[0]!);
  const cells = rows.map((r) => cols.map((c) => cellText(c, r[c])));
  const headers = cols.map((c) =>
    headerText(
      c,
      rows.map((r) => r[c]),
    ),
  );
  const widths = cols.map((_c, i) => Math.max(headers[i]!.length, ...cells.map((r) => r[i]!.length)));
  const line = (vals: string[]) =>
    vals
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(headers), ...cells.map(line)];
}

/** Prints rows as an aligned table with a header line. */
export function printTable(rows: Record<string, Json | undefined>[], columns?: string[]): void {
  process.stdout.write(`${tableLines(rows, columns).join('\n')}\n`);
}

/** Key: value lines for one object. */
export function printRecord(record: Record<string, Json | undefined>): void {
  const width = Math.max(...Object.keys(record).map((k) => k.length));
  for (const [k, v] of Object.entries(record))
    process.stdout.write(`${k.padEnd(width)}  ${cellText(k, v)}\n`);
}

/** A progress line on stderr when it is a terminal; silent otherwise. */
export function progress(message: string): () => void {
  if (!process.stderr.isTTY) return () => undefined;
  const frames = ['|', '/', '-', '\\'];
  let i = 0;
  const timer = setInterval(() => process.stderr.write(`\r${frames[i++ % 4]} ${message}`), 120);
  return () => {
    clearInterval(timer);
    process.stderr.write(`\r${' '.repeat(message.length + 2)}\r`);
  };
}
