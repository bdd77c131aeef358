// Committed events to NATS JetStream (docs/export.md). The exporter follows the node's SSE event stream
// (GET /v1/events/sse: durable ids, Last-Event-ID resumption) and publishes each committed event to its
// subject (subjects.ts) with `Nats-Msg-Id` = the event id, in id order:
// - only committed data: pending notifications (Queued, Expired) are filtered out by the node and, by
//   their id (pipeline/event-id.ts), again here, so nothing of a block that is not committed is sent;
// - resume: after a restart, from the id of the stream's last message of this chain (its body's `id`),
//   read back from JetStream (no local file that could disagree with what was stored);
// - no gap, no duplicate: each message also carries `Nats-Expected-Last-Msg-Id` = the previous event's
//   id. JetStream first drops a message whose id it already holds within the duplicate window (a
//   second exporter, a retried publish), then refuses one whose predecessor is not the stream's last
//   message (a lost publish, another exporter ahead): the exporter then waits for what it sent and
//   resumes from the stream's last message again;
// - bounded in flight (window.ts): at most `inFlightMax` unacknowledged publishes.

import { connect, type JetStreamClient, type JetStreamManager, type NatsConnection } from 'nats';
import { type EventFields, projectEvent } from '../gateway/event-filter.js';
import { EventCodec } from '../model/events.js';
import { eventIdPlace } from '../pipeline/event-id.js';
import { decodeAnswer } from '../sdk/answers.js';
import { Http } from '../sdk/http.js';
import { sseStream } from '../sdk/sse.js';
import { chainRoot, eventSubject } from './subjects.js';
import { PublishWindow } from './window.js';

/** The node-side filter: every event but the pending notifications (stream-filter syntax). */
export const COMMITTED_ONLY_FILTER = JSON.stringify({ nin: ['tx_status', ['Queued', 'Expired']] });

/** JetStream's API error code for a refused `Nats-Expected-Last-Msg-Id`. */
const WRONG_LAST_MSG_ID = 10070;

export interface ExportOptions {
  natsUrl: string;
  gatewayUrl: string;
  stream: string;
  subjectPrefix: string;
  /** Unacknowledged publishes at most. */
  inFlightMax: number;
  /** The stream's duplicate window. */
  duplicateWindowMs: number;
  /** Where to start when the stream holds no event of this chain: after this id, or live ('now'). */
  since: number | 'now';
  signal: AbortSignal;
  /** One progress line (stderr). */
  log: (line: string) => void;
  /** Progress lines at most this often while events flow. */
  progressEveryMs: number;
}

export interface ExportSummary {
  published: number;
  duplicates: number;
  lastId: number | undefined;
  resyncs: number;
}

/** An error the operator must act on (the CLI prints it and exits non-zero). */
export class ExportError extends Error {
  override readonly name = 'ExportError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface Target {
  jsm: JetStreamManager;
  js: JetStreamClient;
  stream: string;
  root: string;
}

/** Creates the stream holding `<root>.>`, or updates its duplicate window; refuses a stream of others. */
async function ensureStream(t: Target, duplicateWindowMs: number, log: (l: string) => void): Promise<void> {
  const subjects = [`${t.root}.>`];
  const duplicate_window = duplicateWindowMs * 1_000_000; // nanoseconds
  const info = await t.jsm.streams.info(t.stream).catch((e: unknown) => {
    if ((e as { api_error?: { err_code?: number } }).api_error?.err_code === 10059) return undefined;
    throw e;
  });
  if (info === undefined) {
    await t.jsm.streams.add({ name: t.stream, subjects, duplicate_window });
    log(`export: created stream ${t.stream} for ${subjects[0]}`);
    return;
  }
  const held = info.config.subjects ?? [];
  if (held.length !== 1 || held[0] !== subjects[0])
    throw new ExportError(
      'stream_subjects',
      `stream ${t.stream} holds ${JSON.stringify(held)}, not only ${subjects[0]}: give each chain its own stream (--stream)`,
    );
  if (info.config.duplicate_window !== duplicate_window) {
    await t.jsm.streams.update(t.stream, { ...info.config, duplicate_window });
    log(`export: stream ${t.stream} duplicate window set to ${duplicateWindowMs} ms`);
  }
}

/** The event id of the stream's last message of this chain (its body's `id`), if it holds one. */
export async function lastPublishedId(t: Target): Promise<number | undefined> {
  const msg = await t.jsm.streams
    .getMessage(t.stream, { last_by_subj: `${t.root}.>` })
    .catch((e: unknown) => {
      if ((e as { api_error?: { err_code?: number } }).api_error?.err_code === 10037) return undefined;
      throw e;
    });
  if (msg === undefined) return undefined;
  let id: unknown;
  try {
    id = (msg.json() as { id?: unknown }).id;
  } catch {
    // not JSON: refused below
  }
  if (!Number.isSafeInteger(id) || (id as number) < 0)
    throw new ExportError(
      'stream_foreign_message',
      `the last message of ${t.stream} (sequence ${msg.seq}) carries no event id: it was not published by the exporter`,
    );
  return id as number;
}

function isWrongLast(e: unknown): boolean {
  return (e as { api_error?: { err_code?: number } }).api_error?.err_code === WRONG_LAST_MSG_ID;
}

