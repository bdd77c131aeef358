// Compound codecs (docs/codec.md §4): option, sequence, map (sorted keys), struct, enum, lazy.

import { assert } from '../util/assert.js';
import { compareBytes } from '../util/hex.js';
import type { AnyCodec, Codec, Infer, Json, TypeRef } from './codec.js';
import { refOf } from './codec.js';
import { CodecError } from './errors.js';
import type { Reader } from './reader.js';
import { Writer } from './writer.js';

function jsonError(path: string, expected: string): CodecError {
  return new CodecError('codec_invalid_json', `${path || '$'}: expected ${expected}`, path);
}

export interface OptionCodec<T> extends Codec<T | undefined> {
  readonly optional: true;
  readonly inner: Codec<T>;
}

/** Tag byte 0 (absent) or 1 followed by the value. JSON: the value, or null / an absent key. */
export function option<T>(inner: Codec<T>): OptionCodec<T> {
  return {
    name: undefined,
    minBytes: 1,
    optional: true,
    inner,
    encode(w, v) {
      if (v === undefined) w.u8(0);
      else {
        w.u8(1);
        inner.encode(w, v);
      }
    },
    decode(r) {
      const at = r.pos;
      const tag = r.u8();
      if (tag === 0) return undefined;
      if (tag !== 1) throw new CodecError('codec_invalid_tag', `option tag ${tag}`, at);
      r.enter();
      const v = inner.decode(r);
      r.leave();
      return v;
    },
    toJson: (v) => (v === undefined ? null : inner.toJson(v)),
    fromJson: (j, path) => (j === null || j === undefined ? undefined : inner.fromJson(j, path)),
    describe: (ref) => ({ kind: 'option', of: refOf(inner, ref) }),
    children: () => [inner],
  };
}

/** A count then the items. `itemsMax` bounds the count (also bounded by the decoder's limits). */
export function seq<T>(item: Codec<T>, itemsMax = Number.MAX_SAFE_INTEGER): Codec<T[]> {
  return {
    name: undefined,
    minBytes: 1,
    encode(w, v) {
      w.varuint(v.length);
      for (let i = 0; i < v.length; i++) item.encode(w, v[i]!);
    },
    decode(r) {
      const n = r.length(Math.min(itemsMax, r.limits.itemsMax), item.minBytes);
      r.enter();
      const out: T[] = new Array(n);
      for (let i = 0; i < n; i++) out[i] = item.decode(r);
      r.leave();
      return out;
    },
    toJson: (v) => v.map((x) => item.toJson(x)),
    fromJson(j, path) {
      if (!Array.isArray(j) || j.length > itemsMax)
        throw jsonError(path, `an array of at most ${itemsMax} items`);
      return j.map((x, i) => item.fromJson(x, `${path}[${i}]`));
    },
    describe: (ref) => ({ kind: 'seq', of: refOf(item, ref) }),
    children: () => [item],
  };
}

/**
 * A count then key/value pairs in strictly increasing order of the keys' encoded bytes, so that one
 * map has one encoding whatever order it was built in. String-keyed maps are JSON objects.
 */
