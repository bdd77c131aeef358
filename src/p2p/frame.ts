// Frames inside the encrypted stream (src/p2p/README.md "Wire format"):
//   length u32 big-endian (bytes that follow: 1 + payload) | type u8 | payload
// The length is checked against the frame cap before a byte of the body is buffered, so a peer
// cannot make this side hold more than `frameBytesMax` (+ one chunk) per connection.

export const FRAME_LENGTH_BYTES = 4;

export const FrameType = {
  /** First frame each side sends: magic, version, role, network id. */
  Hello: 0x01,
  /** An opaque message for the layer above (consensus, gossip, sync). */
  Message: 0x02,
  /** Keeps an idle connection visibly alive; carries no payload. */
  Ping: 0x03,
} as const;
export type FrameType = (typeof FrameType)[keyof typeof FrameType];

const KNOWN_TYPES: ReadonlySet<number> = new Set(Object.values(FrameType));

export type DecodedFrame = { type: FrameType; payload: Uint8Array };

/** Why a byte stream was refused: `oversize` (length above the cap), `garbage` (anything else). */
export type FrameFault = { fault: 'oversize' | 'garbage'; detail: string };

export function encodeFrame(type: FrameType, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(FRAME_LENGTH_BYTES + 1 + payload.length);
  const n = 1 + payload.length;
  out[0] = n >>> 24;
  out[1] = (n >>> 16) & 0xff;
  out[2] = (n >>> 8) & 0xff;
  out[3] = n & 0xff;
  out[4] = type;
  out.set(payload, FRAME_LENGTH_BYTES + 1);
  return out;
}

/**
 * Splits a byte stream into frames whatever the chunking. After a fault it stays faulted: the
 * connection is to be closed.
 */
export class FrameDecoder {
  readonly #frameBytesMax: number;
  #chunks: Uint8Array[] = [];
  #buffered = 0;
  #need = -1;
  #fault: FrameFault | undefined;

  /** `frameBytesMax` bounds `1 + payload` (the length field's value). */
  constructor(frameBytesMax: number) {
    this.#frameBytesMax = frameBytesMax;
  }

  get buffered(): number {
    return this.#buffered;
  }

  /** Frames completed by this chunk, in order, or the first fault. */
  push(chunk: Uint8Array): DecodedFrame[] | FrameFault {
    if (this.#fault !== undefined) return this.#fault;
    if (chunk.length > 0) {
      this.#chunks.push(chunk);
      this.#buffered += chunk.length;
    }
    const out: DecodedFrame[] = [];
    for (;;) {
      if (this.#need < 0) {
        if (this.#buffered < FRAME_LENGTH_BYTES) return out;
        const head = this.#take(FRAME_LENGTH_BYTES);
        const n = ((head[0]! << 24) >>> 0) + (head[1]! << 16) + (head[2]! << 8) + head[3]!;
        if (n === 0) return this.#faulted('garbage', 'frame of length 0');
        if (n > this.#frameBytesMax) {
          return this.#faulted('oversize', `frame of ${n} bytes, cap ${this.#frameBytesMax}`);
        }
        this.#need = n;
      }
      if (this.#buffered < this.#need) return out;
      const body = this.#take(this.#need);
      this.#need = -1;
      const type = body[0]!;
      if (!KNOWN_TYPES.has(type)) return this.#faulted('garbage', `unknown frame type ${type}`);
      out.push({ type: type as FrameType, payload: body.subarray(1) });
    }
  }

  #faulted(fault: FrameFault['fault'], detail: string): FrameFault {
    this.#fault = { fault, detail };
    this.#chunks = [];
    this.#buffered = 0;
    return this.#fault;
  }

  /** Removes exactly n buffered bytes (n <= buffered), copying only when they span chunks. */
  #take(n: number): Uint8Array {
    const first = this.#chunks[0]!;
    let out: Uint8Array;
    if (first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.#chunks.shift();
      else this.#chunks[0] = first.subarray(n);
    } else {
      out = new Uint8Array(n);
      let at = 0;
      while (at < n) {
        const c = this.#chunks[0]!;
        const k = Math.min(c.length, n - at);
        out.set(c.subarray(0, k), at);
        at += k;
        if (k === c.length) this.#chunks.shift();
        else this.#chunks[0] = c.subarray(k);
      }
    }
    this.#buffered -= n;
    return out;
  }
}
