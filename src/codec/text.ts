// Text-form types (docs/codec.md §3.8): values that TypeScript and JSON hold as canonical strings
// (account ids, public keys, hashes) but the wire holds in their compact binary structure.

import type { Codec } from './codec.js';
import { refOf } from './codec.js';
import { CodecError } from './errors.js';
import type { Reader } from './reader.js';
import type { Writer } from './writer.js';

export interface TextTypeSpec<B> {
  name: string;
  /** The binary structure on the wire. */
  base: Codec<B>;
  /** A human description of the text form, e.g. '<public key>@<domain>'. */
  format: string;
  /** Parses any accepted text form; undefined when malformed. */
  parse(text: string): B | undefined;
  /** Prints the one canonical text form. */
  print(value: B): string;
  /** Checks a decoded binary value (e.g. name rules); returns a reason when invalid. */
  check?(value: B): string | undefined;
  /**
   * Writes the wire form of a text that is already canonical straight from its characters, without
   * building the binary value (ids are encoded for every transaction). Returns false, having written
   * nothing, for any other text, which then takes the general path (parse, check, encode).
   */
  encodeText?(w: Writer, text: string): boolean;
  /**
   * Reads the wire form straight to the canonical text, without building the binary value (hot leaf
   * types such as public keys). Must give exactly what `print(base.decode(r))` gives, errors included.
   */
  decodeText?(r: Reader): string;
}

/**
 * Texts whose encoding each text type remembers (per type; all forgotten at once when full, which keeps
 * a stream of new texts cheap). Ids recur in almost every transaction (authorities, accounts, asset ids)
 * and the encoding of a valid text never changes, so a remembered one is copied as is.
 */
export const TEXT_ENCODING_MEMO_MAX = 4096;
/** Encodings longer than this are not remembered (ids are far shorter). */
const MEMO_ENCODING_BYTES_MAX = 1023;
/** Bytes of remembered encodings per type: the arena starts small and doubles up to this. */
const MEMO_ARENA_BYTES_MAX = 256 * 1024;

/**
 * The memo judges itself over windows of this many lookups: a window with fewer than one hit in
 * MEMO_HIT_RATE_MIN⁻¹ lookups (a stream of new texts: every lookup a miss, every miss an entry to
 * write and later forget) pauses it.
 */
export const MEMO_WINDOW = 512;
const MEMO_HITS_PER_WINDOW_MIN = MEMO_WINDOW / 4;
/**
 * A paused memo neither looks up nor remembers for this many encodings, then tries one window again;
 * each failed try doubles the pause, up to the maximum (so a stream of new texts pays for a trial
 * window at most once per MEMO_PAUSE_MAX encodings), and a good window resets it.
 */
export const MEMO_PAUSE_MIN = 2 * MEMO_WINDOW;
export const MEMO_PAUSE_MAX = 64 * MEMO_WINDOW;

/**
 * A text → encoding memo whose encodings live in one growing byte arena: the map holds a number
 * (offset · 1024 + length) per text, so remembering one allocates no byte array of its own and a
 * stream of new texts leaves no garbage behind but the map's entries. Adaptive: it pauses itself
 * while its hit rate is low (see MEMO_WINDOW). Which encodings it holds never changes a byte written:
 * a remembered encoding is the one the text's encoder wrote.
 */
export class EncodingMemo {
  readonly #offsets = new Map<string, number>();
  #arena = new Uint8Array(0);
  #used = 0;
  /** Lookups and hits in the current window. */
  #lookups = 0;
  #hits = 0;
  /** Encodings left before a paused memo tries again (0: active), and the next pause's length. */
  #pausedFor = 0;
  #nextPause = MEMO_PAUSE_MIN;

