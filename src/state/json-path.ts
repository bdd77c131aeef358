// Field paths over the snake_case JSON form of query items: "id", "total_quantity",
// "metadata.<key>", "header.height", "batch.0". Metadata keys may themselves contain '.', so at each
// object the longest run of segments naming an existing key wins (and is final).

export const FIELD_PATH_CHARS_MAX = 512;
/** Bounds the work of resolving one path (each level may try every longer run of segments). */
export const FIELD_PATH_SEGMENTS_MAX = 16;

export type Resolved = { found: true; value: unknown } | { found: false };

/** Segments of a path, or undefined when it is empty, too long, has too many or an empty segment. */
export function parsePath(path: unknown): string[] | undefined {
  if (typeof path !== 'string' || path.length === 0 || path.length > FIELD_PATH_CHARS_MAX) return undefined;
  const segments = path.split('.');
  if (segments.length > FIELD_PATH_SEGMENTS_MAX) return undefined;
  return segments.every((s) => s.length > 0) ? segments : undefined;
}

export function resolvePath(value: unknown, segments: readonly string[], from = 0): Resolved {
  if (from === segments.length) return { found: true, value };
  if (Array.isArray(value)) {
    const seg = segments[from]!;
    if (!/^(0|[1-9][0-9]{0,8})$/.test(seg)) return { found: false };
    const i = Number(seg);
    return i < value.length ? resolvePath(value[i], segments, from + 1) : { found: false };
  }
  if (typeof value !== 'object' || value === null) return { found: false };
  const obj = value as Record<string, unknown>;
  for (let to = segments.length; to > from; to--) {
    const k = to === from + 1 ? segments[from]! : segments.slice(from, to).join('.');
    // No backtracking to shorter keys: keeps resolution linear whatever keys an attacker stores.
    if (Object.hasOwn(obj, k)) return resolvePath(obj[k], segments, to);
  }
  return { found: false };
}
