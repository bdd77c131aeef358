// Test helper: a raw SSE reader over fetch that keeps every message with its textual `id:` (the
// explorer's ids are `height:tx_index…`, not integers) and can be cut off like a dropped connection.

import { setTimeout as sleep } from 'node:timers/promises';

export interface RawMessage {
  id: string;
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON, checked field by field.
  data: any;
}

export interface RawStream {
  status: number;
  /** The JSON error body of a refused stream. */
  // biome-ignore lint/suspicious/noExplicitAny: checked field by field.
  error?: any;
  messages: RawMessage[];
  /** Waits until at least `n` messages arrived. */
  until(n: number, timeoutMs?: number): Promise<RawMessage[]>;
  close(): void;
}

function parseFrame(frame: string): RawMessage | undefined {
  let id = '';
  let event = 'message';
  const data: string[] = [];
  for (const line of frame.split('\n')) {
    if (line.startsWith('id: ')) id = line.slice(4);
    else if (line.startsWith('event: ')) event = line.slice(7);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
  }
  return data.length === 0 ? undefined : { id, event, data: JSON.parse(data.join('\n')) };
}

export async function openRaw(url: string, headers: Record<string, string> = {}): Promise<RawStream> {
  const ctl = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: ctl.signal });
  const messages: RawMessage[] = [];
  if (res.status === 200 && res.body !== null) {
    const reader = res.body.getReader();
    const dec = new TextDecoder();
    let buf = '';
    (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buf += dec.decode(value, { stream: true });
        let end = buf.indexOf('\n\n');
        while (end >= 0) {
          const m = parseFrame(buf.slice(0, end));
          if (m !== undefined) messages.push(m);
          buf = buf.slice(end + 2);
          end = buf.indexOf('\n\n');
        }
      }
    })().catch(() => {});
  }
  const error = res.status === 200 ? undefined : await res.json();
  return {
    status: res.status,
    error,
    messages,
    async until(n, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < n) {
        if (Date.now() > deadline) throw new Error(`${messages.length} of ${n} messages from ${url}`);
        await sleep(10);
      }
      return messages;
    },
    close: () => ctl.abort(),
  };
}