const encoder = new TextEncoder();

class Progress {
  published = 0;
  duplicates = 0;
  lastId: number | undefined;
  lastHeight: number | undefined;
  private shownAt = 0;
  private shown = -1;

  constructor(private readonly o: ExportOptions) {}

  maybeShow(force = false): void {
    const now = Date.now();
    if (this.published + this.duplicates === this.shown) return;
    if (!force && now - this.shownAt < this.o.progressEveryMs) return;
    this.shownAt = now;
    this.shown = this.published + this.duplicates;
    this.o.log(
      `export: ${this.published} published, ${this.duplicates} already held, up to event ${this.lastId ?? '-'} (height ${this.lastHeight ?? '-'})`,
    );
  }
}

/**
 * Follows the node's events after `start` and publishes them until the signal aborts. Resolves false
 * when JetStream refused an expectation (the caller resumes from the stream's last message).
 */
async function follow(
  t: Target,
  http: Http,
  o: ExportOptions,
  start: { after: number | undefined; expected: number | undefined },
  progress: Progress,
): Promise<boolean> {
  const reading = new AbortController();
  const stop = () => reading.abort();
  o.signal.addEventListener('abort', stop, { once: true });
  const window = new PublishWindow<{ duplicate: boolean; id: number; fields: EventFields }>(
    o.inFlightMax,
    (ack) => {
      if (ack.duplicate) progress.duplicates++;
      else progress.published++;
      progress.lastId = ack.id;
      if (ack.fields.block_height !== undefined) progress.lastHeight = ack.fields.block_height;
      progress.maybeShow();
    },
  );
  let expected = start.expected;
  try {
    const events = sseStream(http, {
      path: '/v1/events/sse',
      query: { filter: COMMITTED_ONLY_FILTER },
      ...(start.after === undefined ? {} : { lastEventId: start.after }),
      reconnectAttemptsMax: Number.POSITIVE_INFINITY,
      signal: reading.signal,
      onOpen: () => o.log(`export: following ${o.gatewayUrl} after event ${start.after ?? '(live)'}`),
      onDrop: (e) => o.log(`export: event stream dropped (${(e as Error)?.message ?? e}); reconnecting`),
    });
    for await (const m of events) {
      if (eventIdPlace(m.id).pending) continue; // never part of a committed block
      const fields = projectEvent(decodeAnswer(EventCodec, JSON.parse(m.data), 'event'));
      const subject = eventSubject(t.root, fields);
      const id = m.id;
      const expect = expected === undefined ? {} : { expect: { lastMsgID: String(expected) } };
      await window.admit(async () => {
        // The body: `{"id": <event id>, "event": <the SSE data, as sent>}`, the WebSocket stream's form.
        const body = encoder.encode(`{"id":${id},"event":${m.data}}`);
        const ack = await t.js.publish(subject, body, { msgID: String(id), ...expect });
        return { duplicate: ack.duplicate, id, fields };
      });
      expected = id;
      if (o.signal.aborted) break;
    }
    await window.settle();
    return true;
  } catch (e) {
    reading.abort();
    await window.settle().catch(() => {});
    if (isWrongLast(e)) return false;
    if ((e as { code?: string }).code === 'events_gone')
      throw new ExportError(
        'events_gone',
        `the node no longer holds the events after ${start.after}: its history was pruned past them or it restarted since (start the stream afresh, or use --since)`,
      );
    throw e;
  } finally {
    o.signal.removeEventListener('abort', stop);
  }
}

/** Runs the exporter until `o.signal` aborts; throws on an error it cannot resolve by resuming. */
export async function runExport(o: ExportOptions): Promise<ExportSummary> {
  const http = new Http({ baseUrl: o.gatewayUrl });
  const caps = await http.json<{ chain_id?: unknown }>({ method: 'GET', path: '/v1/node/capabilities' });
  if (typeof caps.chain_id !== 'string')
    throw new ExportError('no_chain_id', 'the node did not tell its chain id');
  const nc: NatsConnection = await connect({
    servers: o.natsUrl,
    name: 'torana-export',
    maxReconnectAttempts: -1,
  });
  const progress = new Progress(o);
  let resyncs = 0;
  try {
    const t: Target = {
      jsm: await nc.jetstreamManager(),
      js: nc.jetstream(),
      stream: o.stream,
      root: chainRoot(o.subjectPrefix, caps.chain_id),
    };
    await ensureStream(t, o.duplicateWindowMs, o.log);
    while (!o.signal.aborted) {
      const last = await lastPublishedId(t);
      const after = last ?? (o.since === 'now' ? undefined : o.since);
      o.log(
        last === undefined
          ? `export: stream ${t.stream} holds no event of ${caps.chain_id}; starting after ${after ?? '(live)'}`
          : `export: stream ${t.stream} holds events up to ${last}; resuming after it`,
      );
      if (await follow(t, http, o, { after, expected: last }, progress)) break;
      resyncs++;
      o.log(
        'export: the stream moved on (another exporter, or a lost publish): resuming from its last message',
      );
    }
  } finally {
    progress.maybeShow(true);
    await nc.drain().catch(() => nc.close());
  }
  return { published: progress.published, duplicates: progress.duplicates, lastId: progress.lastId, resyncs };
}
