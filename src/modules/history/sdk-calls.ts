// Typed readers of the transaction history routes (docs/history.md),
// decoded with the node's own view codecs (views.ts). Reached through `ToranaClient`
// (transactionHistory, accountTransactions, assetDefinitionTransactions, walkTransactionHistory).

import { decodeAnswer } from '../../sdk/answers.js';
import type { HistoryPage } from './views.js';
import { HistoryPageView } from './views.js';

export type { HistoryItem, HistoryPage } from './views.js';

export interface HistoryOptions {
  limit?: number;
  offset?: number;
  /** `nextCursor` of the previous page: the page after it. */
  cursor?: string;
  status?: 'ok' | 'rejected' | 'all';
  /** Block time window, inclusive, ms since the epoch. */
  fromMs?: number;
  toMs?: number;
  /** An instruction kind, e.g. `TransferAsset`. */
  kind?: string;
}

export interface CallerHistoryOptions extends HistoryOptions {
  /** Only transactions touching this asset (`<name>#<domain>#<account>`). */
  assetId?: string;
}

type Query = Record<string, string | number | undefined>;
/** A GET of a JSON route (plain, or signed for the caller's history). */
export type HistoryGet = (path: string, query: Query) => Promise<unknown>;

export const CALLER_HISTORY_PATH = '/v1/transactions/history';
export const accountHistoryPath = (id: string) => `/v1/accounts/${encodeURIComponent(id)}/transactions`;
export const definitionHistoryPath = (id: string) =>
  `/v1/assets/definitions/${encodeURIComponent(id)}/transactions`;

function queryOf(o: CallerHistoryOptions): Query {
  return {
    limit: o.limit,
    offset: o.offset,
    cursor: o.cursor,
    status: o.status,
    from_ms: o.fromMs,
    to_ms: o.toMs,
    kind: o.kind,
    asset_id: o.assetId,
  };
}

/** One page of a history route. */
export async function historyPage(
  get: HistoryGet,
  path: string,
  o: CallerHistoryOptions = {},
): Promise<HistoryPage> {
  const json = await get(path, queryOf(o));
  return decodeAnswer(HistoryPageView, json, path);
}

/** Every item of a history route, newest first, page by page along the cursor (stable under new commits). */
export async function* walkHistory(
  get: HistoryGet,
  path: string,
  o: CallerHistoryOptions = {},
): AsyncGenerator<HistoryPage['items'][number]> {
  let cursor = o.cursor;
  for (;;) {
    const { offset: _ignored, ...rest } = o;
    const page = await historyPage(get, path, { ...rest, ...(cursor === undefined ? {} : { cursor }) });
    yield* page.items;
    if (page.nextCursor === undefined) return;
    cursor = page.nextCursor;
  }
}
