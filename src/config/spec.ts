// The vocabulary of the configuration table: what one key may
// hold, its default, its bounds and its one-line doc. `schema.ts` uses these helpers to declare every
// key exactly once; the `Config` type and every default are derived from that one declaration.

/** setTimeout/setInterval silently clamp delays above 2^31-1 ms to 1 ms (Node timers docs), so every `...Ms` key stops here. */
export const TIMER_MS_CEILING = 2_147_483_647;
/** Upper bound for byte limits of one body, frame or buffer: 1 GiB is far beyond any sane request. */
export const BYTES_CEILING = 1_073_741_824;
/** Upper bound for counts (clients, items, entries); also the largest 32-bit signed integer. */
export const COUNT_CEILING = 2_147_483_647;
/** Longest string value accepted for any key, in UTF-16 code units (paths, hosts, keys). */
export const CONFIG_STRING_LENGTH_MAX = 4096;
/** Most items accepted in any list key (CORS origins, operator keys, algorithms). */
export const CONFIG_LIST_ITEMS_MAX = 1024;

export interface StringSpec {
  readonly type: 'string';
  readonly default: string;
  readonly doc: string;
  /** When true the empty string is refused (names and paths that must be given). */
  readonly nonEmpty: boolean;
}
export interface IntegerSpec {
  readonly type: 'integer';
  readonly default: number;
  readonly doc: string;
  readonly min: number;
  readonly max: number;
}
export interface BooleanSpec {
  readonly type: 'boolean';
  readonly default: boolean;
  readonly doc: string;
}
export interface StringListSpec {
  readonly type: 'string[]';
  readonly default: readonly string[];
  readonly doc: string;
  /** Fewest items accepted (1 for lists that must never be empty, such as allowed algorithms). */
  readonly itemsMin: number;
}
export interface EnumSpec<V extends string = string> {
  readonly type: 'enum';
  readonly default: V;
  readonly doc: string;
  readonly values: readonly V[];
}
export type KeySpec = StringSpec | IntegerSpec | BooleanSpec | StringListSpec | EnumSpec;

export interface SectionSpec<K extends Record<string, KeySpec> = Record<string, KeySpec>> {
  readonly doc: string;
  readonly keys: K;
}

/** A value as the loader stores it, before it is placed in the typed `Config`. */
export type ConfigValue = string | number | boolean | readonly string[];

export function str(def: string, doc: string, opts: { nonEmpty?: boolean } = {}): StringSpec {
  return { type: 'string', default: def, doc, nonEmpty: opts.nonEmpty ?? false };
}

export function int(def: number, min: number, max: number, doc: string): IntegerSpec {
  return { type: 'integer', default: def, doc, min, max };
}

/** A duration in milliseconds, bounded by what Node timers can represent. */
export function ms(def: number, min: number, doc: string): IntegerSpec {
  return int(def, min, TIMER_MS_CEILING, doc);
}

export function bool(def: boolean, doc: string): BooleanSpec {
  return { type: 'boolean', default: def, doc };
}

export function list(def: readonly string[], doc: string, opts: { itemsMin?: number } = {}): StringListSpec {
  return { type: 'string[]', default: def, doc, itemsMin: opts.itemsMin ?? 0 };
}

export function oneOf<const V extends string>(
  values: readonly V[],
  def: NoInfer<V>,
  doc: string,
): EnumSpec<V> {
  return { type: 'enum', default: def, doc, values };
}

export function section<const K extends Record<string, KeySpec>>(doc: string, keys: K): SectionSpec<K> {
  return { doc, keys };
}

/** `transaction_body_bytes_max` → `transactionBodyBytesMax`, at the type level. */
export type CamelCase<S extends string> = S extends `${infer H}_${infer T}`
  ? `${H}${Capitalize<CamelCase<T>>}`
  : S;

/** The same conversion at run time; `schema.test.ts` checks both agree on every key. */
export function camelCase(snake: string): string {
  return snake.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** The TypeScript type a key's value has in `Config`. */
export type ValueOf<S extends KeySpec> =
  S extends EnumSpec<infer V>
    ? V
    : S extends IntegerSpec
      ? number
      : S extends BooleanSpec
        ? boolean
        : S extends StringListSpec
          ? readonly string[]
          : string;

/** The typed, read-only shape of one section, with camelCase field names. */
export type SectionValues<K extends Record<string, KeySpec>> = {
  readonly [P in keyof K & string as CamelCase<P>]: ValueOf<K[P]>;
};