export function map<K, V>(
  key: Codec<K>,
  value: Codec<V>,
  itemsMax = Number.MAX_SAFE_INTEGER,
): Codec<Map<K, V>> {
  return {
    name: undefined,
    minBytes: 1,
    encode(w, m) {
      const entries = [...m].map(([k, v]) => {
        const kw = new Writer(32);
        key.encode(kw, k);
        return { kb: kw.finish(), v };
      });
      entries.sort((a, b) => compareBytes(a.kb, b.kb));
      // Distinct keys must encode distinctly, or the map's encoding repeats a key no decoder accepts.
      for (let i = 1; i < entries.length; i++)
        assert(compareBytes(entries[i - 1]!.kb, entries[i]!.kb) < 0, 'map: two keys with one encoding');
      w.varuint(entries.length);
      for (const e of entries) {
        w.bytes(e.kb);
        value.encode(w, e.v);
      }
    },
    decode(r) {
      const n = r.length(Math.min(itemsMax, r.limits.itemsMax), key.minBytes + value.minBytes);
      r.enter();
      const out = new Map<K, V>();
      let prev: Uint8Array | undefined;
      for (let i = 0; i < n; i++) {
        const start = r.pos;
        const k = key.decode(r);
        const kb = r.buf.subarray(start, r.pos);
        if (prev !== undefined && compareBytes(prev, kb) >= 0) {
          throw new CodecError('codec_unsorted_map', 'map keys not in strictly increasing order', start);
        }
        prev = kb;
        out.set(k, value.decode(r));
      }
      r.leave();
      return out;
    },
    toJson(m) {
      const o: { [k: string]: Json } = {};
      for (const k of [...m.keys()].map((x) => key.toJson(x) as string).sort()) {
        // defineProperty, not assignment: a key such as "__proto__" must become an own property.
        const v = value.toJson(m.get(key.fromJson(k, '') as K)!);
        Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
      }
      return o;
    },
    fromJson(j, path) {
      if (typeof j !== 'object' || j === null || Array.isArray(j) || Object.keys(j).length > itemsMax) {
        throw jsonError(path, `an object of at most ${itemsMax} entries`);
      }
      const out = new Map<K, V>();
      for (const [k, v] of Object.entries(j))
        out.set(key.fromJson(k, `${path}.${k}`), value.fromJson(v, `${path}.${k}`));
      return out;
    },
    describe: (ref) => ({ kind: 'map', key: refOf(key, ref), value: refOf(value, ref) }),
    children: () => [key, value],
  };
}

// ---- structs and enums -------------------------------------------------------------------------

export type Fields = Record<string, AnyCodec>;
type OptionalKeys<F extends Fields> = {
  [K in keyof F]: F[K] extends OptionCodec<unknown> ? K : never;
}[keyof F];
type RequiredKeys<F extends Fields> = Exclude<keyof F, OptionalKeys<F>>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
export type StructValue<F extends Fields> = Simplify<
  { [K in RequiredKeys<F>]: Infer<F[K]> } & {
    [K in OptionalKeys<F>]?: F[K] extends OptionCodec<infer T> ? T : never;
  }
>;

/** camelCase field names in TypeScript, snake_case in JSON and in schema descriptions. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export interface FieldPlan {
  key: string;
  json: string;
  codec: AnyCodec;
  optional: boolean;
}

export function plan(fields: Fields): FieldPlan[] {
  return Object.entries(fields).map(([key, codec]) => ({
    key,
    json: snakeCase(key),
    codec,
    optional: (codec as Partial<OptionCodec<unknown>>).optional === true,
  }));
}

// biome-ignore lint/suspicious/noExplicitAny: structs are assembled field by field.
export type Loose = Record<string, any>;

function encodeFields(w: Writer, fs: FieldPlan[], v: Loose): void {
  for (let i = 0; i < fs.length; i++) {
    const f = fs[i]!;
    f.codec.encode(w, v[f.key]);
  }
}

function decodeFields(r: Reader, fs: FieldPlan[], out: Loose): void {
  for (let i = 0; i < fs.length; i++) {
    const f = fs[i]!;
    const v = f.codec.decode(r);
    if (v !== undefined || !f.optional) out[f.key] = v;
  }
}

/**
 * A struct's (or enum variant's) fields as two functions written for its field list: property reads and
 * codec calls at sites of their own, and the decoded object built in one shape (an object literal in
 * declared order, optional fields added in place when present). The shared loops above read and write
 * every struct's fields at the same sites, which V8 can only treat as megamorphic; blocks run these for
 * every transaction. Exactly the loops' behaviour: same calls in the same order, same keys in the same
 * order, absent optional fields left out (`fields-fast.test.ts` compares the two over random values).
 * Field names come from the program's own declarations; a name an object literal would treat
 * differently (`__proto__`, an array index) keeps the loops.
 */
