// Abuse scenarios on request size (docs/design/testing.md):
// oversized bodies declared by Content-Length
// and streamed chunked without one, a compressed body that would inflate enormously, and header floods,
// while an ordinary client keeps being served.

import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { startServedNode } from '../helpers/served.js';
import { timingBound } from '../helpers/timing-bound.js';
import {
  figure,
  ip,
  jsonBodyOf,
  memoryAfterGc,
  mib,
  portOf,
  rawClient,
  rssPeak,
  statusOf,
  waitFor,
} from './clients.js';

/** What one oversized upload wrote before the answer came. */
interface Upload {
  status: number | undefined;
  code: unknown;
  sentBytes: number;
  ms: number;
}

const SLICE_BYTES = 16 * 1024;
/** Loopback send + receive buffers the client can fill before the server reads: tolerated over the limit. */
export const KERNEL_SLACK_BYTES = 8 * 1024 * 1024;
const ANSWER_WAIT_MS = 10_000;
/** Tolerated reading past a body limit: node reads sockets in pieces of up to 64 KiB. */
const NODE_READ_SLACK_BYTES = 1024 * 1024;

/**
 * Sends a body far above the route's limit: `declared` > 0 announces it in Content-Length and sends only
 * `sendMax` bytes of it; `declared` = 0 streams it chunked until the answer arrives or `sendMax` is sent.
 */
export async function oversizedUpload(
  port: number,
  path: string,
  contentType: string,
  declared: number,
  sendMax: number,
  localAddress: string,
): Promise<Upload> {
  const c = await rawClient(port, localAddress);
  const started = Date.now();
  const framing = declared > 0 ? `Content-Length: ${declared}` : 'Transfer-Encoding: chunked';
  c.socket.write(
    `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${contentType}\r\n${framing}\r\n\r\n`,
  );
  const slice = Buffer.alloc(SLICE_BYTES, 0x61);
  const chunk = Buffer.concat([Buffer.from(`${SLICE_BYTES.toString(16)}\r\n`), slice, Buffer.from('\r\n')]);
  let sent = 0;
  const answered = () => c.text().includes('\r\n\r\n') || c.isClosed();
  while (sent < sendMax && !answered()) {
    const ok = c.socket.write(declared > 0 ? slice : chunk);
    sent += SLICE_BYTES;
    if (!ok)
      await Promise.race([
        new Promise((r) => c.socket.once('drain', r)),
        c.closed,
        waitFor('answer', answered, ANSWER_WAIT_MS).catch(() => {}),
      ]);
  }
  await waitFor(`an answer to ${path}`, answered, ANSWER_WAIT_MS).catch(() => {});
  const text = c.text();
  c.socket.destroy();
  return { status: statusOf(text), code: jsonBodyOf(text)?.code, sentBytes: sent, ms: Date.now() - started };
}

export interface BodySize {
  /** Concurrent oversized uploads in the memory part. */
  concurrent: number;
  /** Bytes a chunked upload may go on writing if the server never answers. */
  chunkedSendMax: number;
  /** Uncompressed size of the gzip body. */
  gzipInflatedBytes: number;
}

const ROUTES: readonly [string, string, string][] = [
  ['/transaction', 'application/x-codec', 'gateway.transaction_body_bytes_max'],
  ['/query', 'application/x-codec', 'gateway.query_body_bytes_max'],
  ['/v1/domains/query', 'application/json', 'gateway.list_query_body_bytes_max'],
];
const LIMIT_BYTES = 64 * 1024;

/** Each body route once declared (1 GiB Content-Length) and once chunked: 413 body_too_large both times. */
async function eachRoute(port: number, size: BodySize): Promise<string[]> {
  const rows: string[] = [];
  for (const [i, [path, type]] of ROUTES.entries()) {
    const declared = await oversizedUpload(port, path, type, 1024 ** 3, 256 * 1024, ip(10, i));
    assert.equal(declared.status, 413, `${path} with Content-Length: ${declared.status}`);
    assert.equal(declared.code, 'body_too_large');
    const chunked = await oversizedUpload(port, path, type, 0, size.chunkedSendMax, ip(11, i));
    assert.equal(chunked.status, 413, `${path} chunked: ${chunked.status} after ${chunked.sentBytes} bytes`);
    assert.equal(chunked.code, 'body_too_large');
    rows.push(
      `${path} declared 1 GiB: 413 in ${declared.ms} ms; chunked: 413 in ${chunked.ms} ms (client wrote ${mib(chunked.sentBytes)} into socket buffers)`,
    );
  }
  return rows;
}

