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
  const memo = new Map<string, Uint8Array>();
  return {
    name,
    minBytes: base.minBytes,
    encode(w, text) {
      const known = memo.get(text);
      if (known !== undefined) {
        w.bytes(known);
        return;
      }
      const start = w.pos;
      if (encodeText === undefined || typeof text !== 'string' || !encodeText(w, text))
        base.encode(w, parseOrThrow(text, undefined));
      if (memo.size >= TEXT_ENCODING_MEMO_MAX) memo.clear();
      memo.set(text, w.buf.slice(start, w.pos));
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
