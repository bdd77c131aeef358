// The torana client (README "SDK"): signed transactions and queries, typed readers decoded with the
// gateway's own view codecs (so the SDK and the node cannot drift), and event streams with resumption.

import type { Codec, Json } from '../codec/codec.js';
import { decodeFrame, encode, encodeFrame } from '../codec/frame.js';
import { hash } from '../crypto/hash.js';
import type { Signer } from '../crypto/signer.js';
import {
  ApiVersionsView,
  CapabilitiesView,
  PeersView,
  StatusView,
  TimeNowView,
  TimeStatusView,
  TransactionAcceptedView,
} from '../gateway/views/common.js';
import { TransactionStatusView } from '../gateway/views/transactions.js';
import type { Block } from '../model/block.js';
import { type Event, EventCodec } from '../model/events.js';
import type { Instruction } from '../model/instructions.js';
import { ParametersCodec } from '../model/parameters.js';
import {
  type IterableQuery,
  type QueryOutput,
  QueryOutputCodec,
  type QueryParams,
  QueryPayloadCodec,
  type QueryRequest,
  type QueryResponse,
  QueryResponseCodec,
  SignedQueryCodec,
  type SingularQuery,
} from '../model/queries.js';
import { createSchemaRegistry, SCHEMA } from '../model/schema.js';
import { decodeAnswer, withGatewayJson } from './answers.js';
import { type BatchItemResult, type SubmitManyOptions, submitMany } from './batch.js';
import { blockStream } from './blocks.js';
import { ToranaApiError, ToranaTransportError } from './errors.js';
import { Http, type HttpOptions, type HttpRequest } from './http.js';
import { quorumSentence } from './quorum.js';
import { signRequest } from './signed-request.js';
import { sseStream } from './sse.js';
import { type BuiltTransaction, TransactionBuilder } from './transaction.js';
import { type LookupAnswer, type StatusSource, type TxOutcome, waitForOutcome } from './wait.js';

export interface ClientOptions extends Omit<HttpOptions, 'baseUrl'> {
  url: string;
  /** Needed to build transactions and queries; read from /v1/node/capabilities when absent. */
  chainId?: string;
  /** The account transactions and queries are signed for, and its key. */
  account?: string;
  signer?: Signer;
  /**
   * Other nodes of the same chain. While `submitAndWait` cannot learn an outcome from `url` (the node
   * restarted, the connection was lost) it looks the transaction up by hash on these too, and may send
   * them the same signed bytes.
   */
  urls?: readonly string[];
  /** Backoff between the status lookups of `submitAndWait` (default 100 ms doubling up to 2 s). */
  waitBackoff?: { baseMs: number; maxMs: number };
}

export interface SubmitAndWaitOptions {
  /** Deadline of the whole wait, lookups included (default 60 s). */
  timeoutMs?: number;
}

export interface ListOptions {
  limit?: number;
  offset?: number;
  filter?: unknown;
  sort?: string;
}

/** `since: 'genesis'`: the first event the node holds. */
export type EventStreamStart = 'genesis';

/** The Last-Event-ID that asks the node for its whole event history (no event has id 0). */
const GENESIS_EVENT_ID = 0;

/** The Last-Event-ID for `since`, undefined to start at now. */
export function eventStreamLastId(since: number | EventStreamStart | undefined): number | undefined {
  return since === 'genesis' ? GENESIS_EVENT_ID : since;
}

export interface EventStreamOptions {
  /** A filter expression over tx_status, tx_hash, block_status, block_height (docs/data-model.md "Events"). */
  filter?: unknown;
  /**
   * Where the stream starts. Absent: at now, with the next event (what `torana events --follow` does by
   * default). An event id: after that event. `'genesis'`: from the oldest event the node still holds
   * (every event since the node's first while its history reaches back that far; `events_gone` ends a
   * stream whose start the node no longer holds).
   */
  since?: number | EventStreamStart;
  signal?: AbortSignal;
  /** Called each time the stream's connection is open. */
  onOpen?: () => void;
  /** Called each time a connection attempt fails or the connection drops (the stream then reconnects). */
  onDrop?: (error: unknown) => void;
}

