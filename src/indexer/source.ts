// Committed blocks from a node's gateway: `GET /block/stream` over WebSocket (gateway/block-stream.ts)
// from a start height, binary frames, following the tip. Catching up and tailing are the same stream.
// Backpressure: the socket is paused while `blocksMax` decoded blocks wait to be indexed.

import WebSocket from 'ws';
import { decodeFrame } from '../codec/frame.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { type Block, BlockCodec } from '../model/block.js';
import { SCHEMA } from '../model/schema.js';
import { IndexerError } from './errors.js';

export interface BlockSource {
  /** The next block, or throws IndexerError('index_source_failed'). */
  next(): Promise<Block>;
  /** Blocks received and not yet taken. */
  readonly buffered: number;
  close(): void;
}

/** The WebSocket address of the block stream of a gateway at `url` (http → ws, https → wss). */
export function blockStreamUrl(url: string): string {
  const u = new URL(url);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.pathname = `${u.pathname.replace(/\/$/, '')}/block/stream`;
  return u.toString();
}

export function openBlockStream(url: string, from: number, blocksMax = 256): BlockSource {
  const ws = new WebSocket(blockStreamUrl(url));
  const queue: Block[] = [];
  let failure: IndexerError | undefined;
  let waiter: { resolve: (b: Block) => void; reject: (e: unknown) => void } | undefined;
  const fail = (why: string) => {
    if (failure !== undefined) return;
    failure = new IndexerError('index_source_failed', `block stream ${url}: ${why}`);
    waiter?.reject(failure);
    waiter = undefined;
  };
  ws.binaryType = 'nodebuffer';
  ws.on('open', () => {
    const req = Buffer.alloc(8);
    req.writeBigUInt64LE(BigInt(from));
    ws.send(req);
  });
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    if (!isBinary) return fail('a text message on a binary stream');
    const d = decodeFrame(SCHEMA, BlockCodec, data, DEFAULT_DECODE_LIMITS);
    if (!d.ok) return fail(`a block does not decode (${d.error.code})`);
    if (waiter !== undefined) {
      const w = waiter;
      waiter = undefined;
      w.resolve(d.value);
      return;
    }
    queue.push(d.value);
    if (queue.length >= blocksMax) ws.pause();
  });
  ws.on('error', (e) => fail(e.message));
  ws.on('close', (code, reason) => fail(`closed (${code}${reason.length > 0 ? ` ${reason}` : ''})`));
  return {
    next() {
      const b = queue.shift();
      if (b !== undefined) {
        if (queue.length < blocksMax / 2 && ws.isPaused) ws.resume();
        return Promise.resolve(b);
      }
      if (failure !== undefined) return Promise.reject(failure);
      return new Promise((resolve, reject) => {
        waiter = { resolve, reject };
      });
    },
    get buffered() {
      return queue.length;
    },
    close() {
      fail('closed by the indexer');
      ws.removeAllListeners('close');
      ws.on('error', () => undefined);
      ws.terminate();
    },
  };
}
