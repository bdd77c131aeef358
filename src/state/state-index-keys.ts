// The world state's own bookkeeping in the state store, beside the rows and outside the state root, in a
// key space the rows never use (0xF9, below the state tree's 0xFA): the secondary indexes as ordered key
// ranges, each table's row count, the child count of each parent of a counted index (`TableDef.counted`:
// a definition's holders), and the multiset root accumulator, so a start reads none of the rows.
//   0xF9 0x00 0x00                          → u8 format (3) ‖ accumulator 32 bytes BE (root.ts)
//   0xF9 0x00 ‖ tag                         → the table's row count, u64 BE
//   0xF9 0x00 ‖ tag ‖ index name ‖ 0x00 ‖ parent length u16 BE ‖ parent   → the parent's child count, u64 BE
//   0xF9 ‖ tag ‖ index name ‖ 0x00 ‖ parent length u16 BE ‖ parent ‖ child id   → empty
//   0xF9 ‖ tag ‖ index name ‖ 0x00 ‖ parent length u16 BE ‖ parent ‖ order key ‖ child id   → empty
// Names and ids are UTF-8. A parent's children are one contiguous range, sorted by the child's bytes;
// in an ordered index (a definition's holders by balance, `holdersByValue`) by a fixed-width order key
// first (ORDER_KEY_BYTES, big-endian, so byte order is value order), then the child's bytes.

import { assert } from '../util/assert.js';

export const STATE_INDEX_PREFIX = 0xf9;
/**
 * 3: the child counts of counted indexes are kept (2: the ordered holder index; 1: neither). A store of an
 * older format is loaded into the heap at open and its next block writes every entry and count.
 */
export const INDEX_FORMAT = 3;
export const STATE_INDEX_META_KEY = Uint8Array.of(STATE_INDEX_PREFIX, 0x00, 0x00);
export const EMPTY_VALUE = new Uint8Array(0);

const utf8 = new TextEncoder();
const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The key of table `tag`'s row count. */
export function tableCountKey(tag: number): Uint8Array {
  assert(Number.isInteger(tag) && tag >= 1 && tag <= 0xff, `table tag ${tag}`);
  return Uint8Array.of(STATE_INDEX_PREFIX, 0x00, tag);
}

/** The prefix of every child of `parent` in `index` of table `tag`. */
export function indexParentPrefix(tag: number, index: string, parent: string): Uint8Array {
  assert(Number.isInteger(tag) && tag >= 1 && tag <= 0xff, `table tag ${tag}`);
  const name = utf8.encode(index);
  const p = utf8.encode(parent);
  assert(p.length <= 0xffff, `index parent of ${p.length} bytes`);
  const out = new Uint8Array(2 + name.length + 1 + 2 + p.length);
  out[0] = STATE_INDEX_PREFIX;
  out[1] = tag;
  out.set(name, 2);
  let at = 2 + name.length;
  out[at++] = 0;
  out[at++] = p.length >>> 8;
  out[at++] = p.length & 0xff;
  out.set(p, at);
  return out;
}

/** The key of the child count of `parent` in `index` of table `tag` (a counted index, `TableDef.counted`). */
export function childCountKey(tag: number, index: string, parent: string): Uint8Array {
  const prefix = indexParentPrefix(tag, index, parent);
  const out = new Uint8Array(prefix.length + 1);
  out[0] = STATE_INDEX_PREFIX;
  out[1] = 0x00;
  out.set(prefix.subarray(1), 2);
  return out;
}

/** The key of one index entry: `child` linked to `parent` in `index` of table `tag`. */
export function indexEntryKey(tag: number, index: string, parent: string, child: string): Uint8Array {
  const prefix = indexParentPrefix(tag, index, parent);
  const c = utf8.encode(child);
  const out = new Uint8Array(prefix.length + c.length);
  out.set(prefix);
  out.set(c, prefix.length);
  return out;
}

/** Bytes of an ordered index's order key: a Numeric at scale 28 (below 2^128 · 10^28 < 2^224). */
export const ORDER_KEY_BYTES = 28;
const ORDER_SCALE = 28;

/** 10^(28 − scale) by scale: the factor that brings a Numeric to scale 28. */
const TO_ORDER_SCALE = Array.from({ length: ORDER_SCALE + 1 }, (_, s) => 10n ** BigInt(ORDER_SCALE - s));

