// Indexes over committed transactions, kept in the state store beside the world state but outside it
// (not part of the state root): transaction hash → (height, index), and account → its transactions.
// Keys start with bytes the world state never uses (state/README.md "Key scheme").

import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { Reader } from '../codec/reader.js';
import { Writer } from '../codec/writer.js';

export const TX_BY_HASH_PREFIX = 0xfe;
export const TX_BY_ACCOUNT_PREFIX = 0xfd;

export interface TxLocation {
  height: number;
  index: number;
}

export function txByHashKey(hash: Uint8Array): Uint8Array {
  const k = new Uint8Array(33);
  k[0] = TX_BY_HASH_PREFIX;
  k.set(hash, 1);
  return k;
}

export function encodeLocation(loc: TxLocation): Uint8Array {
  const w = new Writer(12);
  w.varuint(loc.height);
  w.varuint(loc.index);
  return w.finish().slice();
}

export function decodeLocation(bytes: Uint8Array): TxLocation {
  const r = new Reader(bytes, DEFAULT_DECODE_LIMITS);
  return { height: r.varuint(), index: r.varuint() };
}

const enc = new TextEncoder();

/** account prefix: 0xFD ‖ utf8(account) ‖ 0x00; entries sort by (height, index) big-endian after it. */
export function txByAccountPrefix(account: string): Uint8Array {
  const a = enc.encode(account);
  const k = new Uint8Array(a.length + 2);
  k[0] = TX_BY_ACCOUNT_PREFIX;
  k.set(a, 1);
  return k;
}

export function txByAccountKey(account: string, loc: TxLocation): Uint8Array {
  const p = txByAccountPrefix(account);
  const k = new Uint8Array(p.length + 12);
  k.set(p);
  const v = new DataView(k.buffer);
  v.setBigUint64(p.length, BigInt(loc.height), false);
  v.setUint32(p.length + 8, loc.index, false);
  return k;
}

export function locationFromAccountKey(key: Uint8Array): TxLocation {
  const v = new DataView(key.buffer, key.byteOffset, key.byteLength);
  return {
    height: Number(v.getBigUint64(key.length - 12, false)),
    index: v.getUint32(key.length - 4, false),
  };
}

export function isIndexKey(key: Uint8Array): boolean {
  return key[0] === TX_BY_HASH_PREFIX || key[0] === TX_BY_ACCOUNT_PREFIX;
}