  /** True when the memo takes part in this encoding (counts down a pause otherwise). */
  active(): boolean {
    if (this.#pausedFor === 0) return true;
    this.#pausedFor--;
    return false;
  }

  /** Remembered texts (for tests). */
  get size(): number {
    return this.#offsets.size;
  }

  /** Writes the remembered encoding of `text`; false when there is none. Call only when active. */
  write(w: Writer, text: string): boolean {
    const packed = this.#offsets.get(text);
    if (packed !== undefined) {
      this.#hits++;
      const n = packed & MEMO_ENCODING_BYTES_MAX;
      const from = (packed - n) / (MEMO_ENCODING_BYTES_MAX + 1);
      w.ensure(n);
      const out = w.buf;
      const arena = this.#arena;
      let p = w.pos;
      for (let i = from; i < from + n; i++) out[p++] = arena[i]!;
      w.pos = p;
    }
    if (++this.#lookups === MEMO_WINDOW) this.#judge();
    return packed !== undefined;
  }

  /** The end of a window: stay active, or pause and forget everything. */
  #judge(): void {
    const hits = this.#hits;
    this.#lookups = 0;
    this.#hits = 0;
    if (hits >= MEMO_HITS_PER_WINDOW_MIN) {
      this.#nextPause = MEMO_PAUSE_MIN;
      return;
    }
    this.#pausedFor = this.#nextPause;
    this.#nextPause = Math.min(MEMO_PAUSE_MAX, 2 * this.#nextPause);
    this.#offsets.clear();
    this.#used = 0;
  }

  remember(text: string, bytes: Uint8Array, start: number, end: number): void {
    const n = end - start;
    if (n > MEMO_ENCODING_BYTES_MAX || this.#pausedFor > 0) return;
    if (this.#offsets.size >= TEXT_ENCODING_MEMO_MAX || this.#used + n > MEMO_ARENA_BYTES_MAX) {
      this.#offsets.clear();
      this.#used = 0;
    }
    if (this.#used + n > this.#arena.length) {
      const next = new Uint8Array(Math.min(MEMO_ARENA_BYTES_MAX, Math.max(4096, 2 * this.#arena.length)));
      next.set(this.#arena.subarray(0, this.#used));
      this.#arena = next;
    }
    this.#arena.set(bytes.subarray(start, end), this.#used);
    this.#offsets.set(text, this.#used * (MEMO_ENCODING_BYTES_MAX + 1) + n);
    this.#used += n;
  }
}

export function textType<B>(spec: TextTypeSpec<B>): Codec<string> {
  const { name, base } = spec;
  const parseOrThrow = (text: string, path: string | undefined): B => {
    const v = typeof text === 'string' ? spec.parse(text) : undefined;
    const reason = v === undefined ? 'malformed' : spec.check?.(v);
    if (v === undefined || reason !== undefined) {
      const code = path === undefined ? 'codec_invalid_value' : 'codec_invalid_json';
      throw new CodecError(code, `${path ?? name}: not a valid ${name} (${spec.format}): ${reason}`, path);
    }
    return v;
  };
  const { encodeText, decodeText } = spec;
  const memo = new EncodingMemo();
  return {
    name,
    minBytes: base.minBytes,
    encode(w, text) {
      const remembering = memo.active();
      if (remembering && memo.write(w, text)) return;
      const start = w.pos;
      if (encodeText === undefined || typeof text !== 'string' || !encodeText(w, text))
        base.encode(w, parseOrThrow(text, undefined));
      if (remembering) memo.remember(text, w.buf, start, w.pos);
    },
    decode(r) {
      if (decodeText !== undefined) return decodeText(r);
      const at = r.pos;
      const v = base.decode(r);
      const reason = spec.check?.(v);
      if (reason !== undefined) throw new CodecError('codec_invalid_value', `${name}: ${reason}`, at);
      return spec.print(v);
    },
    toJson: (text) => text,
    fromJson: (j, path) => spec.print(parseOrThrow(j as string, path || '$')),
    describe: (ref) => ({ kind: 'text', base: refOf(base, ref), format: spec.format }),
    children: () => [base],
  };
}
