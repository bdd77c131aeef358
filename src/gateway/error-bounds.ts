// Keeps every error body within the limits of its wire type (views/common.ts `ErrorBody`: message at most
// 1 KiB, details at most 64 KiB of JSON), whatever a handler put in it. Handlers echo client input in
// `details` and `message` (a filter path, a sort text, a query engine message), and such input can be as
// large as the body limit; unbounded, a codec error answer would be refused by every client's decoder
// (`codec_length_limit`) and a JSON one would amplify the client's input. Found by the route fuzzer
// (test/gateway/bad-input.test.ts, a 70 KB filter key).

import type { ErrorBody } from './errors.js';

/** The `ErrorBody` message limit, in UTF-8 bytes. */
export const ERROR_MESSAGE_BYTES_MAX = 1024;
/** Canonical JSON of `details`, in UTF-8 bytes; well under the codec's 64 KiB so nesting never matters. */
export const ERROR_DETAILS_BYTES_MAX = 16 * 1024;
/** Strings in oversized details are cut to this many characters. */
export const ERROR_DETAIL_STRING_CHARS_MAX = 256;
/** Deeper parts of oversized details are replaced by a marker. */
const ERROR_DETAILS_DEPTH_MAX = 8;
const CUT = '…';

function cutUtf8(text: string, bytesMax: number): string {
  if (Buffer.byteLength(text) <= bytesMax) return text;
  // Leave room for the marker and a replacement character where a code point is split.
  return `${Buffer.from(text)
    .subarray(0, bytesMax - 8)
    .toString('utf8')}${CUT}`;
}

function shrink(value: unknown, depth: number): unknown {
  if (typeof value === 'string')
    return value.length > ERROR_DETAIL_STRING_CHARS_MAX
      ? `${value.slice(0, ERROR_DETAIL_STRING_CHARS_MAX)}${CUT}`
      : value;
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= ERROR_DETAILS_DEPTH_MAX) return CUT;
  if (Array.isArray(value)) return value.slice(0, 32).map((v) => shrink(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value).slice(0, 32))
    out[shrink(k, depth + 1) as string] = shrink(v, depth + 1);
  return out;
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}

/** `body` with its message and details cut to the ErrorBody limits (unchanged when already within). */
export function boundErrorBody(body: ErrorBody): ErrorBody {
  const message = cutUtf8(body.message, ERROR_MESSAGE_BYTES_MAX);
  if (jsonBytes(body.details) <= ERROR_DETAILS_BYTES_MAX && message === body.message) return body;
  let details = body.details;
  if (jsonBytes(details) > ERROR_DETAILS_BYTES_MAX) {
    details = shrink(details, 0) as ErrorBody['details'];
    if (jsonBytes(details) > ERROR_DETAILS_BYTES_MAX) details = { truncated: true };
    else details = { ...details, truncated: true };
  }
  return { code: body.code, message, details };
}
