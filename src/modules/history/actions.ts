// `torana tx history` (declared in client-commands.ts): the client account's transaction history, a
// signed app request with the CLI's key (docs/history.md); with --of or
// --definition the public per-account or per-definition list instead (no key needed).

import { CliError } from '../../cli/errors.js';
import { printJson, printTable } from '../../cli/output.js';
import { type ClientFlags, resolveClient } from '../../cli/settings.js';
import type { CallerHistoryOptions } from './sdk-calls.js';
import type { HistoryPage } from './views.js';

export interface HistoryFlags extends ClientFlags {
  json?: boolean;
  of?: string;
  definition?: string;
  status?: string;
  kind?: string;
  asset?: string;
  fromMs?: string;
  toMs?: string;
  limit?: string;
  cursor?: string;
  all?: boolean;
}

function count(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^[0-9]{1,16}$/.test(v))
    throw new CliError('invalid_argument', `${name}: expected an integer >= 0`, 2);
  return Number(v);
}

function optionsOf(f: HistoryFlags): CallerHistoryOptions {
  if (f.status !== undefined && !['ok', 'rejected', 'all'].includes(f.status))
    throw new CliError('invalid_argument', '--status: ok, rejected or all', 2);
  const o: Record<string, unknown> = {
    limit: count('--limit', f.limit),
    fromMs: count('--from-ms', f.fromMs),
    toMs: count('--to-ms', f.toMs),
    status: f.status,
    kind: f.kind,
    cursor: f.cursor,
    assetId: f.asset,
  };
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as CallerHistoryOptions;
}

type Item = HistoryPage['items'][number];

const row = (x: Item) => ({
  height: x.blockHeight,
  index: x.index,
  time: new Date(x.timestampMs).toISOString(),
  result: x.resultOk
    ? 'ok'
    : x.result.kind === 'Rejected'
      ? `rejected (${x.result.reason.code})`
      : 'rejected',
  authority: x.authority,
  kinds: [...new Set(x.instructions.map((i) => i.kind))].join(','),
  hash: x.hash,
});

export async function txHistory(flags: HistoryFlags): Promise<void> {
  const opts = optionsOf(flags);
  if (flags.of !== undefined && flags.definition !== undefined)
    throw new CliError('invalid_argument', '--of and --definition exclude each other', 2);
  const caller = flags.of === undefined && flags.definition === undefined;
  if (!caller && opts.assetId !== undefined)
    throw new CliError('invalid_argument', '--asset filters only your own history', 2);
  const { client } = await resolveClient(flags, caller);
  const { HistoryPageView } = await import('./views.js');
  const page = (o: CallerHistoryOptions) =>
    flags.of !== undefined
      ? client.accountTransactions(flags.of, o)
      : flags.definition !== undefined
        ? client.assetDefinitionTransactions(flags.definition, o)
        : client.transactionHistory(o);
  let answer = await page(opts);
  if (flags.all === true) {
    const items = [...answer.items];
    while (answer.nextCursor !== undefined) {
      answer = await page({ ...opts, cursor: answer.nextCursor });
      items.push(...answer.items);
    }
    answer = { items, total: answer.total } as HistoryPage;
  }
  if (flags.json) printJson(HistoryPageView.toJson(answer));
  else {
    printTable(answer.items.map(row));
    process.stdout.write(
      `${answer.items.length} of ${answer.total}${answer.nextCursor === undefined ? '' : `; next: --cursor ${answer.nextCursor}`}\n`,
    );
  }
}
