// CLI output: one JSON document per result with --json (one per line when following), aligned tables
// otherwise; progress goes to stderr so stdout stays machine-readable.

import type { Json } from '../codec/codec.js';

export interface OutputOptions {
  json?: boolean;
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}\n`);
}

/** Prints rows as an aligned table with a header line. */
export function printTable(rows: Record<string, Json | undefined>[], columns?: string[]): void {
  if (rows.length === 0) {
    process.stdout.write('(none)\n');
    return;
  }
  const cols = columns ?? Object.keys(rows[0]!);
  const cell = (v: Json | undefined) =>
    v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) =>
    vals
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  process.stdout.write(`${line(cols.map((c) => c.toUpperCase()))}\n`);
  for (const r of rows) process.stdout.write(`${line(cols.map((c) => cell(r[c])))}\n`);
}

/** Key: value lines for one object. */
export function printRecord(record: Record<string, Json | undefined>): void {
  const width = Math.max(...Object.keys(record).map((k) => k.length));
  for (const [k, v] of Object.entries(record)) {
    process.stdout.write(
      `${k.padEnd(width)}  ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v ?? '')}\n`,
    );
  }
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
