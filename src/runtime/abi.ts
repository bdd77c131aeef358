// The runtime ABI descriptor and its hash. The ABI of
// this node is the surface a transaction or query can use: every instruction kind and every query kind, each
// with the schema hash of its codec definition. Under policy `V<n>` (n = the active `abi_version` of the
// chain, raised by runtime upgrades) the ABI hash is the ledger hash (BLAKE2b-256, crypto/hash.ts) of the
// descriptor's canonical codec encoding, so any change to a wire type or to the set of kinds changes it.
// Upgrade manifests pin a future ABI by this hash (`UpgradeManifest.abi_hash`).

import type { AnyCodec, Infer, TypeDesc, TypeRef } from '../codec/codec.js';
import { seq, struct } from '../codec/compound.js';
import { CODEC_VERSION, encode } from '../codec/frame.js';
import { canonicalJson } from '../codec/json.js';
import { string, varuint } from '../codec/primitives.js';
import { SchemaRegistry } from '../codec/registry.js';
import { hash } from '../crypto/hash.js';
import { InstructionCodec } from '../model/instructions.js';
import { Hash } from '../model/keys.js';
import { IterableQueryCodec, SingularQueryCodec } from '../model/queries.js';
import { DATA_MODEL_VERSION } from '../model/schema.js';
import { toHex } from '../util/hex.js';

export const AbiEntryCodec = struct('AbiEntry', { tag: varuint, name: string(64), schemaHash: Hash });
export type AbiEntry = Infer<typeof AbiEntryCodec>;

export const AbiDescriptorCodec = struct('AbiDescriptor', {
  policy: string(16),
  abiVersion: varuint,
  dataModelVersion: varuint,
  codecVersion: varuint,
  instructions: seq(AbiEntryCodec),
  singularQueries: seq(AbiEntryCodec),
  iterableQueries: seq(AbiEntryCodec),
});
export type AbiDescriptor = Infer<typeof AbiDescriptorCodec>;

/** Names of the registered types a type reference mentions (inline descriptions are walked). */
function namesIn(ref: TypeRef, out: Set<string>): void {
  if (typeof ref === 'string') {
    out.add(ref);
    return;
  }
  const d: TypeDesc = ref;
  if ('of' in d) namesIn(d.of, out);
  if (d.kind === 'map') {
    namesIn(d.key, out);
    namesIn(d.value, out);
  }
  if (d.kind === 'text') namesIn(d.base, out);
  if (d.kind === 'struct') for (const f of d.fields) namesIn(f.type, out);
  if (d.kind === 'enum') for (const v of d.variants) for (const f of v.fields) namesIn(f.type, out);
}

/**
 * One entry per variant of an enum codec: the schema hash covers the variant's tag, name and fields and the
 * full description of every type those fields reach (codec/registry.ts closure), as canonical JSON.
 */
export function abiEntries(enumCodec: AnyCodec): AbiEntry[] {
  const registry = new SchemaRegistry(CODEC_VERSION);
  registry.register(enumCodec);
  const desc = registry.snapshot().types[enumCodec.name!];
  if (desc?.kind !== 'enum') throw new Error(`${enumCodec.name} is not an enum codec`);
  return desc.variants.map((v) => {
    const names = new Set<string>();
    for (const f of v.fields) namesIn(f.type, names);
    const types: Record<string, TypeDesc> = {};
    for (const n of [...names].sort()) Object.assign(types, registry.closure(n));
    const text = canonicalJson({ tag: v.tag, name: v.name, fields: v.fields, types } as never);
    return { tag: v.tag, name: v.name, schemaHash: toHex(hash(new TextEncoder().encode(text))) };
  });
}

function codeSurface() {
  return Object.freeze({
    instructions: abiEntries(InstructionCodec),
    singularQueries: abiEntries(SingularQueryCodec),
    iterableQueries: abiEntries(IterableQueryCodec),
  });
}

let surface: ReturnType<typeof codeSurface> | undefined;
/**
 * The instruction and query kinds this build serves: fixed by the code, computed once, on first use (the
 * ledger modules' instructions are declared by then).
 */
const SURFACE = () => {
  surface ??= codeSurface();
  return surface;
};

export function abiPolicy(abiVersion: number): string {
  return `V${abiVersion}`;
}

/** The descriptor of the active ABI: `abiVersion` is the chain's active version (StateReader.abiVersion). */
export function abiDescriptor(abiVersion: number): AbiDescriptor {
  return {
    policy: abiPolicy(abiVersion),
    abiVersion,
    dataModelVersion: DATA_MODEL_VERSION,
    codecVersion: CODEC_VERSION,
    instructions: SURFACE().instructions.map((e) => ({ ...e })),
    singularQueries: SURFACE().singularQueries.map((e) => ({ ...e })),
    iterableQueries: SURFACE().iterableQueries.map((e) => ({ ...e })),
  };
}

/** Lower-case hex of the ledger hash of the descriptor's canonical encoding. */
export function abiHashHex(d: AbiDescriptor): string {
  return toHex(hash(encode(AbiDescriptorCodec, d)));
}
