// The persistent key scheme of the world state (README.md §Key scheme): one byte naming the table,
// then the row id as UTF-8. Keys sort bytewise, so a table is one contiguous range and the order of
// `changes()` and `entries()` does not depend on how the in-memory maps were built.

// The table ids are in the core's tag tables (model/tags.ts TABLE_TAGS), with every other wire position.
export { TABLE_TAGS, type TableName } from '../model/tags.js';

/** Singleton tables (parameters, meta) hold one row under the empty id. */
export const SINGLETON_ID = '';

const utf8 = new TextEncoder();
const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function stateKey(tag: number, id: string): Uint8Array {
  const idBytes = utf8.encode(id);
  const key = new Uint8Array(1 + idBytes.length);
  key[0] = tag;
  key.set(idBytes, 1);
  return key;
}

/** Splits a stored key; undefined when it is empty or its id is not valid UTF-8 (never trusted blindly). */
export function parseStateKey(key: Uint8Array): { tag: number; id: string } | undefined {
  if (key.length === 0) return undefined;
  try {
    return { tag: key[0]!, id: utf8Strict.decode(key.subarray(1)) };
  } catch {
    return undefined;
  }
}
