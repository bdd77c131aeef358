// Deterministic block chains for tests and the crash child: the bytes and hash of every height are
// a pure function of the height, so a separate process can be checked without sharing anything.

import { createHash } from 'node:crypto';
import type { BlockRecord } from './record.js';
import { HASH_BYTES } from './record.js';

/** Small segments so that the crash child rolls over (and hits that fail point) within a short run. */
export const CHILD_SEGMENT_BYTES_MAX = 8 * 1024;

export const GENESIS_PREV_HASH = new Uint8Array(HASH_BYTES);

export function blockBytes(height: number): Uint8Array {
  const length = (height * 7919) % 700;
  return Uint8Array.from({ length }, (_, i) => (height + i * 31) & 0xff);
}

export function nextRecord(height: number, prevHash: Uint8Array): BlockRecord {
  const bytes = blockBytes(height);
  const hash = createHash('sha256').update(prevHash).update(String(height)).update(bytes).digest();
  return { height, hash: new Uint8Array(hash), prevHash, bytes };
}

/** `count` records after (height, hash); pass 0 and GENESIS_PREV_HASH to start a chain. */
export function makeChain(afterHeight: number, afterHash: Uint8Array, count: number): BlockRecord[] {
  const out: BlockRecord[] = [];
  let prev = afterHash;
  for (let h = afterHeight + 1; h <= afterHeight + count; h++) {
    const r = nextRecord(h, prev);
    out.push(r);
    prev = r.hash;
  }
  return out;
}

export const STATE_FIXTURE_KEYS = 16;

/** The state a crash test expects after height h: every k/NN holds "v<h>", and only del/<h> exists. */
export function stateChangesFor(height: number): { key: string; value: Uint8Array | undefined }[] {
  const value = new TextEncoder().encode(`v${height}`);
  const changes: { key: string; value: Uint8Array | undefined }[] = [];
  for (let i = 0; i < STATE_FIXTURE_KEYS; i++)
    changes.push({ key: `k/${String(i).padStart(2, '0')}`, value });
  changes.push({ key: `del/${height}`, value: Uint8Array.of(1) });
  if (height > 1) changes.push({ key: `del/${height - 1}`, value: undefined });
  return changes;
}

export function stateHashFor(height: number): Uint8Array {
  return new Uint8Array(createHash('sha256').update(`state ${height}`).digest());
}
