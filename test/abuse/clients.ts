// Hostile and ordinary clients for the abuse scenarios, on raw loopback sockets so that each one does
// exactly what the scenario needs (never read, trickle bytes, speak from another 127.0.0.0/8 address so
// per-IP caps see a different client), plus memory and figure helpers.

import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { WebSocket } from 'ws';
import type { Node } from '../../src/node/node.js';

export { sleep };

export async function waitFor(
  what: string,
  cond: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  everyMs = 20,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

export const portOf = (url: string) => Number(new URL(url).port);

/** The n-th loopback address of a scenario's block, e.g. `ip(3, 7)` = 127.0.3.7 (Linux routes 127/8 to lo). */
export const ip = (block: number, n: number) => `127.0.${block}.${(n % 250) + 1}`;

export interface RawClient {
  socket: Socket;
  /** Everything received (latin1), while the socket is read. */
  text(): string;
  openedAt: number;
  /** Resolves with the ms from connect to close. */
  closed: Promise<number>;
  isClosed(): boolean;
}

/** A socket from `localAddress` (default 127.0.0.1); resolves once connected (or closed at once). */
export function rawClient(port: number, localAddress = '127.0.0.1'): Promise<RawClient> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    let data = '';
    let isClosed = false;
    const openedAt = Date.now();
    socket.on('data', (d: Buffer) => {
      data += d.toString('latin1');
    });
    socket.on('error', () => {});
    const closed = new Promise<number>((r) =>
      socket.once('close', () => {
        isClosed = true;
        r(Date.now() - openedAt);
      }),
    );
    const c = { socket, text: () => data, openedAt, closed, isClosed: () => isClosed };
    socket.once('connect', () => resolve(c));
    socket.once('close', () => resolve(c));
  });
}

/** Status of the first answer in `text`, if one arrived. */
export function statusOf(text: string): number | undefined {
  const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
  return m === null ? undefined : Number(m[1]);
}

