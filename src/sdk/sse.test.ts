// SSE parsing (WHATWG HTML §9.2.6) through sseStream, with the chunk boundaries a network makes: a
// CRLF split between two chunks must not end the event early (the hand-written parser replaced by
// eventsource-parser turned the lone CR into a line end and then saw an empty line: event 1 lost its
// data).
// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Http } from './http.js';
import { type SseMessage, sseStream } from './sse.js';

function streamOf(chunks: string[]): typeof fetch {
  return (async () => {
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const chunk of chunks) c.enqueue(new TextEncoder().encode(chunk));
        c.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  }) as typeof fetch;
}

async function collect(chunks: string[], count: number): Promise<SseMessage[]> {
  const abort = new AbortController();
  const out: SseMessage[] = [];
  const http = new Http({ baseUrl: 'http://127.0.0.1:1', fetch: streamOf(chunks) });
  for await (const m of sseStream(http, { path: '/v1/events', signal: abort.signal, reconnectDelayMs: 1 })) {
    out.push(m);
    if (out.length === count) abort.abort();
  }
  return out;
}

describe('sseStream parsing', () => {
  it('reads CRLF events whose CR and LF arrive in different chunks', async () => {
    const got = await collect(
      ['id: 1\r', '\nevent: tx\r\ndata: {"a":1}\r', '\n\r', '\nid: 2\r\ndata: b\r\n\r\n'],
      2,
    );
    assert.deepEqual(got, [
      { id: 1, event: 'tx', data: '{"a":1}' },
      { id: 2, event: 'message', data: 'b' },
    ]);
  });

  it('reads LF and CR line ends, multi-line data and comments', async () => {
    const got = await collect(
      [': hello\n\nid: 7\ndata: x\ndata: y\n\n', 'id: 8\rdata: z\r\r: keep-alive\n'],
      2,
    );
    assert.deepEqual(got, [
      { id: 7, event: 'message', data: 'x\ny' },
      { id: 8, event: 'message', data: 'z' },
    ]);
  });
});
