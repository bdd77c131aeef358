// Typed readers of the conference routes (docs/conference.md "Routes and CLI"), decoded with the
// node's own view codecs (views.ts), so the SDK and the node cannot drift. Reached through
// `ToranaClient` (sdk-client.ts: getCall, listCalls, listRelays, relayHealth, relayEvents).

import type { Codec } from '../../codec/codec.js';
import { type Event, EventCodec } from '../../model/events.js';
import { decodeAnswer } from '../../sdk/answers.js';
import { ToranaApiError } from '../../sdk/errors.js';
import type { Http } from '../../sdk/http.js';
import { sseStream } from '../../sdk/sse.js';
import {
  CallListView,
  CallView,
  RelayHealthView,
  RelayListView,
  RelayView,
  type ShieldedPool,
  ShieldedPoolView,
} from './views.js';

export type {
  CallDetail,
  CallSummary,
  RelayHealthSummary,
  RelayItem,
  ShieldedPool,
} from './views.js';

export interface PageOptions {
  limit?: number;
  offset?: number;
}

export interface CallListOptions extends PageOptions, SignedOption {
  domain?: string;
  status?: 'active' | 'ended';
  /** A filter expression over the items' JSON fields (docs/data-model.md "Queries"). */
  filter?: unknown;
  sort?: string;
}

export interface RelayListOptions extends PageOptions {
  region?: string;
  available?: boolean;
  filter?: unknown;
  sort?: string;
}

export interface SignedOption {
  /**
   * Sign the request with the client's account: needed to read `authenticated`
   * calls. Each attempt is signed once; a 429/503 retry after the freshness window fails as stale.
   */
  signed?: boolean;
}

export interface RelayEventOptions {
  kind?: 'registered' | 'manifest' | 'health';
  relay?: string;
  domain?: string;
  /** Resume after this event id. */
  since?: number;
  signal?: AbortSignal;
}

type Query = Record<string, string | number | undefined>;

/** A GET of a JSON route: plain (`Http.json`) or signed (`ToranaClient.signedJson`). */
export type JsonGet = (path: string, query: Query) => Promise<unknown>;

export const plainGet =
  (http: Http): JsonGet =>
  (path, query) =>
    http.json({ method: 'GET', path, query });

async function view<T>(get: JsonGet, codec: Codec<T>, path: string, query: Query = {}): Promise<T> {
  const json = await get(path, query);
  return decodeAnswer(codec, json, path);
}

const filterText = (f: unknown) => (f === undefined ? undefined : JSON.stringify(f));

/** One call; `get` must sign (ToranaClient's `signed` option) for an `authenticated` call. */
export const getCall = (get: JsonGet, id: string) =>
  view(get, CallView, `/v1/conference/calls/${encodeURIComponent(id)}`);

/** Calls; `authenticated` ones only when `get` signs. */
export const listCalls = (get: JsonGet, o: CallListOptions = {}) =>
  view(get, CallListView, '/v1/conference/calls', {
    limit: o.limit,
    offset: o.offset,
    domain: o.domain,
    status: o.status,
    filter: filterText(o.filter),
    sort: o.sort,
  });

export const getRelay = (get: JsonGet, id: string) =>
  view(get, RelayView, `/v1/conference/relays/${encodeURIComponent(id)}`);

export const listRelays = (get: JsonGet, o: RelayListOptions = {}) =>
  view(get, RelayListView, '/v1/conference/relays', {
    limit: o.limit,
    offset: o.offset,
    region: o.region,
    available: o.available === undefined ? undefined : String(o.available),
    filter: filterText(o.filter),
    sort: o.sort,
  });

export const relayHealth = (get: JsonGet, o: PageOptions = {}) =>
  view(get, RelayHealthView, '/v1/conference/relays/health', { limit: o.limit, offset: o.offset });

/** One page of the shielded pool tree: leaves offset..offset+limit-1, the leaf count and the roots. */
export const shieldedPoolPage = (get: JsonGet, o: PageOptions = {}) =>
  view(get, ShieldedPoolView, '/v1/conference/pool', { limit: o.limit, offset: o.offset });

/** Whether a nullifier (hex) of `kind` is spent at the committed height. */
export const nullifierSpent = async (
  get: JsonGet,
  kind: 'roster' | 'usage' | 'note',
  nullifier: string,
): Promise<boolean> => {
  const path = `/v1/conference/nullifiers/${kind}/${encodeURIComponent(nullifier)}`;
  const answer = (await get(path, {})) as { spent?: unknown };
  return answer.spent === true;
};

/** Leaves asked per page by `shieldedPool` (the node's default `gateway.list_limit_max`). */
export const POOL_PAGE_SIZE = 500;

/**
 * The whole shielded pool tree (leaves in order, roots), to prove a note spend (`torana/sdk/zk`), read
 * page by page. The first page fixes the tree: its `total` leaves and its `root`, the root of exactly
 * those (leaves are only ever appended, so later pages cannot change them; leaves added meanwhile are
 * left out). A node whose list cap is below `pageSize` answers its own page size instead.
 */
export async function shieldedPool(get: JsonGet, o: { pageSize?: number } = {}): Promise<ShieldedPool> {
  let limit: number | undefined = o.pageSize ?? POOL_PAGE_SIZE;
  const page = async (offset: number) => {
    try {
      return await shieldedPoolPage(get, { offset, ...(limit === undefined ? {} : { limit }) });
    } catch (e) {
      if (!(e instanceof ToranaApiError && e.code === 'invalid_pagination') || limit === undefined) throw e;
      limit = undefined; // the node's default page size
      return shieldedPoolPage(get, { offset });
    }
  };
  const first = await page(0);
  const leaves = [...first.leaves];
  while (leaves.length < first.total) {
    const next = await page(leaves.length);
    if (next.leaves.length === 0) break;
    leaves.push(...next.leaves);
  }
  return { ...first, leaves: leaves.slice(0, first.total) };
}

/** Relay events over SSE, resuming automatically after dropped connections. */
export async function* relayEvents(
  http: Http,
  o: RelayEventOptions = {},
): AsyncGenerator<{ id: number; event: Event }> {
  const stream = sseStream(http, {
    path: '/v1/conference/relays/events',
    query: { kind: o.kind, relay: o.relay, domain: o.domain },
    ...(o.since === undefined ? {} : { lastEventId: o.since }),
    ...(o.signal ? { signal: o.signal } : {}),
  });
  for await (const m of stream) {
    if (m.event === 'lagged' || m.event === 'gone') continue;
    yield { id: m.id, event: EventCodec.fromJson(JSON.parse(m.data), '') };
  }
}