/** The JSON body of a complete non-chunked answer in `text` (error bodies are small JSON). */
export function jsonBodyOf(text: string): Record<string, unknown> | undefined {
  const at = text.indexOf('\r\n\r\n');
  if (at < 0) return undefined;
  try {
    return JSON.parse(text.slice(at + 4)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** An SSE request whose answer head has arrived (or the socket closed); the body keeps being read. */
export async function sseRequest(port: number, path: string, localAddress: string): Promise<RawClient> {
  const c = await rawClient(port, localAddress);
  c.socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n`);
  await waitFor('SSE answer head', () => c.text().includes('\r\n\r\n') || c.isClosed());
  return c;
}

/** An SSE request that stops reading once the answer's head has arrived. */
export async function neverReadingSse(port: number, path: string, localAddress: string): Promise<RawClient> {
  const c = await sseRequest(port, path, localAddress);
  c.socket.pause();
  return c;
}

/** A client-to-server WebSocket frame (RFC 6455 §5.2): FIN, text opcode, masked, short payload. */
export function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  if (payload.length > 125) throw new Error('short frames only');
  const mask = randomBytes(4);
  const out = Buffer.alloc(6 + payload.length);
  out[0] = 0x81;
  out[1] = 0x80 | payload.length;
  mask.copy(out, 2);
  for (let i = 0; i < payload.length; i++) out[6 + i] = payload[i]! ^ mask[i % 4]!;
  return out;
}

/** A raw WebSocket handshake on `path`, then `first` as a text frame if the server switched protocols. */
export async function wsRequest(
  port: number,
  path: string,
  first: string,
  localAddress: string,
): Promise<RawClient> {
  const c = await rawClient(port, localAddress);
  const key = randomBytes(16).toString('base64');
  c.socket.write(
    `GET ${path} HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  await waitFor('WebSocket handshake', () => c.text().includes('\r\n\r\n') || c.isClosed());
  if (statusOf(c.text()) === 101) c.socket.write(maskedTextFrame(first));
  return c;
}

/** A WebSocket client that subscribes with `first` and then never reads (nor answers pings). */
export async function neverReadingWs(
  port: number,
  path: string,
  first: string,
  localAddress: string,
): Promise<RawClient> {
  const c = await wsRequest(port, path, first, localAddress);
  c.socket.pause();
  return c;
}

export interface EventReader {
  ids: number[];
  /** Control events (`lagged`, `gone`) or close codes seen: a reading client must see none. */
  endings: string[];
  close(): void;
}

/** An SSE client that reads everything and records event ids in arrival order. */
export async function readingSse(
  port: number,
  path: string,
  localAddress = '127.0.0.1',
): Promise<EventReader> {
  const c = await rawClient(port, localAddress);
  const r: EventReader = { ids: [], endings: [], close: () => c.socket.destroy() };
  let pending = '';
  c.socket.on('data', (d: Buffer) => {
    pending += d.toString('utf8');
    let cut = pending.indexOf('\n\n');
    while (cut >= 0) {
      const block = pending.slice(0, cut);
      pending = pending.slice(cut + 2);
      const id = /^id: (\d+)$/m.exec(block);
      const event = /^event: (\w+)$/m.exec(block)?.[1];
      if (event === 'lagged' || event === 'gone') r.endings.push(event);
      else if (id !== null) r.ids.push(Number(id[1]));
      cut = pending.indexOf('\n\n');
    }
  });
  void c.closed.then(() => r.endings.push('closed'));
  c.socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n`);
  await waitFor('SSE stream open', () => c.text().includes('\r\n\r\n'));
  return r;
}

/** A WebSocket client (the `ws` package) on /events reading JSON text events. */
export async function readingWs(url: string, first = '{}'): Promise<EventReader> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/events`);
  const r: EventReader = { ids: [], endings: [], close: () => ws.terminate() };
  ws.on('message', (d, binary) => {
    if (!binary) r.ids.push((JSON.parse(d.toString()) as { id: number }).id);
  });
  ws.on('close', (code) => r.endings.push(`close ${code}`));
  ws.on('error', () => {});
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  ws.send(first);
  return r;
}

/** Ids from..to inclusive. */
export const range = (from: number, to: number) =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/** The first place where `ids` is not exactly `expected`, or undefined when it is. */
export function gapOrDisorder(ids: readonly number[], expected: readonly number[]): string | undefined {
  if (ids.length !== expected.length) return `${ids.length} events, expected ${expected.length}`;
  for (let i = 0; i < ids.length; i++)
    if (ids[i] !== expected[i]) return `at ${i}: id ${ids[i]}, expected ${expected[i]}`;
  return undefined;
}

/**
 * Records the ids the node publishes from now on (its history may be shorter than a scenario). Ids are
 * stable across restarts but not contiguous (src/pipeline/event-id.ts), so "every event" is this list.
 */
export function publishedIds(node: Node): { between(since: number, last: number): number[]; stop(): void } {
  const ids: number[] = [];
  const stop = node.pipeline.events.subscribe((e) => ids.push(e.id));
  return { between: (since, last) => ids.filter((id) => id > since && id <= last), stop };
}

setFlagsFromString('--expose-gc');
const forceGc = runInNewContext('gc') as () => void;

/** Memory after a full collection (bytes). */
export function memoryAfterGc(): { rss: number; heapUsed: number; external: number } {
  forceGc();
  forceGc();
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external + m.arrayBuffers };
}

/** Samples RSS every 50 ms until stopped; the highest value seen. */
export function rssPeak(): { stop(): number } {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 50);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage.rss());
    },
  };
}

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** One figure line per test ("each test prints its figure"). */
export function figure(name: string, fields: Record<string, unknown>): void {
  const text = Object.entries(fields)
    .map(([k, v]) => `${k} ${typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(1) : String(v)}`)
    .join(', ');
  console.log(`[figure] ${name}: ${text}`);
}
