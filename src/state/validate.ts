// Defensive checks on instruction arguments. Decoded transactions already satisfy them (the codec
// enforces names and sizes), but instructions built in-process (genesis, tests, the SDK) have not been
// through a decoder, and a row the codec cannot encode or decode would corrupt the persisted state.

import type { Json } from '../codec/codec.js';
import { canonicalJson } from '../codec/json.js';
import { METADATA_ENTRIES_MAX, type Metadata } from '../model/metadata.js';
import { nameProblem } from '../model/names.js';

/** Byte limit of one metadata value (model/metadata.ts MetadataCodec). */
export const METADATA_VALUE_BYTES_MAX = 16 * 1024;
/** Byte limit of a permission payload (model/permissions.ts PermissionCodec). */
export const PERMISSION_PAYLOAD_BYTES_MAX = 4096;
const utf8 = new TextEncoder();

export function jsonValueProblem(v: Json, bytesMax: number): string | undefined {
  let text: string;
  try {
    text = canonicalJson(v);
  } catch {
    return 'not a finite JSON value';
  }
  return utf8.encode(text).length > bytesMax ? `larger than ${bytesMax} bytes` : undefined;
}

export function metadataProblem(m: Metadata): string | undefined {
  if (m.size > METADATA_ENTRIES_MAX) return `more than ${METADATA_ENTRIES_MAX} entries`;
  for (const [k, v] of m) {
    const p = nameProblem(k) ?? jsonValueProblem(v, METADATA_VALUE_BYTES_MAX);
    if (p !== undefined) return `metadata ${k}: ${p}`;
  }
  return undefined;
}

/** A deep copy, so a caller keeping the instruction cannot change the stored row. */
export function copyMetadata(m: Metadata): Metadata {
  return new Map([...m].map(([k, v]) => [k, structuredClone(v)]));
}
