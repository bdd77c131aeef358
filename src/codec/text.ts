// Text-form types (docs/codec.md §3.8): values that TypeScript and JSON hold as canonical strings
// (account ids, public keys, hashes) but the wire holds in their compact binary structure.

import type { Codec } from './codec.js';
import { refOf } from './codec.js';
import { CodecError } from './errors.js';

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
  return {
    name,
    minBytes: base.minBytes,
    encode: (w, text) => base.encode(w, parseOrThrow(text, undefined)),
    decode(r) {
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
