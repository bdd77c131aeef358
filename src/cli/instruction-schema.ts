// The published JSON Schema of every instruction kind (docs/schema/instructions.schema.json): the JSON
// form of a list of instructions as the gateway reads a committed transaction back, and as `torana tx
// submit` takes it. Generated from the codec definitions (model/instructions.ts and the modules' wire
// declarations, through codec/json-schema.ts), so it cannot drift from the wire form; each named type is
// written once under `$defs` (recursive types become real `$ref`s). instruction-schema.test.ts checks the
// committed file against this; `UPDATE_GOLDEN=1` on that test rewrites it.

import { type JsonSchema, jsonSchemaOf } from '../codec/json-schema.js';
import { InstructionCodec } from '../model/instructions.js';

/** Where the generated schema is committed, from the repository (and package) root. */
export const INSTRUCTION_SCHEMA_PATH = 'docs/schema/instructions.schema.json';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Moves every titled (named) subschema into `defs` and leaves a `$ref` in its place. */
function factor(node: unknown, defs: Map<string, JsonSchema>): unknown {
  if (Array.isArray(node)) return node.map((n) => factor(n, defs));
  if (!isObject(node)) return node;
  const title = node['title'];
  if (typeof title === 'string') {
    const ref = { $ref: `#/$defs/${title}` };
    // A bare title is the cut of a recursive type (json-schema.ts): the reference makes it whole.
    if (Object.keys(node).length === 1 || defs.has(title)) return ref;
    defs.set(title, {});
    defs.set(title, factorMembers(node, defs));
    return ref;
  }
  return factorMembers(node, defs);
}

function factorMembers(node: Record<string, unknown>, defs: Map<string, JsonSchema>): JsonSchema {
  const out: JsonSchema = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, factor(v, defs)]));
  // An enum (variants told apart by `kind`): the OpenAPI discriminator lets a validator name the fields
  // of the variant given rather than every variant's.
  const variants = out['oneOf'];
  if (Array.isArray(variants) && variants.every((v) => isObject(v) && isKindConst(v['properties'])))
    Object.assign(out, { type: 'object', discriminator: { propertyName: 'kind' } });
  return out;
}

const isKindConst = (p: unknown): boolean =>
  isObject(p) && isObject(p['kind']) && typeof p['kind']['const'] === 'string';

/** The schema document: an array of instructions, each one of the build's instruction kinds. */
export function instructionSchema(): JsonSchema {
  const defs = new Map<string, JsonSchema>();
  const items = factor(jsonSchemaOf(InstructionCodec), defs);
  const sorted = [...defs.keys()].sort();
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Instructions',
    description:
      'A list of torana instructions in their JSON form (the form a committed transaction reads back as), as `torana tx submit` takes it. Generated from the codec definitions; do not edit.',
    type: 'array',
    minItems: 1,
    items,
    $defs: Object.fromEntries(sorted.map((k) => [k, defs.get(k)!])),
  };
}

/** The committed file's exact text. */
export function instructionSchemaText(): string {
  return `${JSON.stringify(instructionSchema(), null, 2)}\n`;
}

/** The kind names the schema's Instruction definition lists, in tag order. */
export function schemaKinds(schema: JsonSchema): string[] {
  const defs = schema['$defs'] as Record<string, { oneOf: { properties: { kind: { const: string } } }[] }>;
  return defs['Instruction']!.oneOf.map((v) => v.properties.kind.const);
}

/** The generated section of docs/instructions.md: every kind in tag order with its JSON example. */
export function examplesSection(
  examples: Readonly<Record<string, unknown>>,
  kinds: readonly string[],
): string {
  const lines = [`<!-- generated:instruction-examples -->`];
  for (const kind of kinds)
    lines.push('', `#### ${kind}`, '', '```json', JSON.stringify(examples[kind]), '```');
  lines.push('', `<!-- /generated:instruction-examples -->`);
  return lines.join('\n');
}

/** `doc` with its generated examples section replaced by `section`. */
export function withExamplesSection(doc: string, section: string): string {
  const start = doc.indexOf('<!-- generated:instruction-examples -->');
  const endMark = '<!-- /generated:instruction-examples -->';
  const end = doc.indexOf(endMark);
  if (start < 0 || end < start)
    throw new Error('the page lacks its generated section markers (<!-- generated:instruction-examples -->)');
  return doc.slice(0, start) + section + doc.slice(end + endMark.length);
}
