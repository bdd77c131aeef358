// Test clients of the stream routes: an EventSource (the `eventsource` package, as a browser would
// behave) whose connection the test can drop, a WebSocket client recording what it receives, and a raw
// HTTP client that never reads.

import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { EventSource, type FetchLike } from 'eventsource';
import { WebSocket } from 'ws';
import type { Node } from '../../src/node/node.js';
import type { ServedTestNode } from '../helpers/served.js';
import { buildTx, frameTx } from '../helpers/tx.js';

export const EVENT_NAMES = ['transaction', 'block', 'data'] as const;

export async function waitFor(what: string, cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

export const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * The ids the node published after `after`, up to `upTo`, from its event history. Event ids are stable
 * across restarts but not contiguous (src/pipeline/event-id.ts), so "every event" is this list.
 */
export function idsBetween(node: Node, after: number, upTo: number): number[] {
  const held = node.pipeline.events.since(after);
  if (held === 'gone') throw new Error(`the node no longer holds the events after ${after}`);
  return held.map((e) => e.id).filter((id) => id <= upTo);
}

export interface SseMessage {
  id: number;
  name: string;
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON of an event, checked field by field.
  data: any;
}

export interface SseClient {
  es: EventSource;
  messages: SseMessage[];
  /** The request headers of every connection attempt (the reconnection carries Last-Event-ID). */
  requests: Record<string, string>[];
  /** Ends the current response body as a dropped connection would; EventSource then reconnects. */
  drop(): void;
  close(): void;
}

/** An EventSource on `path`, connected (the `open` event seen) when the promise resolves. */
export async function openSse(base: string, path: string): Promise<SseClient> {
  const requests: Record<string, string>[] = [];
  let drop = () => {};
  const droppable: FetchLike = async (url, init) => {
    requests.push({ ...(init.headers as Record<string, string>) });
    const res = await fetch(url, init as RequestInit);
    const reader = res.body!.getReader();
    let dropped = false;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        drop = () => {
          dropped = true;
          reader.cancel().catch(() => {});
          c.close();
        };
      },
      async pull(c) {
        const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
        if (dropped) return;
        if (chunk.done) c.close();
        else c.enqueue(chunk.value);
      },
      cancel: () => reader.cancel().catch(() => {}),
    });
    return new Response(body, { status: res.status, headers: res.headers });
  };
  const es = new EventSource(`${base}${path}`, { fetch: droppable });
  const messages: SseMessage[] = [];
  for (const name of EVENT_NAMES) {
    es.addEventListener(name, (e) =>
      messages.push({ id: Number(e.lastEventId), name, data: JSON.parse(e.data) }),
    );
  }
  await new Promise((resolve) => es.addEventListener('open', resolve, { once: true }));
  return { es, messages, requests, drop: () => drop(), close: () => es.close() };
}

export interface WsClient {
  ws: WebSocket;
  text: string[];
  binary: Buffer[];
  closed: Promise<{ code: number; reason: string }>;
}

/** A WebSocket on `path` that has sent `first` once open. */
export async function openWs(base: string, path: string, first: string | Uint8Array): Promise<WsClient> {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}${path}`);
  const c: WsClient = {
    ws,
    text: [],
    binary: [],
    closed: new Promise((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    ),
  };
  ws.on('error', () => {});
  ws.on('message', (d, isBinary) => {
    if (isBinary) c.binary.push(Buffer.from(d as Buffer));
    else c.text.push(d.toString());
  });
  await once(ws, 'open');
  ws.send(first);
  return c;
}

/** An SSE request on a raw socket that stops reading once the response has started. */
export async function neverReadingSse(
  base: string,
  path: string,
): Promise<{ socket: Socket; text: () => string }> {
  const url = new URL(base);
  const socket = connect(Number(url.port), url.hostname);
  socket.on('error', () => {});
  let text = '';
  socket.on('data', (d) => {
    text += d.toString('latin1');
  });
  socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n`);
  await waitFor('SSE response headers', () => text.includes('\r\n\r\n'));
  socket.pause();
  return { socket, text: () => text };
}

/** Submits over HTTP; resolves with the transaction hash from the 202 answer. */
export async function submitHttp(t: ServedTestNode, message: string): Promise<string> {
  const tx = buildTx(t.admin, [{ kind: 'Log', level: { kind: 'Info' }, message }], { chainId: t.chainId });
  const res = await fetch(`${t.url}/transaction`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-codec' },
    body: frameTx(tx),
  });
  const body = (await res.json()) as { tx_hash: string };
  if (res.status !== 202) throw new Error(`submission answered ${res.status}: ${JSON.stringify(body)}`);
  return body.tx_hash;
}

export async function streamCloses(t: ServedTestNode, stream: string, reason: string): Promise<number> {
  const metric = t.served.app.gateway.metrics.registry.getSingleMetric('gateway_stream_closes_total');
  if (metric === undefined) throw new Error('gateway_stream_closes_total is not registered');
  const values = (await metric.get()).values;
  return values.find((v) => v.labels.stream === stream && v.labels.reason === reason)?.value ?? 0;
}