const DECODE_LIMITS = { bytesMax: 64 * 1024 * 1024, itemsMax: 1_000_000, depthMax: 64 };

export class ToranaClient {
  readonly http: Http;
  private chainIdValue: string | undefined;
  private lastQueryMs = 0;
  private readonly registry = createSchemaRegistry();

  constructor(readonly opts: ClientOptions) {
    this.http = new Http({ ...opts, baseUrl: opts.url });
    this.chainIdValue = opts.chainId;
  }

  // ---- readers ---------------------------------------------------------------------------------

  private async view<T>(
    path: string,
    codec: Codec<T>,
    query?: Record<string, string | number | undefined>,
  ): Promise<T> {
    return decodeAnswer(
      codec,
      await this.http.json({ method: 'GET', path, ...(query ? { query } : {}) }),
      path,
    );
  }

  health() {
    return this.http.json<{ status: string }>({ method: 'GET', path: '/health' });
  }
  status() {
    return this.view('/status', StatusView);
  }
  capabilities() {
    return this.view('/v1/node/capabilities', CapabilitiesView);
  }
  /**
   * The admission policy the node enforces (`GET /v1/policy`): transaction, TTL, queue, block weight and
   * codec limits, as its JSON document (docs/app-api.md).
   */
  policy() {
    return this.http.json<Record<string, Record<string, Json>>>({ method: 'GET', path: '/v1/policy' });
  }
  apiVersions() {
    return this.view('/v1/api/versions', ApiVersionsView);
  }
  timeNow() {
    return this.view('/v1/time/now', TimeNowView);
  }
  timeStatus() {
    return this.view('/v1/time/status', TimeStatusView);
  }
  peers() {
    return this.view('/peers', PeersView);
  }
  parameters() {
    return this.view('/v1/parameters', ParametersCodec);
  }
  transactionStatus(hashHex: string) {
    return this.view('/v1/pipeline/transactions/status', TransactionStatusView, { hash: hashHex });
  }

  /** GET any JSON route (those without a typed reader yet), with list options as query parameters. */
  get<T = unknown>(path: string, list: ListOptions = {}): Promise<T> {
    return this.http.json<T>({
      method: 'GET',
      path,
      query: {
        limit: list.limit,
        offset: list.offset,
        sort: list.sort,
        filter: list.filter === undefined ? undefined : JSON.stringify(list.filter),
      },
    });
  }

  /**
   * Sends `req` as a signed app request of the client's account (docs/security.md "Signed app requests": the
   * `x-ledger-*` headers over method, path, sorted query and body hash), as the application routes
   * that take signed requests require (docs/app-api.md). Each call signs afresh (new timestamp and nonce),
   * so retries of 429/503 inside Http reuse headers only within the freshness window.
   */
  signedRequest(req: HttpRequest): Promise<Response> {
    const { account, signer } = this.identity();
    const u = new URL(this.http.url(req.path, req.query));
    const headers = signRequest({
      method: req.method,
      url: `${u.pathname}${u.search}`,
      ...(req.body === undefined ? {} : { body: req.body }),
      account,
      signer,
    });
    return this.http.request({ ...req, headers: { ...req.headers, ...headers } });
  }

  async signedJson<T = unknown>(req: HttpRequest): Promise<T> {
    return (await (await this.signedRequest(req)).json()) as T;
  }

  async chainId(): Promise<string> {
    this.chainIdValue ??= (await this.capabilities()).chainId;
    return this.chainIdValue;
  }

  // ---- transactions ----------------------------------------------------------------------------

  /** The account and signer this client signs for; throws when it has none. */
  identity(): { account: string; signer: Signer } {
    if (this.opts.account === undefined || this.opts.signer === undefined) {
      throw new Error(
        'this client has no account and signer: pass `account` and `signer` to sign transactions',
      );
    }
    return { account: this.opts.account, signer: this.opts.signer };
  }

