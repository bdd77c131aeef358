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
