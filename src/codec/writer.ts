// The encoding buffer (docs/codec.md §2–§5). Grows geometrically; `finish()` returns a copy-free view.
// Values reaching the writer were built by the program or validated by a codec's fromJson, so an
// out-of-range one is a bug: asserted (a typed array would silently drop or wrap it otherwise). The hot
// methods test first and build the failure's message only on failure (`assert(c, `…${v}`)` would
// format the value on every call).

import { AssertionError, assert } from '../util/assert.js';
import { CodecError } from './errors.js';

const utf8 = new TextEncoder();
const U64_END = 1n << 64n;
/** In a `u` regex a well-formed surrogate pair is one code point, so only unpaired halves match. */
const LONE_SURROGATE = /\p{Cs}/u;

export class Writer {
  buf: Uint8Array;
  pos = 0;

  constructor(initialBytes = 256) {
    this.buf = new Uint8Array(initialBytes);
  }

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    if (!(Number.isSafeInteger(n) && n >= 0)) throw new AssertionError(`writer: cannot reserve ${n} bytes`);
    let size = Math.max(1, this.buf.length * 2);
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    if (!(this.pos + n <= this.buf.length))
      throw new AssertionError(`writer: grew to ${size} bytes, ${this.pos + n} needed`);
  }

  u8(v: number): void {
    if (!(Number.isInteger(v) && v >= 0 && v <= 0xff))
      throw new AssertionError(`writer: u8 out of range: ${v}`);
    this.ensure(1);
    this.buf[this.pos++] = v;
  }

  u16(v: number): void {
    if (!(Number.isInteger(v) && v >= 0 && v <= 0xffff))
      throw new AssertionError(`writer: u16 out of range: ${v}`);
    this.ensure(2);
    this.buf[this.pos++] = v & 0xff;
    this.buf[this.pos++] = (v >>> 8) & 0xff;
  }

  u32(v: number): void {
    if (!(Number.isInteger(v) && v >= 0 && v <= 0xffffffff))
      throw new AssertionError(`writer: u32 out of range: ${v}`);
    this.ensure(4);
    const b = this.buf;
    b[this.pos++] = v & 0xff;
    b[this.pos++] = (v >>> 8) & 0xff;
    b[this.pos++] = (v >>> 16) & 0xff;
    b[this.pos++] = (v >>> 24) & 0xff;
  }

  u64(v: bigint): void {
    if (!(v >= 0n && v < U64_END)) throw new AssertionError(`writer: u64 out of range: ${v}`);
    this.u32(Number(v & 0xffffffffn));
    this.u32(Number(v >> 32n));
  }

  varuint(v: number): void {
    // At most 2^53-1: eight LEB128 bytes, which `ensure(8)` reserves.
    if (!(Number.isSafeInteger(v) && v >= 0)) throw new AssertionError(`writer: varuint out of range: ${v}`);
    this.ensure(8);
    const b = this.buf;
    let p = this.pos;
    while (v >= 0x80) {
      b[p++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    b[p++] = v;
    this.pos = p;
    // Written through `buf` directly: within the eight bytes reserved, or a byte was silently dropped.
    if (!(this.pos <= b.length))
      throw new AssertionError(`writer: varuint ran to ${this.pos} past ${b.length}`);
  }

  bigVaruint(v: bigint): void {
    if (!(v >= 0n)) throw new AssertionError(`writer: negative varuint ${v}`);
    if (v <= 0xfffffffn) {
      this.varuint(Number(v));
      return;
    }
    while (v >= 0x80n) {
      this.u8(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.u8(Number(v));
  }

  bytes(v: Uint8Array): void {
    this.ensure(v.length);
    this.buf.set(v, this.pos);
    this.pos += v.length;
    assert(this.pos <= this.buf.length, 'writer: wrote past the buffer');
  }

  string(s: string): void {
    // Most strings are short ASCII; write them directly and fall back to TextEncoder otherwise.
    const n = s.length;
    if (n < 64) {
      let ascii = true;
      for (let i = 0; i < n; i++) {
        if (s.charCodeAt(i) >= 0x80) {
          ascii = false;
          break;
        }
      }
      if (ascii) {
        this.varuint(n);
        this.ensure(n);
        const b = this.buf;
        for (let i = 0; i < n; i++) b[this.pos++] = s.charCodeAt(i);
        // Written through `buf` directly: the n bytes the prefix announces, all inside the buffer.
        if (!(this.pos <= b.length))
          throw new AssertionError(`writer: string of ${n} ran to ${this.pos} past ${b.length}`);
        return;
      }
    }
    // A lone surrogate has no UTF-8 form; TextEncoder would silently write U+FFFD instead, giving two
    // strings one encoding (docs/codec.md §3.2).
    if (LONE_SURROGATE.test(s))
      throw new CodecError('codec_invalid_utf8', 'string holds a lone UTF-16 surrogate');
    const encoded = utf8.encode(s);
    this.varuint(encoded.length);
    this.bytes(encoded);
  }

  finish(): Uint8Array {
    // A byte stored past a typed array's end is dropped silently: the position must still be inside.
    if (!(this.pos <= this.buf.length))
      throw new AssertionError(`writer: position ${this.pos} past capacity ${this.buf.length}`);
    return this.buf.subarray(0, this.pos);
  }
}
