// An enum whose variants are declared in more than one place (docs/codec.md §3): the core's own variants
// and those of the ledger modules (docs/design/modules.md "Wire declarations"). The list of variant names
// is fixed up front — a variant's tag is its position there — and each declaring place gives variants
// their fields with `declare`. The first use of the codec (encode, decode, JSON, describe) builds the
// plain `enumOf` codec in tag order and closes the enum: encodings and descriptions are exactly those of
// one `enumOf` over the whole list, wherever each variant was declared. A use before every variant has
// its fields throws, naming the missing ones: a process must install its modules' declarations first.

import type { AnyCodec, Codec } from './codec.js';
import { enumOf, type Fields, type StructValue } from './compound.js';

/** The value type of an enum whose variants are the members of `V` (an interface modules may augment). */
export type OpenEnumValue<V> = {
  [K in keyof V & string]: V[K] extends Fields ? Simplify<{ kind: K } & StructValue<V[K]>> : never;
}[keyof V & string];
type Simplify<T> = { [K in keyof T]: T[K] } & {};

export interface OpenEnum<T> extends Codec<T> {
  /** Every variant name at its tag. */
  readonly tags: readonly string[];
  /** Gives variants their fields; only before first use, once per variant, and only names of `tags`. */
  declare(variants: Readonly<Record<string, Fields>>): void;
  /** The variants that have no fields yet (empty once complete). */
  missing(): string[];
  /** Whether the variant has its fields. */
  declared(kind: string): boolean;
}

/**
 * An open enum over `tags`, with `initial` declared at once. `hint` completes the error a use before
 * completion throws (what the process forgot to import).
 */
export function openEnum<T>(
  name: string,
  tags: readonly string[],
  initial: Readonly<Record<string, Fields>>,
  hint: string,
): OpenEnum<T> {
  const fields = new Map<string, Fields>();
  let built: Codec<T> | undefined;
  const missing = () => tags.filter((t) => !fields.has(t));
  const declare = (variants: Readonly<Record<string, Fields>>): void => {
    if (built !== undefined)
      throw new Error(`${name}: variants ${Object.keys(variants).join(', ')} declared after first use`);
    for (const [kind, f] of Object.entries(variants)) {
      if (!tags.includes(kind)) throw new Error(`${name}: ${kind} has no tag`);
      if (fields.has(kind)) throw new Error(`${name}: ${kind} is declared twice`);
      fields.set(kind, f);
    }
  };
  declare(initial);
  const inner = (): Codec<T> => {
    if (built === undefined) {
      const lacking = missing();
      if (lacking.length > 0) throw new Error(`${name}: no fields for ${lacking.join(', ')} (${hint})`);
      built = enumOf(name, Object.fromEntries(tags.map((t) => [t, fields.get(t)!]))) as Codec<T>;
    }
    return built;
  };
  return {
    name,
    minBytes: 1,
    tags,
    declare,
    missing,
    declared: (kind) => fields.has(kind),
    encode: (w, v) => inner().encode(w, v),
    decode: (r) => inner().decode(r),
    toJson: (v) => inner().toJson(v),
    fromJson: (j, p) => inner().fromJson(j, p),
    describe: (ref) => inner().describe(ref),
    children: (): AnyCodec[] => inner().children(),
  };
}
