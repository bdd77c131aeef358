// Decoding limits (docs/codec.md §6). Lengths are checked against these before anything is allocated.

export interface DecodeLimits {
  /** Largest byte string or UTF-8 string one field may hold. */
  readonly bytesMax: number;
  /** Largest element count of one sequence or map. */
  readonly itemsMax: number;
  /** Deepest nesting of compound values (struct, enum, option, sequence, map). */
  readonly depthMax: number;
}

export const DEFAULT_DECODE_LIMITS: DecodeLimits = {
  bytesMax: 16 * 1024 * 1024,
  itemsMax: 100_000,
  depthMax: 32,
};