/** A non-negative decimal's order key: its value at scale 28, big-endian; byte order is value order. */
export function numericOrderKey(n: { readonly mantissa: bigint; readonly scale: number }): Uint8Array {
  // A constant text: this runs for every balance written, a message built each time would cost more.
  assert(
    n.mantissa >= 0n && n.scale >= 0 && n.scale <= ORDER_SCALE,
    'order key of a negative or too fine value',
  );
  // Through hex: one conversion instead of 28 big-integer shifts (this runs for every balance write).
  const hex = (n.mantissa * TO_ORDER_SCALE[n.scale]!).toString(16);
  assert(hex.length <= 2 * ORDER_KEY_BYTES, 'order key out of range');
  const out = new Uint8Array(ORDER_KEY_BYTES);
  out.set(
    Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex'),
    ORDER_KEY_BYTES - Math.ceil(hex.length / 2),
  );
  return out;
}

/**
 * The value an order key holds, as a mantissa at `scale`: undefined when the value has more fraction digits
 * than `scale` keeps (the key of a balance stored at its definition's scale always fits it).
 */
export function orderKeyMantissa(key: Uint8Array, scale: number): bigint | undefined {
  assert(
    key.length === ORDER_KEY_BYTES && scale >= 0 && scale <= ORDER_SCALE,
    'order key or scale out of range',
  );
  const v = BigInt(`0x${Buffer.from(key.buffer, key.byteOffset, key.length).toString('hex')}`);
  const f = TO_ORDER_SCALE[scale]!;
  return v % f === 0n ? v / f : undefined;
}

/** Parent prefixes of ordered entries, by tag, index and parent (a few: one per asset definition written). */
const orderedPrefixes = new Map<string, Uint8Array>();
const ORDERED_PREFIXES_KEPT = 1024;

/** The key of one ordered entry: `child` under `parent` in `index` of table `tag`, at `order`. */
export function orderedEntryKey(
  tag: number,
  index: string,
  parent: string,
  order: Uint8Array,
  child: string,
): Uint8Array {
  assert(order.length === ORDER_KEY_BYTES, `an order key of ${order.length} bytes`);
  const k = `${tag}\u0000${index}\u0000${parent}`;
  let prefix = orderedPrefixes.get(k);
  if (prefix === undefined) {
    if (orderedPrefixes.size >= ORDERED_PREFIXES_KEPT) orderedPrefixes.clear();
    prefix = indexParentPrefix(tag, index, parent);
    orderedPrefixes.set(k, prefix);
  }
  const at = prefix.length + ORDER_KEY_BYTES;
  const out = Buffer.alloc(at + Buffer.byteLength(child, 'utf8'));
  out.set(prefix);
  out.set(order, prefix.length);
  out.write(child, at, 'utf8');
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

/** The child id of an entry key under `prefix`; undefined when not valid UTF-8 (never trusted blindly). */
export function childOf(key: Uint8Array, prefixLength: number): string | undefined {
  try {
    return utf8Strict.decode(key.subarray(prefixLength));
  } catch {
    return undefined;
  }
}

export function encodeCount(n: number): Uint8Array {
  assert(Number.isSafeInteger(n) && n >= 0, `table row count ${n}`);
  const out = new Uint8Array(8);
  const view = new DataView(out.buffer);
  view.setUint32(0, Math.floor(n / 2 ** 32));
  view.setUint32(4, n % 2 ** 32);
  return out;
}

/** A stored count, or undefined when the bytes are not one this version wrote. */
export function decodeCount(b: Uint8Array | undefined): number | undefined {
  if (b === undefined || b.length !== 8) return undefined;
  const view = new DataView(b.buffer, b.byteOffset, 8);
  const n = view.getUint32(0) * 2 ** 32 + view.getUint32(4);
  return Number.isSafeInteger(n) ? n : undefined;
}

export function encodeIndexMeta(sum: bigint): Uint8Array {
  assert(sum >= 0n && sum < 1n << 256n, 'root accumulator out of range');
  const out = new Uint8Array(33);
  out[0] = INDEX_FORMAT;
  let x = sum;
  for (let i = 32; i >= 1; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}

/** The stored accumulator, or undefined when absent or not of this format (the indexes are then rebuilt). */
export function decodeIndexMeta(b: Uint8Array | undefined): { sum: bigint } | undefined {
  if (b === undefined || b.length !== 33 || b[0] !== INDEX_FORMAT) return undefined;
  let sum = 0n;
  for (let i = 1; i <= 32; i++) sum = (sum << 8n) | BigInt(b[i]!);
  return { sum };
}
