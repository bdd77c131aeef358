// The explorer's SSE streams: each newly committed block, transaction or
// instruction as one message whose `data:` is the list item's JSON, with the list filters. Resuming: a
// `Last-Event-ID` (or `last_event_id` query parameter) in the stream's id form replays the items after
// it from the block store, then follows live, without gaps. A replay is bounded: at most
// `streams.subscriber_buffer_events_max` items and `query.work_units_max` of block reads; past either the
// stream answers `event: gone` (catch up through the list routes, then reconnect without an id).

import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { gatewayError } from '../../gateway/errors.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import { serveSse } from '../../gateway/sse.js';
import type { EventFeed } from '../../gateway/sse-session.js';
import type { ExplorerContext } from './context.js';
import { withIds, workUnitsMax } from './context.js';
import { blockEvents, type ExplorerEvent, type ExplorerFeed, ID_SPAN, type StreamKind } from './feed.js';
import {
  FILTER_IDS,
  filterKey,
  InstructionStreamQuery,
  instructionMatches,
  parseInstructionFilter,
  parseTransactionFilter,
  TransactionStreamQuery,
  transactionMatches,
} from './filters.js';
import { BLOCK_SCAN_UNITS } from './scan.js';

const ID_FORMS: Record<StreamKind, RegExp> = {
  blocks: /^(\d{1,15})$/,
  transactions: /^(\d{1,15}):(\d{1,9})$/,
  instructions: /^(\d{1,15}):(\d{1,9}):(\d{1,9})$/,
};
const ID_TEXT: Record<StreamKind, string> = {
  blocks: 'height',
  transactions: 'height:tx_index',
  instructions: 'height:tx_index:instruction_index',
};

/** The resume point as (height, tx, ins), or undefined to start live; 400 invalid_last_event_id if malformed. */
export function resumePoint(kind: StreamKind, req: FastifyRequest): [number, number, number] | undefined {
  const header = req.headers['last-event-id'];
  let text = typeof header === 'string' && header.trim() !== '' ? header.trim() : undefined;
  if (text === undefined) {
    const q = (req.query as { last_event_id?: string }).last_event_id;
    text = q === undefined || q === '' ? undefined : q;
  }
  if (text === undefined) return undefined;
  const m = ID_FORMS[kind].exec(text);
  if (m === null)
    throw gatewayError('invalid_last_event_id', { value: text.slice(0, 48), expected: ID_TEXT[kind] });
  // A block id `h` is (h, 0, 0) and a transaction id `h:t` is (h, t, 0): the items' own places.
  return [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
}

function after(e: ExplorerEvent, at: [number, number, number]): boolean {
  const h = e.block.header.height;
  if (h !== at[0]) return h > at[0];
  if (e.tx !== at[1]) return e.tx > at[1];
  return e.ins > at[2];
}

/**
 * Replays the items after `at` up to the feed's last published block, then serves the stream. The last
 * height check and `serveSse` run in one synchronous step, so no block is published in between.
 */
async function serveFrom(
  x: ExplorerContext,
  feed: ExplorerFeed,
  kind: StreamKind,
  req: FastifyRequest,
  reply: FastifyReply,
  keep: (e: ExplorerEvent) => boolean,
  key: string,
): Promise<void> {
  const at = resumePoint(kind, req);
  const replay: ExplorerEvent[] = [];
  let gone = false;
  if (at !== undefined) {
    const itemsMax = req.server.gateway.limits.sseQueueEventsMax;
    let spent = 0;
    for (let h = Math.max(1, at[0]); h <= feed.published && !gone; h++) {
      spent += BLOCK_SCAN_UNITS;
      const b = await x.port.chain.block(h);
      if (b === undefined) continue;
      for (const e of blockEvents(kind, b)) if (after(e, at) && keep(e)) replay.push(e);
      gone = replay.length > itemsMax || spent > workUnitsMax(x);
    }
  }
  const base = feed.of(kind, replay);
  const stream: EventFeed = gone ? { ...base, since: () => 'gone' } : base;
  const id =
    at === undefined ? undefined : at[0] > feed.published ? (at[0] + 1) * ID_SPAN - 1 : at[0] * ID_SPAN;
  serveSse(req, reply, stream, {
    filter: (e) => keep(e as ExplorerEvent),
    filterKey: `${kind}:${key}`,
    resume: { id },
  });
}

function streamRoute(
  x: ExplorerContext,
  feed: ExplorerFeed,
  r: { kind: StreamKind; what: string; filters: string },
  querystring: ReturnType<typeof Type.Object>,
  matcher: (q: Record<string, string | undefined>) => { keep: (e: ExplorerEvent) => boolean; key: string },
): RouteDef {
  return defineRoute({
    method: 'GET',
    url: `/v1/explorer/${r.kind}/stream`,
    operationId: `explorerStream${r.kind[0]!.toUpperCase()}${r.kind.slice(1)}`,
    summary: `Server-sent events: each newly committed ${r.what}, resumable with Last-Event-ID`,
    description:
      `Each message: \`id: ${ID_TEXT[r.kind]}\`, \`event: ${r.what}\`, \`data:\` the item as in the list. ` +
      `${r.filters} Resume with Last-Event-ID (or last_event_id) in the same form; a replay longer than ` +
      'the subscriber buffer answers `event: gone`. Lag as /v1/events/sse (`event: lagged`).',
    tags: ['explorer'],
    visibility: 'public',
    formats: { default: 'sse', offers: ['sse'] },
    errorStatuses: [429],
    schema: {
      querystring: Type.Object({
        ...querystring.properties,
        last_event_id: Type.Optional(
          Type.String({ maxLength: 64, description: `resume after this ${ID_TEXT[r.kind]}` }),
        ),
      }),
      response: { 200: Type.String({ description: 'text/event-stream' }) },
    },
    handler: async (req, reply) => {
      // Names in place of ids resolve once, when the stream opens (the committed height then), like the list's.
      const m = matcher(await withIds(x, req.query as Record<string, string | undefined>, FILTER_IDS));
      await serveFrom(x, feed, r.kind, req, reply, m.keep, m.key);
    },
  });
}

export function streamRoutes(x: ExplorerContext, feed: ExplorerFeed): RouteDef[] {
  return [
    streamRoute(x, feed, { kind: 'blocks', what: 'block', filters: 'No filters.' }, Type.Object({}), () => ({
      keep: () => true,
      key: '',
    })),
    streamRoute(
      x,
      feed,
      { kind: 'transactions', what: 'transaction', filters: 'Filters: authority, block, status, asset_id.' },
      TransactionStreamQuery,
      (q) => {
        const f = parseTransactionFilter(q);
        return { keep: (e) => transactionMatches(f, e.block, e.tx), key: filterKey(f) };
      },
    ),
    streamRoute(
      x,
      feed,
      {
        kind: 'instructions',
        what: 'instruction',
        filters: 'Filters: authority, account, transaction_hash, transaction_status, block, kind, asset_id.',
      },
      InstructionStreamQuery,
      (q) => {
        const f = parseInstructionFilter(q);
        const hashOf = (e: ExplorerEvent) => (e.data as { transaction_hash: string }).transaction_hash;
        return {
          keep: (e) => instructionMatches(f, e.block, e.tx, e.ins, () => hashOf(e)),
          key: filterKey(f),
        };
      },
    ),
  ];
}