export interface FieldFunctions {
  encode(w: Writer, v: Loose): void;
  /** The fields decoded into a new object, which starts with `kind` for an enum variant. */
  decode(r: Reader): Loose;
}

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function fieldFunctions(fs: FieldPlan[], kind: string | undefined): FieldFunctions {
  if (!fs.every((f) => PLAIN_KEY.test(f.key) && f.key !== '__proto__' && f.key !== 'kind'))
    return genericFieldFunctions(fs, kind);
  const codecs = fs.map((f) => f.codec);
  const enc = fs.map((f, i) => `c[${i}].encode(w, v.${f.key});`).join('\n');
  const reads = fs.map((_, i) => `const x${i} = c[${i}].decode(r);`).join('\n');
  // The literal holds `kind` and every field up to the first optional one; the rest are added in order.
  const firstOptional = fs.findIndex((f) => f.optional);
  const head = firstOptional < 0 ? fs.length : firstOptional;
  const members = fs.slice(0, head).map((f, i) => `${f.key}: x${i}`);
  if (kind !== undefined) members.unshift(`kind: ${JSON.stringify(kind)}`);
  const tail = fs
    .slice(head)
    .map((f, j) =>
      f.optional
        ? `if (x${head + j} !== undefined) o.${f.key} = x${head + j};`
        : `o.${f.key} = x${head + j};`,
    )
    .join('\n');
  const body = `return {
      encode(w, v) {\n${enc}\n},
      decode(r) {\n${reads}\nconst o = { ${members.join(', ')} };\n${tail}\nreturn o;\n},
    };`;
  let make: (c: AnyCodec[]) => FieldFunctions;
  try {
    make = new Function('c', body) as typeof make;
  } catch {
    // A page whose Content-Security-Policy has no 'unsafe-eval' (a strict policy, as many apps bundling
    // the SDK set) refuses to compile code: the loops give the same bytes and values, only slower.
    return genericFieldFunctions(fs, kind);
  }
  return make(codecs);
}

/** The same as the loops, for any field list (the reference `fieldFunctions` is tested against). */
export function genericFieldFunctions(fs: FieldPlan[], kind: string | undefined): FieldFunctions {
  return {
    encode: (w, v) => encodeFields(w, fs, v),
    decode(r) {
      const out: Loose = kind === undefined ? {} : { kind };
      decodeFields(r, fs, out);
      return out;
    },
  };
}

function fieldsToJson(fs: FieldPlan[], v: Loose, out: { [k: string]: Json }): void {
  for (const f of fs) {
    const x = v[f.key];
    if (x === undefined && f.optional) continue;
    out[f.json] = f.codec.toJson(x);
  }
}

function fieldsFromJson(
  fs: FieldPlan[],
  j: { [k: string]: unknown },
  path: string,
  out: Loose,
  isVariant = false,
): void {
  const known = new Set(fs.map((f) => f.json));
  for (const k of Object.keys(j)) {
    // `kind` names an enum's variant; on a plain struct it is as unknown as any other member.
    if (!known.has(k) && !(isVariant && k === 'kind')) throw jsonError(`${path}.${k}`, 'no such field');
  }
  for (const f of fs) {
    const v = f.codec.fromJson(j[f.json], `${path}.${f.json}`);
    if (v !== undefined || !f.optional) out[f.key] = v;
  }
}

function describeFields(fs: FieldPlan[], ref: (c: AnyCodec) => TypeRef) {
  return fs.map((f) => ({ name: f.json, type: refOf(f.codec, ref) }));
}

