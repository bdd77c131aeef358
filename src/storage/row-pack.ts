// Rows of a bulk write (a genesis import) packed back to back in one growing buffer instead of an object
// per row, so a batch of a hundred thousand writes is a few allocations the collector never walks:
//   key length u16 BE ‖ stored key (the user key space byte 0x01 ‖ key) ‖ value length u32 BE ‖ value
// The stored key is built here (state-keys.ts's userKey) so the store writes views of the pack as they are.
// A bulk write whose rows already come in order from a sorted stream (a genesis import) skips the pack:
// RowStream hands the store each row as the stream gives it, with its stored key built in one buffer.

import { assert } from '../util/assert.js';
import { STATE_KEY_BYTES_MAX, userKey } from './state-keys.js';

const INITIAL_BYTES = 1 << 20;

export class RowPack {
  private buf = new Uint8Array(INITIAL_BYTES);
  private at = 0;
  private n = 0;

  /** Rows packed. */
  get length(): number {
    assert(this.n === 0 || this.at > 0, 'row pack: rows counted without bytes');
    return this.n;
  }

  /** Bytes packed. */
  get bytes(): number {
    assert(
      this.at <= this.buf.length,
      `row pack: ${this.at} bytes packed in a ${this.buf.length}-byte buffer`,
    );
    return this.at;
  }

  put(key: Uint8Array, value: Uint8Array): void {
    if (key.length > STATE_KEY_BYTES_MAX) userKey(key); // throws storage_invalid_key
    // Constant texts: a message built per row would cost more than the row's copy.
    assert(value.length <= 0xffff_ffff, 'row pack: a value does not fit its u32 length');
    const need = 2 + 1 + key.length + 4 + value.length;
    const start = this.at;
    if (this.at + need > this.buf.length) {
      const grown = new Uint8Array(Math.max(this.buf.length * 2, this.at + need));
      grown.set(this.buf.subarray(0, this.at));
      this.buf = grown;
    }
    const b = this.buf;
    let at = this.at;
    const k = key.length + 1;
    b[at++] = k >>> 8;
    b[at++] = k & 0xff;
    b[at++] = 0x01;
    b.set(key, at);
    at += key.length;
    const v = value.length;
    b[at++] = v >>> 24;
    b[at++] = (v >>> 16) & 0xff;
    b[at++] = (v >>> 8) & 0xff;
    b[at++] = v & 0xff;
    b.set(value, at);
    this.at = at + v;
    this.n++;
    assert(this.at === start + need, "row pack: a row's bytes differ from its size");
  }

  /** Each packed row's stored key and value, as views of the pack (valid until the next put or clear). */
  *stored(): Generator<{ key: Uint8Array; value: Uint8Array }> {
    const b = this.buf;
    let at = 0;
    let seen = 0;
    while (at < this.at) {
      const k = (b[at]! << 8) | b[at + 1]!;
      const key = b.subarray(at + 2, at + 2 + k);
      at += 2 + k;
      const v = ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
      yield { key, value: b.subarray(at + 4, at + 4 + v) };
      at += 4 + v;
      seen++;
    }
    assert(at === this.at && seen === this.n, `row pack: read ${seen} of ${this.n} rows`);
  }

  /** Empties the pack, keeping its buffer. */
  clear(): void {
    this.at = 0;
    this.n = 0;
    assert(this.buf.length >= INITIAL_BYTES, 'row pack: its buffer shrank below its first size');
  }
}

/** What `StateStore.restorePacked` writes: rows with their stored keys, and how many were given. */
export interface PackedRows {
  /** Rows given by `stored()` (read once it is done). */
  readonly length: number;
  stored(): Iterable<{ key: Uint8Array; value: Uint8Array }>;
}

/** A row of a sorted stream: views valid until the stream's next step. */
export interface StreamedRow {
  key: Uint8Array;
  value: Uint8Array;
}

/**
 * Rows of a bulk write taken straight from a sorted stream for one store transaction, not copied into a
 * pack first: `stored()` pulls at most `max` rows from `next` (undefined once the stream has ended) and
 * gives each with its stored key built in one reused buffer (valid until the next row), its value as
 * the stream gave it. `length` is the rows given, `ended` whether the stream ended before `max`.
 */
export class RowStream implements PackedRows {
  private readonly key = new Uint8Array(1 + STATE_KEY_BYTES_MAX);
  private n = 0;
  ended = false;

  constructor(
    private readonly next: () => StreamedRow | undefined,
    private readonly max: number,
  ) {
    assert(Number.isSafeInteger(max) && max >= 1, `row stream: ${max} rows per transaction`);
  }

  get length(): number {
    assert(this.n <= this.max, 'row stream: more rows than its transaction takes');
    return this.n;
  }

  *stored(): Generator<{ key: Uint8Array; value: Uint8Array }> {
    assert(this.n === 0 && !this.ended, 'row stream: its rows taken twice');
    const kb = this.key;
    kb[0] = 0x01;
    while (this.n < this.max) {
      const r = this.next();
      if (r === undefined) {
        this.ended = true;
        return;
      }
      const k = r.key.length;
      if (k > STATE_KEY_BYTES_MAX) userKey(r.key); // throws storage_invalid_key
      kb.set(r.key, 1);
      this.n++;
      yield { key: kb.subarray(0, 1 + k), value: r.value };
    }
  }
}
