// JSON Schema (2020-12, as used by OpenAPI 3.1) for the JSON form of any codec (docs/codec.md §5). Route
// responses, the OpenAPI document and the SDK's readers are all derived from the codec definitions, so the
// binary form, the JSON form and the documented schema cannot drift apart.

import type { AnyCodec, TypeDesc, TypeRef } from './codec.js';

export type JsonSchema = Record<string, unknown>;

const UINT_MAX: Record<string, number> = {
  u8: 0xff,
  u16: 0xffff,
  u32: 0xffffffff,
  varuint: Number.MAX_SAFE_INTEGER,
};

function fieldsSchema(
  fields: { name: string; type: TypeRef }[],
  ref: (r: TypeRef) => JsonSchema,
  extra: JsonSchema = {},
): JsonSchema {
  const properties: Record<string, JsonSchema> = { ...(extra as Record<string, JsonSchema>) };
  const required: string[] = Object.keys(extra);
  for (const f of fields) {
    const isOption = typeof f.type !== 'string' && f.type.kind === 'option';
    properties[f.name] = isOption ? ref((f.type as { of: TypeRef }).of) : ref(f.type);
    if (!isOption) required.push(f.name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

function descSchema(d: TypeDesc, ref: (r: TypeRef) => JsonSchema): JsonSchema {
  switch (d.kind) {
    case 'bool':
      return { type: 'boolean' };
    case 'u8':
    case 'u16':
    case 'u32':
    case 'varuint':
      return { type: 'integer', minimum: 0, maximum: UINT_MAX[d.kind] };
    case 'varint':
      return { type: 'integer', minimum: -(2 ** 52 - 1), maximum: 2 ** 52 - 1 };
    case 'u64':
    case 'biguint':
      return {
        type: 'string',
        pattern: '^(0|[1-9][0-9]*)$',
        description: 'unsigned integer as a decimal string',
      };
    case 'string':
      return { type: 'string' };
    case 'bytes':
      return { type: 'string', pattern: '^([0-9a-f]{2})*$', description: 'bytes as lower-case hex' };
    case 'fixed_bytes':
      return {
        type: 'string',
        pattern: `^[0-9a-f]{${d.length * 2}}$`,
        description: `${d.length} bytes as lower-case hex`,
      };
    case 'json':
      return { description: 'any JSON value' };
    case 'option':
      return { anyOf: [ref(d.of), { type: 'null' }] };
    case 'seq':
      return { type: 'array', items: ref(d.of) };
    case 'map':
      return { type: 'object', additionalProperties: ref(d.value) };
    case 'struct':
      return fieldsSchema(d.fields, ref);
    case 'enum':
      return { oneOf: d.variants.map((v) => fieldsSchema(v.fields, ref, { kind: { const: v.name } })) };
    case 'text':
      return { type: 'string', description: d.format };
  }
}

/** Freezes `value` and everything it holds: a cached schema is shared by every caller. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * One schema per codec object: a codec's definition does not change once built, so its schema is
 * computed once per process (every gateway build, each route of every family, asks for the same
 * codecs). Shared and frozen; a caller that needs to change it copies it.
 */
const cached = new WeakMap<AnyCodec, JsonSchema>();

/**
 * The JSON Schema of a codec's JSON form, fully inlined (named types get a `title`). Recursive types are
 * cut at the second visit with an open schema, which keeps the document finite. The same (frozen)
 * object for the same codec: computed on the first call.
 */
export function jsonSchemaOf(codec: AnyCodec): JsonSchema {
  let schema = cached.get(codec);
  if (schema === undefined) {
    schema = deepFreeze(buildJsonSchema(codec));
    cached.set(codec, schema);
  }
  return schema;
}

/** Whether a named type can reach itself again (through its fields, at any depth); memoized per codec. */
const recursive = new WeakMap<AnyCodec, boolean>();

/**
 * Whether no named type reachable from `codec` (itself included) is part of a cycle. Such a type's
 * schema is the same wherever it is inlined (only a cycle's second visit is cut), so every schema that
 * holds it shares the one jsonSchemaOf computed for it: built and frozen once, not once per holder.
 */
function acyclic(codec: AnyCodec): boolean {
  const known = recursive.get(codec);
  if (known !== undefined) return !known;
  // Depth-first over named types; `onPath` holds the names being expanded.
  const onPath = new Set<string>();
  const done = new Map<string, boolean>();
  const visit = (c: AnyCodec): boolean => {
    if (c.name !== undefined) {
      const finished = done.get(c.name);
      if (finished !== undefined) return finished;
      if (onPath.has(c.name)) return true;
      onPath.add(c.name);
    }
    let cycle = false;
    for (const child of c.children()) if (visit(child)) cycle = true;
    if (c.name !== undefined) {
      onPath.delete(c.name);
      done.set(c.name, cycle);
    }
    return cycle;
  };
  const cycle = visit(codec);
  recursive.set(codec, cycle);
  return !cycle;
}

function buildJsonSchema(codec: AnyCodec): JsonSchema {
  const named = new Map<string, AnyCodec>();
  const collect = (c: AnyCodec): void => {
    if (c.name !== undefined) {
      if (named.has(c.name)) return;
      named.set(c.name, c);
    }
    for (const child of c.children()) collect(child);
  };
  collect(codec);
  const active = new Set<string>();
  const refOf = (c: AnyCodec): TypeRef => c.name ?? c.describe(refOf);
  const build = (r: TypeRef): JsonSchema => {
    if (typeof r !== 'string') return descSchema(r, build);
    if (r === 'Numeric')
      return {
        type: 'string',
        pattern: '^(0|[1-9][0-9]*)(\\.[0-9]+)?$',
        title: 'Numeric',
        description: 'decimal amount',
      };
    if (active.has(r)) return { title: r };
    const c = named.get(r);
    if (c === undefined) return { title: r };
    if (c !== codec && acyclic(c)) return jsonSchemaOf(c);
    active.add(r);
    const s = { title: r, ...descSchema(c.describe(refOf), build) };
    active.delete(r);
    return s;
  };
  return build(refOf(codec));
}