/** Fields in declared order, no tags or names on the wire. */
export function struct<F extends Fields>(name: string, fields: F): Codec<StructValue<F>> {
  const fs = plan(fields);
  const own = fieldFunctions(fs, undefined);
  return {
    name,
    minBytes: fs.reduce((n, f) => n + f.codec.minBytes, 0),
    encode: (w, v) => own.encode(w, v as Loose),
    decode(r) {
      r.enter();
      const out = own.decode(r);
      r.leave();
      return out as StructValue<F>;
    },
    toJson(v) {
      const out: { [k: string]: Json } = {};
      fieldsToJson(fs, v as Loose, out);
      return out;
    },
    fromJson(j, path) {
      if (typeof j !== 'object' || j === null || Array.isArray(j))
        throw jsonError(path, `an object (${name})`);
      const out: Loose = {};
      fieldsFromJson(fs, j as { [k: string]: unknown }, path, out);
      return out as StructValue<F>;
    },
    describe: (ref) => ({ kind: 'struct', fields: describeFields(fs, ref) }),
    children: () => fs.map((f) => f.codec),
  };
}

export type EnumValue<V extends Record<string, Fields>> = {
  [K in keyof V & string]: Simplify<{ kind: K } & StructValue<V[K]>>;
}[keyof V & string];

/**
 * A varint tag (the variant's position in declaration order, never reused) then the variant's fields.
 * TypeScript and JSON form: `{ kind: 'Variant', ...fields }`.
 */
export function enumOf<V extends Record<string, Fields>>(name: string, variants: V): Codec<EnumValue<V>> {
  const list = Object.entries(variants).map(([kind, fields], tag) => {
    const fs = plan(fields);
    return { kind, tag, fs, own: fieldFunctions(fs, kind) };
  });
  const byKind = new Map(list.map((v) => [v.kind, v]));
  return {
    name,
    minBytes: 1,
    encode(w, v) {
      const variant = byKind.get(v.kind);
      if (variant === undefined)
        throw new CodecError('codec_invalid_value', `${name}: unknown variant ${v.kind}`);
      w.varuint(variant.tag);
      variant.own.encode(w, v as Loose);
    },
    decode(r) {
      const at = r.pos;
      const tag = r.varuint();
      const variant = list[tag];
      if (variant === undefined) throw new CodecError('codec_invalid_tag', `${name}: unknown tag ${tag}`, at);
      r.enter();
      const out = variant.own.decode(r);
      r.leave();
      return out as EnumValue<V>;
    },
    toJson(v) {
      const variant = byKind.get(v.kind)!;
      const out: { [k: string]: Json } = { kind: variant.kind };
      fieldsToJson(variant.fs, v as Loose, out);
      return out;
    },
    fromJson(j, path) {
      const kind = typeof j === 'object' && j !== null ? (j as { kind?: unknown }).kind : undefined;
      const variant = typeof kind === 'string' ? byKind.get(kind) : undefined;
      if (variant === undefined)
        throw jsonError(`${path}.kind`, `one of ${list.map((v) => v.kind).join(', ')}`);
      const out: Loose = { kind: variant.kind };
      fieldsFromJson(variant.fs, j as { [k: string]: unknown }, path, out, true);
      return out as EnumValue<V>;
    },
    describe: (ref) => ({
      kind: 'enum',
      variants: list.map((v) => ({ tag: v.tag, name: v.kind, fields: describeFields(v.fs, ref) })),
    }),
    children: () => list.flatMap((v) => v.fs.map((f) => f.codec)),
  };
}

/** A codec defined later (recursive types such as filter expressions). */
export function lazy<T>(name: string, get: () => Codec<T>, minBytes = 1): Codec<T> {
  let c: Codec<T> | undefined;
  const inner = () => {
    c ??= get();
    return c;
  };
  return {
    name,
    minBytes,
    encode: (w, v) => inner().encode(w, v),
    decode: (r) => inner().decode(r),
    toJson: (v) => inner().toJson(v),
    fromJson: (j, p) => inner().fromJson(j, p),
    describe: (ref) => inner().describe(ref),
    children: () => inner().children(),
  };
}

/** Gives a codec a registered name (so it is described once and referenced by name). */
export function named<T>(name: string, c: Codec<T>): Codec<T> {
  return { ...c, name };
}
