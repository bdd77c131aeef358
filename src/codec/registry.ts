// The schema registry (docs/codec.md §5): every named type of the data model, its description, and the
// schema hash that frames carry. The same registry backs `GET /schema` and the JSON mapping.

import type { AnyCodec, TypeDesc, TypeRef } from './codec.js';
import { canonicalJson } from './json.js';

export interface SchemaSnapshot {
  /** Codec format version (docs/codec.md §1). */
  version: number;
  types: Record<string, TypeDesc>;
}

/** FNV-1a 64-bit: a stable fingerprint of a type description (not a security hash). */
function fnv1a64(text: string): Uint8Array {
  let h = 0xcbf29ce484222325n;
  const bytes = new TextEncoder().encode(text);
  for (const b of bytes) {
    h ^= BigInt(b);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  const out = new Uint8Array(8);
  for (let i = 0; i < 8; i++) out[i] = Number((h >> BigInt(8 * i)) & 0xffn);
  return out;
}

export class SchemaRegistry {
  private readonly types = new Map<string, TypeDesc>();
  private readonly hashes = new Map<string, Uint8Array>();
  private pending: (() => readonly AnyCodec[])[] = [];

  constructor(readonly version: number) {}

  /**
   * Registers the codecs `roots()` returns, on the first read of the registry: a registry made at import
   * time then sees the types declared by modules loaded after it. The result does not depend on when.
   */
  registerLater(roots: () => readonly AnyCodec[]): void {
    this.pending.push(roots);
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const batches = this.pending;
    this.pending = [];
    for (const roots of batches) for (const c of roots()) this.register(c);
  }

  /** Registers a named codec and every named type reachable from it. */
  register(root: AnyCodec): void {
    this.flush();
    const visit = (c: AnyCodec): TypeRef => {
      if (c.name === undefined) return c.describe(visit);
      if (!this.types.has(c.name)) {
        this.types.set(c.name, { kind: 'bool' }); // placeholder breaks cycles while describing
        this.types.set(c.name, c.describe(visit));
      }
      return c.name;
    };
    if (root.name === undefined) throw new Error('only named codecs can be registered');
    visit(root);
  }

  has(name: string): boolean {
    this.flush();
    return this.types.has(name);
  }

  /** The description of one type and everything it references, in a stable order. */
  closure(name: string): Record<string, TypeDesc> {
    this.flush();
    const out: Record<string, TypeDesc> = {};
    const walk = (ref: TypeRef | undefined): void => {
      if (ref === undefined) return;
      if (typeof ref === 'string') {
        if (out[ref] !== undefined) return;
        const desc = this.types.get(ref);
        if (desc === undefined) throw new Error(`unregistered type ${ref}`);
        out[ref] = desc;
        walkDesc(desc);
      } else walkDesc(ref);
    };
    const walkDesc = (d: TypeDesc): void => {
      if ('of' in d) walk(d.of);
      if (d.kind === 'map') {
        walk(d.key);
        walk(d.value);
      }
      if (d.kind === 'text') walk(d.base);
      if (d.kind === 'struct') for (const f of d.fields) walk(f.type);
      if (d.kind === 'enum') for (const v of d.variants) for (const f of v.fields) walk(f.type);
    };
    walk(name);
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /** 8-byte schema hash of a named type: changes whenever its wire form (or a nested type's) changes. */
  schemaHash(name: string): Uint8Array {
    let h = this.hashes.get(name);
    if (h === undefined) {
      h = fnv1a64(canonicalJson({ version: this.version, root: name, types: this.closure(name) } as never));
      this.hashes.set(name, h);
    }
    return h;
  }

  snapshot(): SchemaSnapshot {
    this.flush();
    const names = [...this.types.keys()].sort();
    return { version: this.version, types: Object.fromEntries(names.map((n) => [n, this.types.get(n)!])) };
  }
}
