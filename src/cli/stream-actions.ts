// The code of `torana events` and `torana blocks` (declared in client-commands.ts).

import type { Json } from '../codec/codec.js';
import { type Flags, parseJsonFlag } from './client-actions.js';
import { CliError } from './errors.js';
import { printJson } from './output.js';
import { resolveClient } from './settings.js';

export async function events(
  flags: Flags & { filter?: string; follow?: boolean; since?: string },
): Promise<void> {
  const { client } = await resolveClient(flags, false);
  const abort = new AbortController();
  const { EventCodec } = await import('../model/events.js');
  let idle: NodeJS.Timeout | undefined;
  const arm = () => {
    if (flags.follow) return;
    clearTimeout(idle);
    idle = setTimeout(() => abort.abort(), 500); // without --follow: print what the node holds, then stop
  };
  arm();
  // Without --follow: what the node holds, then stop. With it: from now, as the SDK's client.events().
  const since = flags.since === undefined ? (flags.follow ? undefined : 'genesis') : sinceFlag(flags.since);
  for await (const { id, event } of client.events({
    filter: parseJsonFlag(flags.filter, 'filter'),
    ...(since === undefined ? {} : { since }),
    signal: abort.signal,
  })) {
    const json = EventCodec.toJson(event) as Record<string, Json>;
    if (flags.json) printJson({ id, event: json });
    else process.stdout.write(`${String(id).padStart(6)}  ${describeEvent(json)}\n`);
    arm();
  }
  clearTimeout(idle);
}

/** `--since`: an event id (≥ 0) or `genesis`. */
function sinceFlag(text: string): number | 'genesis' {
  if (text === 'genesis') return 'genesis';
  const id = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(id))
    throw new CliError('invalid_argument', '--since must be an event id or genesis', 2);
  return id;
}

/** Committed blocks from a height, over the block stream. */
export async function blocks(flags: Flags & { from: string; follow?: boolean }): Promise<void> {
  const from = Number(flags.from);
  if (!Number.isSafeInteger(from) || from < 1)
    throw new CliError('invalid_argument', '--from must be an integer >= 1', 2);
  const { client } = await resolveClient(flags, false);
  // The tip from the core's status summary: the command needs no application route.
  const top = (await client.get<{ latest_block_height: number }>('/status')).latest_block_height;
  if (!flags.follow && from > top) return;
  const { BlockCodec } = await import('../model/block.js');
  const abort = new AbortController();
  for await (const block of client.blocks({ from, signal: abort.signal })) {
    const h = block.header;
    if (flags.json) printJson(BlockCodec.toJson(block));
    else {
      const rejected = block.results.filter((r) => r.kind === 'Rejected').length;
      process.stdout.write(
        `${String(h.height).padStart(8)}  ${new Date(h.creationTimeMs).toISOString()}  ${String(h.transactionCount).padStart(4)} tx  ${rejected} rejected\n`,
      );
    }
    if (!flags.follow && h.height >= top) abort.abort();
  }
}

function describeEvent(e: Record<string, Json>): string {
  const status = (e.status as { kind?: string } | undefined)?.kind ?? '';
  if (e.kind === 'Transaction')
    return `transaction ${e.hash} ${status}${e.block_height ? ` in block ${e.block_height}` : ''}`;
  if (e.kind === 'Block') return `block ${e.height} ${status}`;
  const data = e.data as Record<string, Json>;
  const { kind, ...rest } = data;
  return `${kind} ${Object.values(rest)
    .map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v)))
    .join(' ')}`;
}
