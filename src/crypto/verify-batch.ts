// The wire format between the verification pool and its workers, and the verification loop both
// sides share. One batch is one ArrayBuffer, transferred (not copied) to the worker:
//
//   u32 count
//   count × u32 message length, or SHAPE_INVALID for an item that is not well formed
//   count × (32-byte public key ‖ 64-byte signature); zeros for an item that is not well formed
//   the messages, concatenated
//
// Little-endian throughout. An item that is not well formed (wrong lengths, not bytes) is never
// given to libsodium: its answer is false, as `ed25519Verify` would answer inline.
import { ED25519_PUBLIC_KEY_BYTES, ED25519_SIGNATURE_BYTES, ed25519Verify } from './ed25519.js';

export interface VerifyItem {
  publicKey: Uint8Array;
  message: Uint8Array;
  signature: Uint8Array;
}

const SHAPE_INVALID = 0xffff_ffff;
const COUNT_BYTES = 4;
const LENGTH_BYTES = 4;
const KEY_SIG_BYTES = ED25519_PUBLIC_KEY_BYTES + ED25519_SIGNATURE_BYTES;

export function isWellFormed(item: VerifyItem): boolean {
  return (
    typeof item === 'object' &&
    item !== null &&
    item.publicKey instanceof Uint8Array &&
    item.publicKey.length === ED25519_PUBLIC_KEY_BYTES &&
    item.signature instanceof Uint8Array &&
    item.signature.length === ED25519_SIGNATURE_BYTES &&
    item.message instanceof Uint8Array &&
    item.message.length < SHAPE_INVALID
  );
}

/** The bytes one item adds to a batch (used to cut batches at a byte budget). */
export function itemBatchBytes(item: VerifyItem): number {
  return LENGTH_BYTES + KEY_SIG_BYTES + (isWellFormed(item) ? item.message.length : 0);
}

export function encodeBatch(items: readonly VerifyItem[]): ArrayBuffer {
  let total = COUNT_BYTES;
  for (const item of items) total += itemBatchBytes(item);
  const buffer = new ArrayBuffer(total);
  const view = new DataView(buffer);
  const bytes = new Uint8Array(buffer);
  view.setUint32(0, items.length, true);
  let keyAt = COUNT_BYTES + LENGTH_BYTES * items.length;
  let messageAt = keyAt + KEY_SIG_BYTES * items.length;
  items.forEach((item, i) => {
    const lengthAt = COUNT_BYTES + LENGTH_BYTES * i;
    if (isWellFormed(item)) {
      view.setUint32(lengthAt, item.message.length, true);
      bytes.set(item.publicKey, keyAt);
      bytes.set(item.signature, keyAt + ED25519_PUBLIC_KEY_BYTES);
      bytes.set(item.message, messageAt);
      messageAt += item.message.length;
    } else {
      view.setUint32(lengthAt, SHAPE_INVALID, true);
    }
    keyAt += KEY_SIG_BYTES;
  });
  return buffer;
}

/**
 * Verifies every item of an encoded batch: one byte per item, 1 for a valid signature. The batch
 * comes from our own encoder, so an inconsistent one is a bug and throws (the worker then dies
 * and the pool rejects the batch with a typed error).
 */
export function verifyBatch(buffer: ArrayBuffer): Uint8Array {
  const view = new DataView(buffer);
  const bytes = new Uint8Array(buffer);
  if (buffer.byteLength < COUNT_BYTES) throw new Error('verify batch: truncated header');
  const count = view.getUint32(0, true);
  let keyAt = COUNT_BYTES + LENGTH_BYTES * count;
  let messageAt = keyAt + KEY_SIG_BYTES * count;
  if (messageAt > buffer.byteLength) throw new Error('verify batch: truncated keys');
  const results = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const length = view.getUint32(COUNT_BYTES + LENGTH_BYTES * i, true);
    if (length !== SHAPE_INVALID) {
      if (messageAt + length > buffer.byteLength) throw new Error('verify batch: truncated message');
      const publicKey = bytes.subarray(keyAt, keyAt + ED25519_PUBLIC_KEY_BYTES);
      const signature = bytes.subarray(keyAt + ED25519_PUBLIC_KEY_BYTES, keyAt + KEY_SIG_BYTES);
      const message = bytes.subarray(messageAt, messageAt + length);
      results[i] = ed25519Verify(publicKey, message, signature) ? 1 : 0;
      messageAt += length;
    }
    keyAt += KEY_SIG_BYTES;
  }
  if (messageAt !== buffer.byteLength) throw new Error('verify batch: trailing bytes');
  return results;
}

export function verifyItemsInline(items: readonly VerifyItem[]): boolean[] {
  return items.map(
    (item) => isWellFormed(item) && ed25519Verify(item.publicKey, item.message, item.signature),
  );
}
