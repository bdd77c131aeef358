// The value of a history index entry (tx-index.ts: account, asset definition and asset → transactions):
// what history filters need without reading the block (§1.4). Layout:
//   hash (32) ‖ flags (1; bit 0 = rejected) ‖ block time in ms (u64 big-endian) ‖ kinds bitset
// where bit t of the bitset (byte t >> 3, bit t & 7) is set when an instruction with variant tag t
// (model/instructions.ts INSTRUCTION_KINDS) is in the transaction. Entries written before these
// fields existed hold the hash alone: they decode with `summary` undefined (`torana rebuild` rewrites them).

import { INSTRUCTION_KINDS, type Instruction, type InstructionKind } from '../model/instructions.js';
import { assert } from '../util/assert.js';

const HASH_BYTES = 32;
const FIXED_BYTES = HASH_BYTES + 1 + 8;
const FLAG_REJECTED = 1;
const KIND_BYTES = Math.ceil(INSTRUCTION_KINDS.length / 8);
const TAG_OF = new Map<string, number>(INSTRUCTION_KINDS.map((k, t) => [k, t]));

export interface TxSummary {
  ok: boolean;
  blockTimeMs: number;
  /** The kinds bitset (see the file comment); test with `hasKind`. */
  kinds: Uint8Array;
}

export interface IndexValue {
  hash: Uint8Array;
  summary: TxSummary | undefined;
}

/** The kinds bitset of a transaction's instructions. */
export function kindsOf(instructions: readonly Instruction[]): Uint8Array {
  const out = new Uint8Array(KIND_BYTES);
  for (const i of instructions) {
    const t = TAG_OF.get(i.kind);
    assert(t !== undefined, `index summary: instruction kind ${i.kind} has no tag`);
    out[t >> 3]! |= 1 << (t & 7);
  }
  return out;
}

/** The variant tag of a kind name, or undefined when no instruction has that name. */
export function kindTag(kind: string): number | undefined {
  const tag = TAG_OF.get(kind);
  assert(tag === undefined || INSTRUCTION_KINDS[tag] === kind, `instruction kind ${kind} at tag ${tag}`);
  return tag;
}

export function hasKind(kinds: Uint8Array, tag: number): boolean {
  // Tags come from kindTag (a known kind), never from raw input.
  assert(Number.isInteger(tag) && tag >= 0 && tag < INSTRUCTION_KINDS.length, `instruction kind tag ${tag}`);
  return ((kinds[tag >> 3] ?? 0) & (1 << (tag & 7))) !== 0;
}

/** Kind names of a bitset, in tag order. */
export function kindNames(kinds: Uint8Array): InstructionKind[] {
  return INSTRUCTION_KINDS.filter((_, t) => hasKind(kinds, t));
}

export function encodeIndexValue(hash: Uint8Array, s: TxSummary): Uint8Array {
  // decodeIndexValue reads fixed offsets: the fields must have exactly their sizes.
  assert(
    hash.length === HASH_BYTES &&
      s.kinds.length === KIND_BYTES &&
      Number.isSafeInteger(s.blockTimeMs) &&
      s.blockTimeMs >= 0,
    `index value: ${hash.length}-byte hash, ${s.kinds.length} kind bytes, time ${s.blockTimeMs}`,
  );
  const out = new Uint8Array(FIXED_BYTES + s.kinds.length);
  out.set(hash);
  out[HASH_BYTES] = s.ok ? 0 : FLAG_REJECTED;
  // A block time is below 2^53: two u32 halves, big-endian (no DataView: this runs per committed tx).
  writeU32BE(out, HASH_BYTES + 1, Math.floor(s.blockTimeMs / 0x1_0000_0000));
  writeU32BE(out, HASH_BYTES + 5, s.blockTimeMs >>> 0);
  out.set(s.kinds, FIXED_BYTES);
  return out;
}

function writeU32BE(out: Uint8Array, at: number, v: number): void {
  // Callers split a safe integer into u32 halves: a larger half would be stored truncated.
  assert(v >= 0 && v <= 0xffff_ffff && at + 4 <= out.length, 'u32 out of range or past the value');
  out[at] = v >>> 24;
  out[at + 1] = (v >>> 16) & 0xff;
  out[at + 2] = (v >>> 8) & 0xff;
  out[at + 3] = v & 0xff;
}

export function decodeIndexValue(value: Uint8Array): IndexValue {
  const hash = value.subarray(0, HASH_BYTES);
  // An entry holds at least the transaction's hash (older entries hold nothing more).
  assert(hash.length === HASH_BYTES, `index value of ${value.length} bytes`);
  if (value.length < FIXED_BYTES) return { hash, summary: undefined };
  const v = new DataView(value.buffer, value.byteOffset, value.byteLength);
  return {
    hash,
    summary: {
      ok: (value[HASH_BYTES]! & FLAG_REJECTED) === 0,
      blockTimeMs: v.getUint32(HASH_BYTES + 1, false) * 0x1_0000_0000 + v.getUint32(HASH_BYTES + 5, false),
      kinds: value.subarray(FIXED_BYTES),
    },
  };
}
