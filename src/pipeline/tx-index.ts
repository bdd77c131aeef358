// Indexes over committed transactions, kept in the state store beside the world state but outside it
// (not part of the state root): transaction hash → (height, index), and account → its transactions.
// Keys start with bytes the world state never uses (state/README.md "Key scheme").

import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { Reader } from '../codec/reader.js';
import { STATE_TREE_PREFIX } from '../state/merkle/nodes.js';
import { assert } from '../util/assert.js';

export const TX_BY_HASH_PREFIX = 0xfe;
export const TX_BY_ACCOUNT_PREFIX = 0xfd;
/** Asset definition → transactions and asset → transactions (same key layout as the account index). */
export const TX_BY_DEFINITION_PREFIX = 0xfc;
export const TX_BY_ASSET_PREFIX = 0xfb;
/** The lowest index prefix: every key below it is world state. */
/** The state tree's nodes (0xFA, state/merkle/nodes.ts) lie below the indexes, outside the world state too. */
export const INDEX_PREFIX_MIN = STATE_TREE_PREFIX;

export interface TxLocation {
  height: number;
  index: number;
}

export function txByHashKey(hash: Uint8Array): Uint8Array {
  // A shorter hash would leave zeros in the key (another transaction's key), a longer one throw.
  assert(hash.length === 32, 'transaction index key of a hash that is not 32 bytes');
  const k = new Uint8Array(33);
  k[0] = TX_BY_HASH_PREFIX;
  k.set(hash, 1);
  return k;
}

/** Two canonical LEB128 varints (docs/codec.md §2): height then index, in an array of exactly their size. */
export function encodeLocation(loc: TxLocation): Uint8Array {
  assert(
    Number.isSafeInteger(loc.height) && loc.height >= 0 && Number.isSafeInteger(loc.index) && loc.index >= 0,
    `transaction location ${loc.height}/${loc.index}`,
  );
  const out = new Uint8Array(varuintSize(loc.height) + varuintSize(loc.index));
  const end = writeVaruint(out, writeVaruint(out, 0, loc.height), loc.index);
  assert(end === out.length, `transaction location: wrote ${end} of ${out.length} bytes`);
  return out;
}

function varuintSize(v: number): number {
  assert(Number.isSafeInteger(v) && v >= 0, 'varuint size of a negative or unsafe integer');
  let n = 1;
  for (let x = v; x >= 0x80; x = Math.floor(x / 128)) n++;
  return n;
}

/** Writes `v` at `at`; returns the position after it. */
function writeVaruint(out: Uint8Array, at: number, v: number): number {
  let x = v;
  let p = at;
  while (x >= 0x80) {
    out[p++] = (x % 128) | 0x80;
    x = Math.floor(x / 128);
  }
  out[p++] = x;
  // Sized by varuintSize: the last byte written is inside the array (a typed array drops writes past it).
  assert(p <= out.length && p - at === varuintSize(v), 'varuint written past its sized array');
  return p;
}

export function decodeLocation(bytes: Uint8Array): TxLocation {
  const r = new Reader(bytes, DEFAULT_DECODE_LIMITS);
  const loc = { height: r.varuint(), index: r.varuint() };
  // Two varints and nothing after them (encodeLocation's layout).
  assert(r.remaining() === 0, `tx index: ${r.remaining()} bytes after a location`);
  return loc;
}

const enc = new TextEncoder();

/** account prefix: 0xFD ‖ utf8(account) ‖ 0x00; entries sort by (height, index) big-endian after it. */
export function txByAccountPrefix(account: string): Uint8Array {
  return txIndexPrefix(TX_BY_ACCOUNT_PREFIX, account);
}

/** tag ‖ utf8(id) ‖ 0x00 (ids never contain a NUL, so no id's range holds another's). */
export function txIndexPrefix(tag: number, id: string): Uint8Array {
  // The history indexes (account, definition, asset): the hash index has no id and another layout.
  assert(
    tag === TX_BY_ACCOUNT_PREFIX || tag === TX_BY_DEFINITION_PREFIX || tag === TX_BY_ASSET_PREFIX,
    `history index prefix with tag ${tag}`,
  );
  // Ids are ASCII in practice: write those directly (TextEncoder costs more than the key).
  let ascii = true;
  for (let i = 0; i < id.length && ascii; i++) ascii = id.charCodeAt(i) < 0x80;
  const a = ascii ? undefined : enc.encode(id);
  const n = a === undefined ? id.length : a.length;
  const k = new Uint8Array(n + 2);
  k[0] = tag;
  if (a !== undefined) k.set(a, 1);
  else for (let i = 0; i < n; i++) k[i + 1] = id.charCodeAt(i);
  return k;
}

export function txByAccountKey(account: string, loc: TxLocation): Uint8Array {
  // Ids hold no NUL: the 0x00 ending the prefix is what keeps one account's range apart from another's.
  assert(!account.includes('\0'), 'tx index: an account id with a NUL');
  return txByAccountKeyAt(txByAccountPrefix(account), loc);
}

/** `txByAccountKey` from the account's prefix (callers writing many keys of one account reuse it). */
export function txByAccountKeyAt(prefix: Uint8Array, loc: TxLocation): Uint8Array {
  const n = prefix.length;
  // A height below 2^53 and an index within a u32: the key orders exactly as (height, index).
  assert(
    Number.isSafeInteger(loc.height) &&
      loc.height >= 1 &&
      Number.isSafeInteger(loc.index) &&
      loc.index >= 0 &&
      loc.index <= 0xffff_ffff,
    'history key at a height or index out of range',
  );
  const k = new Uint8Array(n + 12);
  k.set(prefix);
  // Height as u64 and index as u32, big-endian; a height is below 2^53, so two u32 halves suffice.
  writeU32BE(k, n, Math.floor(loc.height / 0x1_0000_0000));
  writeU32BE(k, n + 4, loc.height >>> 0);
  writeU32BE(k, n + 8, loc.index);
  return k;
}

function writeU32BE(out: Uint8Array, at: number, v: number): void {
  // A height's u32 halves or an index: a larger value would be stored truncated.
  assert(v >= 0 && v <= 0xffff_ffff && at + 4 <= out.length, 'u32 out of range or past the key');
  out[at] = v >>> 24;
  out[at + 1] = (v >>> 16) & 0xff;
  out[at + 2] = (v >>> 8) & 0xff;
  out[at + 3] = v & 0xff;
}

export function locationFromAccountKey(key: Uint8Array): TxLocation {
  // A history key is its prefix (tag, at least a NUL) and 12 location bytes.
  assert(key.length >= 14, `history key of ${key.length} bytes`);
  const v = new DataView(key.buffer, key.byteOffset, key.byteLength);
  return {
    height: Number(v.getBigUint64(key.length - 12, false)),
    index: v.getUint32(key.length - 4, false),
  };
}
