// GET /block/stream over WebSocket (the client sends a start height ≥ 1, the server sends every block from there on and keeps following the tip).
//
// First message: a text frame `{"from": n}`, or a binary frame of exactly 8 bytes holding n as an
// unsigned little-endian 64-bit integer (the codec's u64). Binary request → binary frames, each a framed
// codec `Block`; text request → text frames, each `BlockCodec.toJson` of one block. Anything else, or
// n < 1: close 1008 with the reason.
// Backpressure: a block is read from the chain only when the connection has room to send it, one read
// at a time, so a client far behind (or not reading at all) holds at most the send bounds in memory.
// The stream follows the tip by re-reading the chain height whenever the bus announces an Applied block;
// blocks are always read by height, so a missed wake-up cannot lose a block.

import { encodeFrame } from '../codec/frame.js';
import type { SchemaRegistry } from '../codec/registry.js';
import { type Block, BlockCodec } from '../model/block.js';
import type { ChainReader, EventsPort } from './ports.js';
import { WS_CLOSE, type WsContext } from './ws.js';

export const BLOCK_REQUEST_BINARY_BYTES = 8;
/** Encodings of the most recent blocks, shared by clients following the tip together. */
export const BLOCK_CACHE_MAX = 16;

export interface BlockRequest {
  from: number;
  binary: boolean;
}

/** The start height in a first message, or why it is refused (the close reason). */
export function parseBlockRequest(
  first: Buffer,
  binary: boolean,
): { ok: true; request: BlockRequest } | { ok: false; reason: string } {
  let from: unknown;
  if (binary) {
    if (first.length !== BLOCK_REQUEST_BINARY_BYTES)
      return {
        ok: false,
        reason: `binary start height must be ${BLOCK_REQUEST_BINARY_BYTES} bytes (u64 LE)`,
      };
    const n = first.readBigUInt64LE(0);
    from = n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : -1;
  } else {
    try {
      const body: unknown = JSON.parse(first.toString('utf8'));
      const keys = typeof body === 'object' && body !== null ? Object.keys(body) : [];
      if (keys.length !== 1 || keys[0] !== 'from' || Array.isArray(body))
        return { ok: false, reason: 'expected {"from": <height>}' };
      from = (body as { from: unknown }).from;
    } catch {
      return { ok: false, reason: 'start request is not valid JSON' };
    }
  }
  if (!Number.isSafeInteger(from) || (from as number) < 1)
    return { ok: false, reason: 'start height must be an integer >= 1' };
  return { ok: true, request: { from: from as number, binary } };
}

/** Per-server cache of block encodings by height (bounded; the oldest entry is dropped first). */
export class BlockEncodings {
  private readonly cache = new Map<number, { binary?: Uint8Array; text?: string }>();

  constructor(private readonly schema: SchemaRegistry) {}

  encode(block: Block, binary: boolean): Uint8Array | string {
    const height = block.header.height;
    let entry = this.cache.get(height);
    if (entry === undefined) {
      entry = {};
      this.cache.set(height, entry);
      if (this.cache.size > BLOCK_CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
    }
    if (binary) {
      entry.binary ??= encodeFrame(this.schema, BlockCodec, block);
      return entry.binary;
    }
    entry.text ??= JSON.stringify(BlockCodec.toJson(block));
    return entry.text;
  }
}

export interface BlockStreamDeps {
  chain: ChainReader;
  events: EventsPort;
  encodings: BlockEncodings;
  onError: (err: unknown) => void;
}

/** One block stream: sends heights from..tip, then follows the tip until the connection closes. */
export class BlockStreamSession {
  private next: number;
  private running = false;
  private closed = false;
  private unsubscribe: () => void = () => {};

  constructor(
    private readonly ctx: WsContext,
    private readonly request: BlockRequest,
    private readonly deps: BlockStreamDeps,
  ) {
    this.next = request.from;
  }

  start(): void {
    this.ctx.onClose(() => this.stop());
    this.unsubscribe = this.deps.events.subscribe((env) => {
      const e = env.event;
      if (e.kind === 'Block' && e.status.kind === 'Applied') this.wake();
    });
    this.wake();
  }

  close(code: number, reason: string): void {
    this.stop();
    this.ctx.close(code, reason);
  }

  private stop(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
  }

  private wake(): void {
    if (this.running || this.closed) return;
    this.running = true;
    this.pump().catch((err: unknown) => {
      this.deps.onError(err);
      this.close(WS_CLOSE.internalError, 'internal error');
    });
  }

  /** Reads and sends blocks while the chain has them and the connection has room (one read at a time). */
  private async pump(): Promise<void> {
    try {
      while (!this.closed && this.next <= this.deps.chain.height()) {
        if (!this.ctx.hasRoom()) {
          if (!(await this.ctx.drained())) return;
          continue;
        }
        const block = await this.deps.chain.block(this.next);
        if (this.closed) return;
        if (block === undefined) {
          this.close(WS_CLOSE.internalError, `block ${this.next} unavailable`);
          return;
        }
        this.ctx.send(this.deps.encodings.encode(block, this.request.binary));
        this.next += 1;
      }
    } finally {
      // Cleared in the same turn as the last height check, so a wake-up arriving after it starts a
      // new pump instead of being dropped.
      this.running = false;
    }
  }
}
