// Stream filters: a JSON expression of src/state/filter.ts (and / or / not, eq, ne,
// lt…gte, in, nin, exists, is_null) evaluated over a small projection of each event, computed once per
// event and shared by every subscriber. Fields of the projection:
//   kind          "transaction" | "block" | "data" (the SSE `event:` name)
//   tx_status     Queued | Approved | Committed | Rejected | Expired            (transaction events)
//   tx_hash       lower-case hex                                     (transaction and data events)
//   block_status  Created | Approved | Rejected | Committed | Applied                 (block events)
//   block_height  integer                       (block, data, and transaction events once in a block)
//   data_kind     the data event's variant, e.g. AccountCreated                        (data events)
//   domain        the domain the change is about (domains, accounts, assets, NFTs, calls) (data events)
//   call          a call id, <domain>:<name>                                 (call events)
//   relay         a relay id                                                (relay register / health)
//   account       the account a data event is about (account created / deleted, a balance change, a
//                 permission or role grant, a name bound to it); a name in place of the id is accepted
//   definition    the asset definition (definition events, a balance change, a name bound to it); a
//                 name in place of the id is accepted
//   asset         the asset (balance) of AssetAdded / AssetRemoved; either part may be a name
// Names (model/id-names.ts) in `eq`, `ne`, `in`, `nin` on the last three are resolved to ids when the
// filter is taken (a stream when it opens, a stored filter when it is registered: EVENT_ID_FIELDS, id-filter.ts).
// A field an event lacks satisfies only ne, nin and is_null. Paths other than these names are refused,
// so a typo answers 400 instead of silently matching nothing.

import type { Event } from '../model/events.js';
import { toHex } from '../util/hex.js';
import { dataScope } from './event-scope.js';
import type { QueryPort } from './query-port.js';

export const EVENT_FILTER_FIELDS = [
  'kind',
  'tx_status',
  'tx_hash',
  'block_status',
  'block_height',
  'data_kind',
  'domain',
  'call',
  'relay',
  'account',
  'definition',
  'asset',
] as const;
export type EventFilterField = (typeof EVENT_FILTER_FIELDS)[number];

/** Longest filter text accepted (query parameter or WebSocket request); it bounds parsing work. */
export const FILTER_TEXT_CHARS_MAX = 4096;

export type EventName = 'transaction' | 'block' | 'data';

export interface EventFields {
  readonly kind: EventName;
  readonly tx_status?: string;
  readonly tx_hash?: string;
  readonly block_status?: string;
  readonly block_height?: number;
  readonly data_kind?: string;
  readonly domain?: string;
  readonly call?: string;
  readonly relay?: string;
  readonly account?: string;
  readonly definition?: string;
  readonly asset?: string;
}

/** Filter fields naming an id, and what they name: names in place of ids are resolved (id-filter.ts). */
export const EVENT_ID_FIELDS = { account: 'account', definition: 'definition', asset: 'asset' } as const;

export type EventMatcher = (fields: EventFields) => boolean;

export type EventFilterResult =
  | { ok: true; match: EventMatcher }
  | { ok: false; details: { path: string; reason: string } };

const MATCH_ALL: EventMatcher = () => true;
const FIELDS: ReadonlySet<string> = new Set(EVENT_FILTER_FIELDS);
/** Operators whose argument is `["field", …]`, and those whose argument is `"field"`. */
const FIELD_FIRST = new Set(['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'nin']);
const FIELD_ONLY = new Set(['exists', 'is_null']);

export function eventName(e: Event): EventName {
  return e.kind === 'Transaction' ? 'transaction' : e.kind === 'Block' ? 'block' : 'data';
}

export function projectEvent(e: Event): EventFields {
  switch (e.kind) {
    case 'Transaction':
      return {
        kind: 'transaction',
        tx_status: e.status.kind,
        tx_hash: toHex(e.hash),
        ...(e.blockHeight === undefined ? {} : { block_height: e.blockHeight }),
      };
    case 'Block':
      return { kind: 'block', block_status: e.status.kind, block_height: e.height };
    case 'Data':
      return {
        kind: 'data',
        tx_hash: toHex(e.transactionHash),
        block_height: e.blockHeight,
        data_kind: e.data.kind,
        ...dataScope(e.data),
      };
  }
}

const fail = (path: string, reason: string): EventFilterResult => ({ ok: false, details: { path, reason } });

/**
 * Checks what compileFilter does not know about streams: the configured nesting cap
 * (`gateway.filter_depth_max`) and the field names. Operator syntax is left to compileFilter.
 */
function checkShape(
  e: unknown,
  path: string,
  depth: number,
  depthMax: number,
): EventFilterResult | undefined {
  if (depth > depthMax) return fail(path, `nested deeper than ${depthMax}`);
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return undefined;
  const entries = Object.entries(e);
  if (entries.length !== 1) return undefined;
  const [op, arg] = entries[0]!;
  const at = `${path}.${op}`;
  if ((op === 'and' || op === 'or') && Array.isArray(arg)) {
    for (let i = 0; i < arg.length; i++) {
      const bad = checkShape(arg[i], `${at}[${i}]`, depth + 1, depthMax);
      if (bad !== undefined) return bad;
    }
    return undefined;
  }
  if (op === 'not') return checkShape(arg, at, depth + 1, depthMax);
  const field = FIELD_FIRST.has(op) && Array.isArray(arg) ? arg[0] : FIELD_ONLY.has(op) ? arg : undefined;
  if (typeof field === 'string' && !FIELDS.has(field)) {
    return fail(at, `unknown field ${field.slice(0, 64)}; fields: ${EVENT_FILTER_FIELDS.join(', ')}`);
  }
  return undefined;
}

/** Compiles an already parsed filter expression; `undefined` (or null) matches every event. */
export function compileEventFilter(expr: unknown, depthMax: number, query: QueryPort): EventFilterResult {
  if (expr === undefined || expr === null) return { ok: true, match: MATCH_ALL };
  const bad = checkShape(expr, '$', 1, depthMax);
  if (bad !== undefined) return bad;
  const compiled = query.compileFilter(expr);
  if (typeof compiled !== 'function') {
    const d = compiled.details as { path?: unknown; reason?: unknown } | undefined;
    return fail(
      typeof d?.path === 'string' ? d.path : '$',
      typeof d?.reason === 'string' ? d.reason : compiled.message,
    );
  }
  return { ok: true, match: (fields) => compiled(fields) };
}

/** Parses and compiles filter text (the SSE `filter` query parameter); absent or empty matches all. */
export function parseEventFilter(
  text: string | undefined,
  depthMax: number,
  query: QueryPort,
): EventFilterResult {
  if (text === undefined || text.trim() === '') return { ok: true, match: MATCH_ALL };
  if (text.length > FILTER_TEXT_CHARS_MAX)
    return fail('$', `longer than ${FILTER_TEXT_CHARS_MAX} characters`);
  let expr: unknown;
  try {
    expr = JSON.parse(text);
  } catch {
    return fail('$', 'not valid JSON');
  }
  return compileEventFilter(expr, depthMax, query);
}
