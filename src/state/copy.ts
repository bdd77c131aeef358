// Deep copies of model values (README.md "Invariants": read APIs and events are copies, so no caller can
// reach a stored row). Model values are plain data: primitives, bigints, arrays, plain objects, Maps and
// byte arrays. Copying them by hand is several times cheaper than structuredClone, which serialises the
// whole graph; this runs for every event of every transaction and every read.

/** A deep copy of a plain model value; anything else (never produced by the model) goes to structuredClone. */
export function deepCopy<T>(v: T): T {
  return copyValue(v, 0) as T;
}

/** Model values nest a few levels (JSON metadata at most 64); deeper graphs fall back to structuredClone. */
const COPY_DEPTH_MAX = 128;

function copyValue(v: unknown, depth: number): unknown {
  if (typeof v !== 'object' || v === null) return v; // primitives, bigint; functions never occur
  if (depth > COPY_DEPTH_MAX) return structuredClone(v);
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = copyValue(v[i], depth + 1);
    return out;
  }
  if (v instanceof Uint8Array) return v.slice();
  if (v instanceof Map) {
    const out = new Map();
    for (const [k, x] of v) out.set(copyValue(k, depth + 1), copyValue(x, depth + 1));
    return out;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype) return structuredClone(v);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    // defineProperty, not assignment: a JSON key such as "__proto__" must stay an own property.
    const x = copyValue((v as Record<string, unknown>)[k], depth + 1);
    if (k === '__proto__')
      Object.defineProperty(out, k, { value: x, enumerable: true, writable: true, configurable: true });
    else out[k] = x;
  }
  return out;
}