  /** A builder for a transaction of the client's account. */
  async transaction(): Promise<TransactionBuilder> {
    return new TransactionBuilder(await this.chainId(), this.identity().account);
  }

  /** Builds and signs a transaction of `instructions` with the client's key. */
  async build(
    instructions: Instruction[],
    opts: { ttlMs?: number; nonce?: number } = {},
  ): Promise<BuiltTransaction> {
    const b = (await this.transaction()).add(...instructions);
    if (opts.ttlMs !== undefined) b.ttlMs(opts.ttlMs);
    if (opts.nonce !== undefined) b.nonce(opts.nonce);
    return b.sign(this.identity().signer);
  }

  /** Submits; 429 (queue full, rate limit) is retried after Retry-After. Resolves on acceptance (202). */
  async submit(tx: BuiltTransaction) {
    const res = await this.http.request({
      method: 'POST',
      path: '/transaction',
      body: tx.bytes,
      contentType: 'application/x-codec',
    });
    return decodeAnswer(TransactionAcceptedView, await res.json(), '/transaction');
  }

  /**
   * Submits many transactions through POST /v1/transactions/batch, split to the node's batch limits;
   * one result per transaction in the order given (`Queued` with its hash, or `Refused` with its error).
   */
  submitMany(txs: readonly BuiltTransaction[], opts?: SubmitManyOptions): Promise<BatchItemResult[]> {
    return submitMany(this.http, txs, opts);
  }

  /**
   * Submits and resolves when the transaction is committed; rejects with TransactionRejectedError when
   * a block records it as rejected, with the submit's ToranaApiError when the node refused it (400, 413,
   * 429, 503: not admitted), and with ToranaUnknownOutcomeError (`outcome_unknown`) when no node could say
   * what became of it before the deadline. Listens on the event stream first; when the stream cannot
   * give the outcome (`events_gone`, a lost connection, a restarted node, the deadline) or the submit got
   * no clear answer (a lost connection, 408, 5xx), it looks the transaction up by hash on this node and
   * on `urls`, with backoff, up to the deadline (sdk/wait.ts).
   */
  async submitAndWait(
    tx: BuiltTransaction,
    opts: SubmitAndWaitOptions = {},
  ): Promise<{ hash: string; blockHeight: number }> {
    const timeoutMs = opts.timeoutMs ?? 60_000;
    const abort = new AbortController();
    let opened: () => void = () => {};
    let dropped: (e: unknown) => void = () => {};
    const open = new Promise<void>((r) => {
      opened = r;
    });
    const drop = new Promise<never>((_, reject) => {
      dropped = reject;
    });
    const events = this.events({
      filter: { eq: ['tx_hash', tx.hash] },
      signal: abort.signal,
      onOpen: () => opened(),
      onDrop: (e) => dropped(e),
    });
    const watched = Promise.race([watchOutcome(events), drop]);
    try {
      return await waitForOutcome({
        hash: tx.hash,
        timeoutMs,
        // Connected before submitting, so the outcome cannot be missed (or the stream failed, or is slow
        // to open: then the lookups after the deadline cover it).
        submit: async () => {
          let timer: ReturnType<typeof setTimeout> | undefined;
          const slow = new Promise<void>((r) => {
            timer = setTimeout(r, Math.min(STREAM_OPEN_WAIT_MS, timeoutMs / 4));
          });
          await Promise.race([open, watched.catch(() => undefined), slow]);
          clearTimeout(timer);
          await this.submit(tx);
        },
        watched,
        sources: this.statusSources(tx),
        nodeState: async () => quorumSentence(await this.status()),
        ...(this.opts.waitBackoff ? { backoff: this.opts.waitBackoff } : {}),
      });
    } finally {
      abort.abort();
      await events.return(undefined).catch(() => undefined);
    }
  }

