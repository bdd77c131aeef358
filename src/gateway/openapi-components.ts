// Shared response schemas of the OpenAPI document. Codec schemas are inlined where they are used
// (codec/json-schema.ts), so a big named type (Instruction: every instruction kind) would be repeated in
// every answer that carries it, and the document would grow with each new instruction times each route.
// This moves every large named type found inside response schemas into `components.schemas` under its
// name and refers to it with `$ref`, when all its copies are identical (a recursive type cut at a
// different depth stays inline). Route roots stay inline, and request schemas are left as they are.

type Json = Record<string, unknown>;
type Operation = { responses?: Record<string, { content?: Json | undefined }> | undefined };

/** Named schemas smaller than this stay inline (a `$ref` would cost about as much as it saves). */
export const SHARED_SCHEMA_BYTES_MIN = 2048;

const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function children(node: unknown): unknown[] {
  if (Array.isArray(node)) return node;
  return isObject(node) ? Object.values(node) : [];
}

function responseRoots(paths: Record<string, Record<string, Operation>>): Json[] {
  const roots: Json[] = [];
  for (const item of Object.values(paths))
    for (const op of Object.values(item))
      for (const answer of Object.values(op.responses ?? {}))
        for (const media of Object.values(answer.content ?? {}))
          if (isObject(media) && isObject(media['schema'])) roots.push(media['schema']);
  return roots;
}

/** For each title below the roots: its serialized copies (one entry when every copy is identical). */
function collect(roots: Json[]): Map<string, Set<string>> {
  const byTitle = new Map<string, Set<string>>();
  const visit = (node: unknown, isRoot: boolean): void => {
    if (isObject(node) && !isRoot && typeof node['title'] === 'string') {
      const text = JSON.stringify(node);
      if (text.length >= SHARED_SCHEMA_BYTES_MIN && COMPONENT_NAME.test(node['title'])) {
        const copies = byTitle.get(node['title']) ?? new Set<string>();
        copies.add(text);
        byTitle.set(node['title'], copies);
      }
    }
    for (const c of children(node)) visit(c, false);
  };
  for (const r of roots) visit(r, true);
  return byTitle;
}

/** Replaces shareable named schemas under each response root by `$ref`s; returns the new components. */
export function shareResponseSchemas(paths: Record<string, Record<string, Operation>>): Json {
  const roots = responseRoots(paths);
  const shareable = new Set([...collect(roots)].filter(([, copies]) => copies.size === 1).map(([t]) => t));
  const components: Json = {};
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!isObject(node)) return node;
    const out: Json = {};
    for (const [k, v] of Object.entries(node)) out[k] = share(v);
    return out;
  };
  const share = (node: unknown): unknown => {
    if (isObject(node) && typeof node['title'] === 'string' && shareable.has(node['title'])) {
      const name = node['title'];
      if (!(name in components)) {
        components[name] = {}; // reserved first: a type reached again inside itself refers to itself
        components[name] = rewrite(node);
      }
      return { $ref: `#/components/schemas/${name}` };
    }
    return rewrite(node);
  };
  for (const root of roots) Object.assign(root, rewrite(root));
  return components;
}
