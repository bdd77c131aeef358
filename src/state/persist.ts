// Loading the persisted form (README.md §Key scheme). Entries come from disk, so nothing about them is
// asserted: every problem is a StateError naming the key. Values must be in canonical form (re-encoding
// gives the same bytes) because the root is later updated by re-encoding rows.

import { decode } from '../codec/frame.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { bytesEqual, toHex } from '../util/hex.js';
import { StateError } from './errors.js';
import { parseStateKey, type TableName } from './keys.js';
import { addLeaf, leafValue } from './root.js';
import type { BaseTable } from './table.js';
import { TABLES, tableNames } from './tables.js';

export interface StateEntry {
  key: Uint8Array;
  value: Uint8Array;
}

let byTag: Map<number, TableName> | undefined;
/** Table name by key tag (built on first use: a module's tables are declared by then). */
function tableByTag(tag: number): TableName | undefined {
  if (byTag === undefined) byTag = new Map(tableNames().map((n) => [TABLES[n].tag, n]));
  return byTag.get(tag);
}

function bad(key: Uint8Array, why: string): StateError {
  return new StateError('state_invalid_entry', `state entry ${toHex(key)}: ${why}`, { key: toHex(key) });
}

/** A Map that is empty for good: what every loaded row with empty metadata shares (see shareEmptyMaps). */
class EmptyMap<K, V> extends Map<K, V> {
  override set(): this {
    throw new TypeError('a row is immutable: its shared empty map cannot be changed');
  }
  override delete(): boolean {
    throw new TypeError('a row is immutable: its shared empty map cannot be changed');
  }
  override clear(): void {
    throw new TypeError('a row is immutable: its shared empty map cannot be changed');
  }
}
export const EMPTY_ROW_MAP: ReadonlyMap<never, never> = Object.freeze(new EmptyMap<never, never>());

/**
 * The row with each empty Map among its own fields (an account's metadata, a domain's, an NFT's content)
 * replaced by EMPTY_ROW_MAP. An empty Map costs about 240 bytes, once per account of a million-account
 * state; rows are immutable (README.md "Invariants": replaced, never edited, readers get
 * copies), and the shared map throws if anything ever tried to change it.
 */
export function shareEmptyMaps<V>(row: V): V {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return row;
  let out: Record<string, unknown> | undefined;
  for (const [k, x] of Object.entries(row)) {
    if (x instanceof Map && x.size === 0 && x !== (EMPTY_ROW_MAP as unknown)) {
      out ??= { ...(row as Record<string, unknown>) };
      out[k] = EMPTY_ROW_MAP;
    }
  }
  return (out ?? row) as V;
}

/** Puts every entry into `tables`; returns the root accumulator of the loaded entries. */
export function loadEntries(
  tableOf: (name: TableName) => BaseTable<unknown>,
  entries: Iterable<StateEntry>,
): bigint {
  let sum = 0n;
  for (const { key, value } of entries) {
    const parsed = parseStateKey(key);
    if (parsed === undefined) throw bad(key, 'malformed key');
    const name = tableByTag(parsed.tag);
    if (name === undefined) throw bad(key, `unknown table tag ${parsed.tag}`);
    const table = tableOf(name);
    if (table.get(parsed.id) !== undefined) throw bad(key, 'duplicate key');
    const r = decode(table.def.codec, value, DEFAULT_DECODE_LIMITS);
    if (!r.ok) throw bad(key, `undecodable value (${r.error.code}: ${r.error.message})`);
    const idOf = table.def.idOf;
    if (idOf !== undefined && idOf(r.value) !== parsed.id) throw bad(key, 'value id differs from key id');
    const problem = table.def.check?.(parsed.id, r.value);
    if (problem !== undefined) throw bad(key, problem);
    if (!bytesEqual(table.encodeValue(r.value), value)) throw bad(key, 'value not in canonical form');
    // The row's own id string keys it (equal to the key's, checked above), so a row holds one copy.
    table.put(idOf === undefined ? parsed.id : idOf(r.value), shareEmptyMaps(r.value));
    sum = addLeaf(sum, leafValue(key, value));
  }
  return sum;
}
