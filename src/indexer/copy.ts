// COPY … FROM STDIN in PostgreSQL's text format: one line per row, cells separated by tabs, `\N` for
// null, backslash escapes for backslash, tab, newline and carriage return; bytea as `\\x` + hex (the
// backslash of the hex form is itself escaped), jsonb as its JSON text.

import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Cell } from './rows.js';

function escapeText(s: string): string {
  return s.replace(/[\\\t\n\r]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
  );
}

export function copyCell(c: Cell): string {
  if (c === null) return '\\N';
  if (typeof c === 'number') return String(c);
  if (typeof c === 'string') return escapeText(c);
  if (c instanceof Uint8Array)
    return `\\\\x${Buffer.from(c.buffer, c.byteOffset, c.byteLength).toString('hex')}`;
  return escapeText(JSON.stringify(c.json));
}

export function copyLine(row: readonly Cell[]): string {
  return `${row.map(copyCell).join('\t')}\n`;
}

/** Copies `rows` into `table` (`columns` in row order) on the client's current transaction. */
export async function copyRows(
  client: PoolClient,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly Cell[])[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const stream = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
  const done = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  // Written in chunks of about 64 KiB, each only once the stream has room.
  let chunk = '';
  for (const row of rows) {
    chunk += copyLine(row);
    if (chunk.length >= 65_536) {
      if (!stream.write(chunk)) await new Promise((r) => stream.once('drain', r));
      chunk = '';
    }
  }
  stream.end(chunk);
  await done;
  return rows.length;
}
