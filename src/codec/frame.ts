// Frames (docs/codec.md §1): a 22-byte header then the payload.
//   magic "TRNC" | version u8 | flags u8 | schema hash 8 bytes | payload length u32 LE | CRC-32C u32 LE
// Codec request bodies may also be "bare": one version byte followed by the payload (no hash, no checksum).

import { assert } from '../util/assert.js';
import { bytesEqual, toHex } from '../util/hex.js';
import type { Codec } from './codec.js';
import { crc32c } from './crc32c.js';
import { CodecError } from './errors.js';
import type { DecodeLimits } from './limits.js';
import { Reader } from './reader.js';
import type { SchemaRegistry } from './registry.js';
import { Writer } from './writer.js';

export const FRAME_MAGIC = new Uint8Array([0x54, 0x52, 0x4e, 0x43]); // "TRNC"
export const CODEC_VERSION = 1;
export const FRAME_HEADER_BYTES = 22;
/** No flags are defined in version 1; any set bit is refused (docs/codec.md §1.3). */
export const KNOWN_FLAGS = 0x00;

export type DecodeResult<T> = { ok: true; value: T } | { ok: false; error: CodecError };

/** Encodes a bare payload (no header). */
export function encode<T>(codec: Codec<T>, value: T, sizeHint = 256): Uint8Array {
  const w = new Writer(sizeHint);
  codec.encode(w, value);
  return w.finish();
}

/** Decodes a bare payload; the whole input must be consumed. */
export function decode<T>(codec: Codec<T>, bytes: Uint8Array, limits: DecodeLimits): DecodeResult<T> {
  return decodeWith(bytes, limits, (r) => codec.decode(r));
}

/**
 * Decodes a bare payload with a hand-written reader that must consume the whole input (a codec's decode
 * that also notes positions, e.g. model/block-spans.ts); errors as `decode`.
 */
export function decodeWith<T>(
  bytes: Uint8Array,
  limits: DecodeLimits,
  read: (r: Reader) => T,
): DecodeResult<T> {
  try {
    const r = new Reader(bytes, limits);
    const value = read(r);
    if (r.pos !== bytes.length) {
      return {
        ok: false,
        error: new CodecError('codec_trailing_bytes', `${bytes.length - r.pos} trailing bytes`, r.pos),
      };
    }
    return { ok: true, value };
  } catch (e) {
    if (e instanceof CodecError) return { ok: false, error: e };
    if (e instanceof RangeError)
      return { ok: false, error: new CodecError('codec_invalid_value', e.message) };
    throw e;
  }
}

/** Encodes a framed message of a registered type. */
export function encodeFrame<T>(registry: SchemaRegistry, codec: Codec<T>, value: T): Uint8Array {
  if (codec.name === undefined) throw new Error('only named types can be framed');
  const w = new Writer(512);
  w.bytes(FRAME_MAGIC);
  w.u8(CODEC_VERSION);
  w.u8(0);
  w.bytes(registry.schemaHash(codec.name));
  w.u32(0);
  w.u32(0);
  codec.encode(w, value);
  const out = w.finish();
  const payloadLength = out.length - FRAME_HEADER_BYTES;
  // The length field is a u32: a larger payload would be framed with a wrapped length.
  assert(
    payloadLength >= 0 && payloadLength <= 0xffffffff,
    `frame: payload of ${payloadLength} bytes does not fit its length field`,
  );
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  view.setUint32(14, payloadLength, true);
  view.setUint32(18, crc32c(out.subarray(FRAME_HEADER_BYTES)), true);
  return out;
}

/** A failed unframe (a function, not a closure per call: every submission is unframed). */
function fail(code: CodecError['code'], message: string, at?: number): { ok: false; error: CodecError } {
  return { ok: false, error: new CodecError(code, message, at) };
}

/** Splits a frame into its checked payload, verifying magic, version, flags, schema hash, length, checksum. */
export function unframe(
  registry: SchemaRegistry,
  typeName: string,
  bytes: Uint8Array,
): { ok: true; payload: Uint8Array } | { ok: false; error: CodecError } {
  // The first byte decides (docs/codec.md §1.4): the version byte of a bare payload, or 'T' opening a frame.
  // Anything else reads as the version byte of a bare form this node does not support.
  if (bytes.length === 0) return fail('codec_truncated', 'empty body', 0);
  if (bytes[0] === CODEC_VERSION) return { ok: true, payload: bytes.subarray(1) };
  if (bytes[0] !== FRAME_MAGIC[0]) return fail('codec_unsupported_version', `version byte ${bytes[0]}`, 0);
  const magic = Math.min(bytes.length, FRAME_MAGIC.length);
  if (!bytesEqual(bytes.subarray(0, magic), FRAME_MAGIC.subarray(0, magic)))
    return fail('codec_bad_magic', 'bad magic', 0);
  if (bytes.length < FRAME_HEADER_BYTES) {
    return fail('codec_truncated', `frame header needs ${FRAME_HEADER_BYTES} bytes`, bytes.length);
  }
  if (bytes[4] !== CODEC_VERSION) return fail('codec_unsupported_version', `codec version ${bytes[4]}`, 4);
  if ((bytes[5]! & ~KNOWN_FLAGS) !== 0)
    return fail('codec_unknown_flags', `unknown flags 0x${bytes[5]!.toString(16)}`, 5);
  const expected = registry.schemaHash(typeName);
  if (!bytesEqual(bytes.subarray(6, 14), expected)) {
    return fail(
      'codec_schema_mismatch',
      `schema hash ${toHex(bytes.subarray(6, 14))} is not ${typeName} (${toHex(expected)})`,
      6,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(14, true);
  const actual = bytes.length - FRAME_HEADER_BYTES;
  if (length > actual)
    return fail('codec_truncated', `payload length ${length}, ${actual} bytes present`, 14);
  if (length < actual)
    return fail(
      'codec_trailing_bytes',
      `${actual - length} bytes after the payload`,
      FRAME_HEADER_BYTES + length,
    );
  const payload = bytes.subarray(FRAME_HEADER_BYTES);
  if (crc32c(payload) !== view.getUint32(18, true))
    return fail('codec_checksum_mismatch', 'payload checksum mismatch', 18);
  return { ok: true, payload };
}

/** Decodes a framed (or bare) message of a registered type. */
export function decodeFrame<T>(
  registry: SchemaRegistry,
  codec: Codec<T>,
  bytes: Uint8Array,
  limits: DecodeLimits,
): DecodeResult<T> {
  const u = unframe(registry, codec.name!, bytes);
  if (!u.ok) return u;
  return decode(codec, u.payload, limits);
}