  /** This node and `urls`, as places to look `tx` up on and to resend its bytes to. */
  private statusSources(tx: BuiltTransaction): StatusSource[] {
    const urls = [this.opts.url, ...(this.opts.urls ?? []).filter((u) => u !== this.opts.url)];
    return urls.map((url) => {
      // No Retry-After waits inside a lookup: the lookup loop has its own backoff and deadline.
      const http = new Http({ ...this.opts, baseUrl: url, retries: 0 });
      return {
        url,
        status: (hashHex: string) => lookupStatus(http, hashHex),
        resend: async () => {
          await http.request({ method: 'POST', path: '/transaction', body: tx.bytes, contentType: CODEC });
        },
      };
    });
  }

  // ---- queries ---------------------------------------------------------------------------------

  /**
   * The creation time of the next signed query: the clock, kept strictly increasing per client. The node
   * refuses a signed query it has already answered (409 query_replayed, docs/errors.md), so two
   * identical requests (a repeated lookup, a page fetched again) sent in the same millisecond must differ.
   */
  private queryTimeMs(): number {
    this.lastQueryMs = Math.max(Date.now(), this.lastQueryMs + 1);
    return this.lastQueryMs;
  }

  /** Signs and runs a raw query request. */
  async query(request: QueryRequest): Promise<QueryResponse> {
    const { account, signer } = this.identity();
    const payload = {
      chainId: await this.chainId(),
      authority: account,
      creationTimeMs: this.queryTimeMs(),
      request,
    };
    const signature = signer.sign(hash(encode(QueryPayloadCodec, payload)));
    const body = encodeFrame(SCHEMA, SignedQueryCodec, { payload, signature });
    const res = await this.http.request({
      method: 'POST',
      path: '/query',
      body,
      contentType: 'application/x-codec',
      accept: 'application/x-codec',
    });
    const d = decodeFrame(
      this.registry,
      QueryResponseCodec,
      new Uint8Array(await res.arrayBuffer()),
      DECODE_LIMITS,
    );
    if (!d.ok) throw new ToranaTransportError(`/query: undecodable answer (${d.error.code})`);
    return d.value;
  }

  async find(query: SingularQuery): Promise<QueryOutput> {
    const r = await this.query({ kind: 'Singular', query });
    if (r.kind !== 'Singular') throw new ToranaTransportError('expected a singular answer');
    return withGatewayJson(QueryOutputCodec, r.output);
  }

  /** Iterates every item of an iterable query, following continuation cursors. */
  async *iterate(query: IterableQuery, params: Partial<QueryParams> = {}): AsyncGenerator<QueryOutput> {
    let r = await this.query({ kind: 'Start', query, params: { offset: 0, ...params } });
    for (;;) {
      if (r.kind !== 'Iterable') throw new ToranaTransportError('expected an iterable answer');
      for (const item of r.batch) yield withGatewayJson(QueryOutputCodec, item);
      if (r.cursor === undefined) return;
      r = await this.query({ kind: 'Continue', cursor: r.cursor });
    }
  }

  // ---- streams ---------------------------------------------------------------------------------

  /** Committed blocks from `from` (≥ 1), following the tip; reconnects after drops without a gap. */
  blocks(opts: { from: number; signal?: AbortSignal }): AsyncGenerator<Block> {
    const ws = this.http.url('/block/stream').replace(/^http/, 'ws');
    return blockStream(ws, this.registry, opts);
  }

  /** Events over SSE, resuming automatically after dropped connections. */
  async *events(opts: EventStreamOptions = {}): AsyncGenerator<{ id: number; event: Event }> {
    const stream = sseStream(this.http, {
      path: '/v1/events/sse',
      query: { filter: opts.filter === undefined ? undefined : JSON.stringify(opts.filter) },
      ...(opts.since === undefined ? {} : { lastEventId: eventStreamLastId(opts.since)! }),
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.onOpen ? { onOpen: opts.onOpen } : {}),
      ...(opts.onDrop ? { onDrop: opts.onDrop } : {}),
    });
    for await (const m of stream) {
      if (m.event === 'lagged' || m.event === 'gone') continue;
      yield { id: m.id, event: decodeAnswer(EventCodec, JSON.parse(m.data), 'event') };
    }
  }
}

