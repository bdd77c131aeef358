// The decoding cursor (docs/codec.md §2–§6): reads through a byte array with limits, and fails with a
// typed CodecError. Every length is checked against the remaining bytes and the limits before use.

import { CodecError } from './errors.js';
import type { DecodeLimits } from './limits.js';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export class Reader {
  pos: number;
  private depth = 0;

  constructor(
    readonly buf: Uint8Array,
    readonly limits: DecodeLimits,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  remaining(): number {
    return this.end - this.pos;
  }

  need(n: number): void {
    if (this.end - this.pos < n) {
      throw new CodecError('codec_truncated', `need ${n} bytes, ${this.end - this.pos} left`, this.pos);
    }
  }

  enter(): void {
    if (++this.depth > this.limits.depthMax) {
      throw new CodecError('codec_depth_limit', `nesting deeper than ${this.limits.depthMax}`, this.pos);
    }
  }

  leave(): void {
    this.depth--;
  }

  /** How many more levels `enter` allows (a fast path checks this before reading nested values). */
  depthLeft(): number {
    return this.limits.depthMax - this.depth;
  }

  u8(): number {
    if (this.pos >= this.end) throw new CodecError('codec_truncated', 'need 1 byte, 0 left', this.pos);
    return this.buf[this.pos++]!;
  }

  u16(): number {
    this.need(2);
    const b = this.buf;
    const p = this.pos;
    this.pos += 2;
    return b[p]! | (b[p + 1]! << 8);
  }

  u32(): number {
    this.need(4);
    const b = this.buf;
    const p = this.pos;
    this.pos += 4;
    return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16)) + b[p + 3]! * 0x1000000;
  }

  u64(): bigint {
    const lo = this.u32();
    const hi = this.u32();
    return (BigInt(hi) << 32n) | BigInt(lo);
  }

  /** Canonical unsigned LEB128 that fits in a safe JS integer (docs/codec.md §2). */
  varuint(): number {
    const b = this.buf;
    let result = 0;
    let mul = 1;
    for (let i = 0; i < 8; i++) {
      if (this.pos >= this.end) throw new CodecError('codec_truncated', 'varint cut short', this.pos);
      const byte = b[this.pos++]!;
      result += (byte & 0x7f) * mul;
      if ((byte & 0x80) === 0) {
        if (byte === 0 && i > 0)
          throw new CodecError('codec_overlong_varint', 'overlong varint', this.pos - 1);
        if (result > Number.MAX_SAFE_INTEGER) {
          throw new CodecError('codec_varint_overflow', 'varint above 2^53-1', this.pos - 1);
        }
        return result;
      }
      mul *= 128;
    }
    throw new CodecError('codec_varint_overflow', 'varint above 2^53-1', this.pos);
  }

  /** Canonical unsigned LEB128 up to `maxBits` bits, as a bigint. */
  bigVaruint(maxBits: number): bigint {
    const b = this.buf;
    let result = 0n;
    let shift = 0n;
    const maxBytes = Math.ceil(maxBits / 7);
    for (let i = 0; i < maxBytes; i++) {
      if (this.pos >= this.end) throw new CodecError('codec_truncated', 'varint cut short', this.pos);
      const byte = b[this.pos++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) {
        if (byte === 0 && i > 0)
          throw new CodecError('codec_overlong_varint', 'overlong varint', this.pos - 1);
        if (result >> BigInt(maxBits) !== 0n) {
          throw new CodecError('codec_varint_overflow', `varint above 2^${maxBits}-1`, this.pos - 1);
        }
        return result;
      }
      shift += 7n;
    }
    throw new CodecError('codec_varint_overflow', `varint above 2^${maxBits}-1`, this.pos);
  }

  /** A length prefix, checked against the limit and the bytes left before anything is allocated. */
  length(limit: number, minItemBytes: number): number {
    const at = this.pos;
    const n = this.varuint();
    if (n > limit) throw new CodecError('codec_length_limit', `length ${n} above limit ${limit}`, at);
    if (minItemBytes > 0 && n * minItemBytes > this.end - this.pos) {
      throw new CodecError(
        'codec_truncated',
        `length ${n} longer than the ${this.end - this.pos} bytes left`,
        at,
      );
    }
    return n;
  }

  /** A view (no copy) of the next n bytes. */
  view(n: number): Uint8Array {
    this.need(n);
    const v = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }

  /** A copy of the next n bytes (values that outlive the input buffer). */
  copy(n: number): Uint8Array {
    this.need(n);
    const v = this.buf.slice(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }

  string(limit: number): string {
    const n = this.length(Math.min(limit, this.limits.bytesMax), 1);
    const b = this.buf;
    const start = this.pos;
    this.need(n);
    // Short ASCII strings are the common case (names, ids); decode them without TextDecoder.
    if (n < 64) {
      let s = '';
      for (let i = start; i < start + n; i++) {
        const c = b[i]!;
        if (c >= 0x80) return this.utf8String(start, n);
        s += String.fromCharCode(c);
      }
      this.pos += n;
      return s;
    }
    return this.utf8String(start, n);
  }

  private utf8String(start: number, n: number): string {
    try {
      const s = utf8.decode(this.buf.subarray(start, start + n));
      this.pos = start + n;
      return s;
    } catch {
      throw new CodecError('codec_invalid_utf8', 'invalid UTF-8', start);
    }
  }

  toSafeNumber(v: bigint, at: number): number {
    if (v > MAX_SAFE) throw new CodecError('codec_varint_overflow', 'value above 2^53-1', at);
    return Number(v);
  }
}
