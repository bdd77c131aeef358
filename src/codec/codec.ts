// The schema-driven codec core (docs/codec.md §3–§5): a `Codec<T>` knows how to encode, decode,
// describe itself and map its values to and from JSON. Compound codecs are built from smaller ones.

import type { Reader } from './reader.js';
import type { Writer } from './writer.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The description of a type, as served by `GET /schema` and hashed into frame headers. */
export type TypeDesc =
  | { kind: 'bool' | 'u8' | 'u16' | 'u32' | 'u64' | 'varuint' | 'varint' | 'string' | 'bytes' | 'json' }
  | { kind: 'biguint'; bits: number }
  | { kind: 'fixed_bytes'; length: number }
  | { kind: 'option' | 'seq'; of: TypeRef }
  | { kind: 'map'; key: TypeRef; value: TypeRef }
  | { kind: 'struct'; fields: { name: string; type: TypeRef }[] }
  | { kind: 'enum'; variants: { tag: number; name: string; fields: { name: string; type: TypeRef }[] }[] }
  | { kind: 'text'; base: TypeRef; format: string };

/** A reference to a type: the name of a registered type, or an inline description. */
export type TypeRef = string | TypeDesc;

export interface Codec<T> {
  /** The registered type name, when the type is named (struct, enum and text types always are). */
  readonly name: string | undefined;
  /** The fewest bytes one value can take (used to bound sequence lengths before allocating). */
  readonly minBytes: number;
  encode(w: Writer, v: T): void;
  decode(r: Reader): T;
  toJson(v: T): Json;
  /** Maps JSON to a value; throws CodecError('codec_invalid_json') naming `path` on a mismatch. */
  fromJson(j: unknown, path: string): T;
  /** Describes this type; `ref` turns a child codec into a reference (by name when it has one). */
  describe(ref: (c: AnyCodec) => TypeRef): TypeDesc;
  /** Named child codecs, so a registry can walk the whole type graph. */
  children(): AnyCodec[];
}

// biome-ignore lint/suspicious/noExplicitAny: the erased form every codec can be stored as.
export type AnyCodec = Codec<any>;

export type Infer<C> = C extends Codec<infer T> ? T : never;

export function refOf(c: AnyCodec, ref: (c: AnyCodec) => TypeRef): TypeRef {
  // Named children go through `ref` so a registry sees (and registers) every named type it reaches.
  return c.name === undefined ? c.describe(ref) : ref(c);
}