const CODEC = 'application/x-codec';

/** Longest `submitAndWait` waits for its event stream to open before it submits anyway. */
const STREAM_OPEN_WAIT_MS = 5_000;

/** The outcome of the transaction the stream is filtered to, or undefined when the stream ends. */
async function watchOutcome(
  events: AsyncGenerator<{ id: number; event: Event }>,
): Promise<TxOutcome | undefined> {
  for await (const { event: e } of events) {
    if (e.kind !== 'Transaction') continue;
    if (e.status.kind === 'Committed') return { kind: 'committed', blockHeight: e.blockHeight ?? 0 };
    if (e.status.kind === 'Rejected')
      return { kind: 'rejected', reason: e.status.reason, blockHeight: e.blockHeight };
    if (e.status.kind === 'Expired') return { kind: 'expired' };
  }
  return undefined;
}

/** GET /v1/pipeline/transactions/status, read as a lookup answer (404: the node has not seen it). */
async function lookupStatus(http: Http, hashHex: string): Promise<LookupAnswer> {
  let json: unknown;
  try {
    json = await http.json({
      method: 'GET',
      path: '/v1/pipeline/transactions/status',
      query: { hash: hashHex },
    });
  } catch (e) {
    if (e instanceof ToranaApiError && e.status === 404) return { kind: 'unseen' };
    throw e;
  }
  const s = decodeAnswer(TransactionStatusView, json, '/v1/pipeline/transactions/status');
  switch (s.status) {
    case 'Committed':
      return { kind: 'committed', blockHeight: s.blockHeight ?? 0 };
    case 'Rejected':
      if (s.reason === undefined) throw new ToranaTransportError('a Rejected status without its reason');
      return { kind: 'rejected', reason: s.reason, blockHeight: s.blockHeight };
    case 'Expired':
      return { kind: 'expired' };
    case 'Queued':
      return { kind: 'queued' };
    default:
      return { kind: 'unseen' }; // Dropped: the node let it go; the same bytes may be sent again
  }
}

/** A method a ledger module adds to every client: `this` is the client. */
export type ClientMethod = (this: ToranaClient, ...args: never[]) => unknown;

/**
 * Adds a ledger module's methods to every ToranaClient, the way a Fastify plugin decorates its
 * instance: the module's sdk.ts declares them on the ToranaClient interface and installs them when it
 * loads (src/sdk/index.ts and src/sdk/instructions.ts load every module's). A name the client already
 * has is refused; installing the same function again is a no-op.
 */
export function installClientMethods(methods: Readonly<Record<string, ClientMethod>>): void {
  const proto = ToranaClient.prototype as unknown as Record<string, unknown>;
  for (const [name, fn] of Object.entries(methods)) {
    if (proto[name] === fn) continue;
    if (name in proto) throw new Error(`ToranaClient already has a member ${name}`);
    Object.defineProperty(proto, name, { value: fn, writable: true, configurable: true });
  }
}

/**
 * Adds a ledger module's reader objects to every ToranaClient as read-only members (e.g.
 * `client.<name>.…`), made once per client on first use. The module's sdk.ts declares them on the
 * ToranaClient interface. A name the client already has is refused; the same reader again is a no-op.
 */
export function installClientReaders(readers: Readonly<Record<string, (c: ToranaClient) => unknown>>): void {
  const proto = ToranaClient.prototype as unknown as Record<string, unknown>;
  for (const [name, make] of Object.entries(readers)) {
    const had = Object.getOwnPropertyDescriptor(proto, name);
    if ((had?.get as { make?: unknown } | undefined)?.make === make) continue;
    if (name in proto) throw new Error(`ToranaClient already has a member ${name}`);
    const get = function (this: ToranaClient) {
      const value = make(this);
      Object.defineProperty(this, name, { value, enumerable: true });
      return value;
    };
    Object.assign(get, { make });
    Object.defineProperty(proto, name, { get, configurable: true });
  }
}