/** 413 body_too_large on every body route, declared or chunked, before the body is read; memory bounded. */
export async function oversizedBodies(size: BodySize): Promise<void> {
  const t = await startServedNode(Object.fromEntries(ROUTES.map(([, , key]) => [key, LIMIT_BYTES])));
  const port = portOf(t.url);
  // Bytes the node itself read from each upload's socket: the figure that shows it stopped reading.
  const nodeRead: number[] = [];
  t.served.app.server.on('connection', (s: Socket) => s.once('close', () => nodeRead.push(s.bytesRead)));
  try {
    const rows = await eachRoute(port, size);
    const before = memoryAfterGc();
    const sampler = rssPeak();
    const uploads = await Promise.all(
      Array.from({ length: size.concurrent }, (_, i) => {
        const [path, type] = ROUTES[i % ROUTES.length]!;
        return oversizedUpload(port, path, type, 0, size.chunkedSendMax, ip(12, i));
      }),
    );
    const peak = sampler.stop();
    const refused = uploads.filter((u) => u.status === 413).length;
    const after = memoryAfterGc();
    const health = await fetch(`${t.url}/health`);
    await waitFor(
      'the node to close every upload',
      () => nodeRead.length >= 2 * ROUTES.length + size.concurrent,
    );
    const readMax = Math.max(...nodeRead);
    figure('oversized bodies', {
      routes: rows.join('; '),
      'most bytes the node read from one upload': mib(readMax),
      concurrent: `${refused}/${size.concurrent} answered 413`,
      'bytes sent by all': mib(uploads.reduce((s, u) => s + u.sentBytes, 0)),
      'RSS peak delta': mib(peak - before.rss),
      'RSS delta after GC': mib(after.rss - before.rss),
      lost: 0,
    });
    assert.equal(refused, size.concurrent);
    assert.equal(health.status, 200);
    // Node reads in socket-sized pieces: the limit plus one read buffer at most, not the whole body.
    assert.ok(readMax <= LIMIT_BYTES + NODE_READ_SLACK_BYTES, `the node read ${mib(readMax)} of one upload`);
    // Each refused upload may hold at most its limit plus socket buffers in the node.
    const bound = size.concurrent * (LIMIT_BYTES + 1024 * 1024) + 128 * 1024 * 1024;
    assert.ok(peak - before.rss < bound, `RSS grew ${mib(peak - before.rss)}`);
  } finally {
    await t.stopAll();
  }
}

/** A gzip body is never inflated (the gateway takes no content coding): refused at once, memory flat. */
export async function gzipBomb(size: BodySize): Promise<void> {
  const t = await startServedNode({});
  try {
    const bomb = gzipSync(Buffer.alloc(size.gzipInflatedBytes), { level: 9 });
    const before = memoryAfterGc();
    const started = Date.now();
    const res = await fetch(`${t.url}/v1/domains/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: bomb,
    });
    const body = (await res.json()) as { code: string };
    const ms = Date.now() - started;
    const grown = process.memoryUsage.rss() - before.rss;
    figure('gzip bomb', {
      compressed: mib(bomb.length),
      inflated: mib(size.gzipInflatedBytes),
      status: res.status,
      code: body.code,
      ms,
      'RSS delta': mib(grown),
    });
    assert.ok(res.status >= 400 && res.status < 500, `status ${res.status}`);
    assert.ok(grown < size.gzipInflatedBytes / 2, `RSS grew ${mib(grown)}`);
  } finally {
    await t.stopAll();
  }
}

export interface HeaderSize {
  floods: number;
}

/** One huge header, many small ones, and `floods` concurrent floods: 431 each; others served meanwhile. */
export async function headerFloods(size: HeaderSize): Promise<void> {
  const t = await startServedNode({ 'gateway.header_bytes_max': 16 * 1024 });
  const port = portOf(t.url);
  const huge = `X-Flood: ${'a'.repeat(20_000)}\r\n`;
  const many = Array.from({ length: 1_000 }, (_, i) => `X-H${i}: ${'v'.repeat(20)}\r\n`).join('');
  try {
    const flood = async (i: number) => {
      const c = await rawClient(port, ip(13, i));
      c.socket.write(`GET /health HTTP/1.1\r\nHost: localhost\r\n${i % 2 === 0 ? huge : many}\r\n`);
      await waitFor('431', () => c.text().includes('\r\n\r\n') || c.isClosed(), 10_000);
      const text = c.text();
      c.socket.destroy();
      return { status: statusOf(text), code: jsonBodyOf(text)?.code };
    };
    const normal: number[] = [];
    const floods = Promise.all(Array.from({ length: size.floods }, (_, i) => flood(i)));
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      normal.push(
        (await fetch(`${t.url}/health`)).status === 200
          ? performance.now() - started
          : Number.POSITIVE_INFINITY,
      );
    }
    const answers = await floods;
    const refused = answers.filter((a) => a.status === 431 && a.code === 'headers_too_large').length;
    figure('header floods', {
      floods: size.floods,
      'answered 431 headers_too_large': refused,
      'normal /health max ms': Math.max(...normal),
    });
    assert.equal(refused, size.floods, JSON.stringify(answers.filter((a) => a.status !== 431).slice(0, 3)));
    assert.ok(
      normal.every((ms) => Number.isFinite(ms)),
      'ordinary requests were served meanwhile',
    );
    // How fast they were served is a figure, asserted only in the reliability suite.
    timingBound({
      what: 'ordinary /health at worst during header floods',
      value: Math.max(...normal),
      max: 2_000,
    });
  } finally {
    await t.stopAll();
  }
}
