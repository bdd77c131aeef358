// Canonical JSON text (docs/codec.md §3.7): object keys sorted by UTF-16 code units, no whitespace,
// numbers in JavaScript's shortest round-trip form. Non-finite numbers are refused.

import type { Json } from './codec.js';
import { CodecError } from './errors.js';

export function canonicalJson(v: Json): string {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new CodecError('codec_invalid_value', 'non-finite number in JSON value');
    return JSON.stringify(v);
  }
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (typeof v === 'object') {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k] as Json)}`).join(',')}}`;
  }
  throw new CodecError('codec_invalid_value', `not a JSON value: ${typeof v}`);
}

/**
 * Deepest nesting of arrays and objects in a JSON value (docs/codec.md §3.7, §6). Bounded explicitly so
 * that whether a value is accepted never depends on the JavaScript stack size of the node decoding it.
 */
export const JSON_DEPTH_MAX = 32;

/** The deepest nesting of arrays and objects in JSON text: a linear scan that skips string contents. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) max = Math.max(max, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}
