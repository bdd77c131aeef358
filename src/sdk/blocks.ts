// The committed-block stream over WebSocket (`GET /block/stream`): binary frames holding framed codec
// Blocks, from a start height, following the tip. Reconnects after a dropped connection from the next
// height, so no block is skipped. Uses the platform WebSocket (browsers) or the `ws` package (Node 20).

import { decodeFrame } from '../codec/frame.js';
import type { SchemaRegistry } from '../codec/registry.js';
import { type Block, BlockCodec } from '../model/block.js';
import { exponentialDelayMs } from '../util/backoff.js';
import { withGatewayJson } from './answers.js';
import { ToranaTransportError } from './errors.js';

export interface BlockStreamOptions {
  from: number;
  signal?: AbortSignal;
  /** Decoded blocks held while the consumer is busy; past it the stream fails rather than grow. */
  bufferMax?: number;
  reconnectAttemptsMax?: number;
}

interface MinimalSocket {
  binaryType: string;
  onopen: (() => void) | null;
  onmessage: ((e: { data: unknown }) => void) | null;
  onclose: ((e: { code: number; reason: string }) => void) | null;
  onerror: (() => void) | null;
  send(data: Uint8Array): void;
  close(code?: number): void;
}

type SocketCtor = new (url: string) => MinimalSocket;

async function socketClass(): Promise<SocketCtor> {
  const native = (globalThis as { WebSocket?: SocketCtor }).WebSocket;
  if (native !== undefined) return native;
  const name = 'ws'; // a variable specifier keeps browser bundlers from pulling the Node package in
  return ((await import(name)) as { WebSocket: SocketCtor }).WebSocket;
}

function startFrame(height: number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(height), true);
  return b;
}

const LIMITS = { bytesMax: 256 * 1024 * 1024, itemsMax: 10_000_000, depthMax: 64 };

export async function* blockStream(
  wsUrl: string,
  registry: SchemaRegistry,
  opts: BlockStreamOptions,
): AsyncGenerator<Block> {
  const Ctor = await socketClass();
  let next = opts.from;
  let failures = 0;
  while (!opts.signal?.aborted) {
    const queue: Block[] = [];
    let wake: (() => void) | undefined;
    let ended: { error?: Error } | undefined;
    const socket = new Ctor(wsUrl);
    socket.binaryType = 'arraybuffer';
    const notify = () => {
      wake?.();
      wake = undefined;
    };
    socket.onopen = () => socket.send(startFrame(next));
    socket.onmessage = (e) => {
      const d = decodeFrame(registry, BlockCodec, new Uint8Array(e.data as ArrayBuffer), LIMITS);
      if (!d.ok) ended = { error: new ToranaTransportError(`undecodable block frame: ${d.error.code}`) };
      else if (queue.length >= (opts.bufferMax ?? 1024))
        ended = { error: new ToranaTransportError('block consumer too slow: buffer full') };
      else queue.push(withGatewayJson(BlockCodec, d.value));
      if (ended) socket.close(1000);
      notify();
    };
    socket.onclose = (e) => {
      ended ??=
        e.code === 1008 ? { error: new ToranaTransportError(`block stream refused: ${e.reason}`) } : {};
      notify();
    };
    socket.onerror = () => undefined; // followed by close
    const abort = () => socket.close(1000);
    opts.signal?.addEventListener('abort', abort);
    try {
      for (;;) {
        const block = queue.shift();
        if (block !== undefined) {
          failures = 0;
          next = block.header.height + 1;
          yield block;
          continue;
        }
        if (ended !== undefined) break;
        await new Promise<void>((r) => {
          wake = r;
        });
      }
    } finally {
      opts.signal?.removeEventListener('abort', abort);
      socket.close(1000);
    }
    if (ended.error !== undefined) throw ended.error;
    if (opts.signal?.aborted || ++failures > (opts.reconnectAttemptsMax ?? 10)) return;
    await new Promise((r) => setTimeout(r, exponentialDelayMs(250, 10_000, failures)));
  }
}
