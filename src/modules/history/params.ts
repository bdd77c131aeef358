// Parameters of the history routes (§1.1): `limit`/`offset` as every simple list
// (400 invalid_pagination), an opaque `cursor` (cursor.ts, 400 invalid_pagination), and the filters
// `status` (ok | rejected | all), `from_ms` / `to_ms` (block time, inclusive), `kind` (an instruction
// kind, model/instructions.ts) and, on /v1/transactions/history, `asset_id`: a bad one is 400
// invalid_filter naming the parameter. GET takes them in the query string, POST …/query in a JSON body.

import { Type } from 'typebox';
import type { RouteLimits } from '../../gateway/deps.js';
import { gatewayError } from '../../gateway/errors.js';
import { withNames } from '../../gateway/id-name-words.js';
import { parsePage } from '../../gateway/list.js';
import { pathId } from '../../gateway/routes/app-params.js';
import { AssetId } from '../../model/ids.js';
import { kindTag } from '../../pipeline/tx-summary.js';
import { decodeCursor } from './cursor.js';
import type { HistoryFilter, HistoryStatus, PageRequest } from './page.js';

const text = (description: string, maxLength = 20) => Type.Optional(Type.String({ maxLength, description }));

const FILTER_FIELDS = {
  limit: text('page size, integer >= 1'),
  offset: text('items to skip (after the cursor, if any), integer >= 0'),
  cursor: text('`next_cursor` of the previous page: the page after it', 64),
  status: text('ok (committed), rejected, or all (default)'),
  from_ms: text('only transactions in blocks created at or after this time (ms since the epoch)'),
  to_ms: text('only transactions in blocks created at or before this time (ms since the epoch)'),
  kind: text('only transactions with an instruction of this kind (e.g. TransferAsset)', 64),
};

export const HistoryQuerystring = Type.Object(FILTER_FIELDS);

/** The caller's history query; `asset_id` words the names taken in place of ids (id-name-words.ts). */
export const callerHistoryQuerystring = () =>
  Type.Object({
    ...FILTER_FIELDS,
    asset_id: text(
      `only transactions touching this asset (<name>#<domain>#<account>${withNames('', (w) => `; either part may be ${w.a}`)})`,
      512,
    ),
  });

/** The JSON body of `POST …/transactions/query`: the same parameters, numbers as numbers. */
export const HistoryQueryBody = Type.Object({
  limit: Type.Optional(Type.Number({ description: 'page size, integer >= 1' })),
  offset: Type.Optional(Type.Number({ description: 'items to skip (after the cursor), integer >= 0' })),
  cursor: Type.Optional(Type.String({ maxLength: 64, description: '`next_cursor` of the previous page' })),
  status: Type.Optional(Type.String({ maxLength: 20, description: 'ok, rejected or all (default)' })),
  from_ms: Type.Optional(Type.Number({ description: 'earliest block time (ms), inclusive' })),
  to_ms: Type.Optional(Type.Number({ description: 'latest block time (ms), inclusive' })),
  kind: Type.Optional(Type.String({ maxLength: 64, description: 'an instruction kind' })),
});

export interface HistoryInput {
  limit?: unknown;
  offset?: unknown;
  cursor?: unknown;
  status?: unknown;
  from_ms?: unknown;
  to_ms?: unknown;
  kind?: unknown;
}

const STATUSES: readonly HistoryStatus[] = ['ok', 'rejected', 'all'];

function invalid(parameter: string, value: unknown, expected: string) {
  return gatewayError('invalid_filter', { parameter, value: String(value).slice(0, 64), expected });
}

function timeOf(name: string, v: unknown): number | undefined {
  if (v === undefined) return undefined;
  const n =
    typeof v === 'number' ? v : typeof v === 'string' && /^[0-9]{1,16}$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 0) throw invalid(name, v, 'milliseconds since the epoch, integer >= 0');
  return n;
}

function filterOf(q: HistoryInput): HistoryFilter {
  const status = q.status ?? 'all';
  if (!STATUSES.includes(status as HistoryStatus)) throw invalid('status', status, STATUSES.join(' | '));
  const f: HistoryFilter = { status: status as HistoryStatus };
  const fromMs = timeOf('from_ms', q.from_ms);
  const toMs = timeOf('to_ms', q.to_ms);
  if (fromMs !== undefined) f.fromMs = fromMs;
  if (toMs !== undefined) f.toMs = toMs;
  if (q.kind !== undefined) {
    const tag = typeof q.kind === 'string' ? kindTag(q.kind) : undefined;
    if (tag === undefined) throw invalid('kind', q.kind, 'an instruction kind, e.g. TransferAsset');
    f.kindTag = tag;
  }
  return f;
}

export function pageRequestOf(q: HistoryInput, limits: RouteLimits): PageRequest {
  const { limit, offset } = parsePage(q, limits);
  const filter = filterOf(q);
  if (q.cursor === undefined) return { filter, limit, offset };
  if (typeof q.cursor !== 'string') throw gatewayError('invalid_pagination', { cursor: 'not a string' });
  return { filter, limit, offset, cursor: decodeCursor(q.cursor) };
}

/** The canonical asset id of `asset_id`, or 400 invalid_filter. */
export function assetFilterOf(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  try {
    return pathId(AssetId, v);
  } catch {
    throw invalid('asset_id', v, '<name>#<domain>#<account>');
  }
}
