// The events one stream subscriber is sent at once, and their wire forms built once for every subscriber
// that receives the same batch (subscribers with the same filter, event-hub.ts): the SSE frames as
// UTF-8 bytes, the same as one chunk of HTTP/1.1 chunked transfer coding (RFC 9112 §7.1, what a
// streamed response without a length is sent as), and, for events of the hub, the WebSocket frames
// (ws-frame.ts). A subscriber writes the shared bytes to its socket with one write; nothing is copied
// per subscriber.

import { assert } from '../util/assert.js';
import { formatEvent, type StreamEvent } from './sse-frame.js';

const CRLF = Buffer.from('\r\n');

export class EventBatch<E extends StreamEvent = StreamEvent> {
  private sse: Buffer | undefined;
  private chunk: Buffer | undefined;

  constructor(readonly events: readonly E[]) {}

  /** The events' SSE frames, concatenated, as UTF-8. */
  sseBytes(): Buffer {
    this.sse ??= Buffer.from(this.events.map(formatEvent).join(''), 'utf8');
    return this.sse;
  }

  /** `sseBytes()` as one chunk of chunked transfer coding: size in hex, CRLF, data, CRLF. */
  sseChunk(): Buffer {
    this.chunk ??= httpChunk(this.sseBytes());
    return this.chunk;
  }
}

/** `data` as one chunk of chunked transfer coding. Never empty: an empty chunk ends the body. */
export function httpChunk(data: Buffer): Buffer {
  assert(data.length > 0, 'an empty chunk would end the response');
  return Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`, 'latin1'), data, CRLF]);
}
