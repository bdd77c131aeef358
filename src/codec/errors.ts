// Typed decoding errors (docs/codec.md §7). Every way bytes can be wrong has its own stable code.

export type CodecErrorCode =
  | 'codec_truncated'
  | 'codec_trailing_bytes'
  | 'codec_overlong_varint'
  | 'codec_varint_overflow'
  | 'codec_bad_magic'
  | 'codec_unsupported_version'
  | 'codec_unknown_flags'
  | 'codec_schema_mismatch'
  | 'codec_checksum_mismatch'
  | 'codec_length_limit'
  | 'codec_depth_limit'
  | 'codec_invalid_tag'
  | 'codec_invalid_bool'
  | 'codec_invalid_utf8'
  | 'codec_unsorted_map'
  | 'codec_invalid_value'
  | 'codec_invalid_json';

export class CodecError extends Error {
  override readonly name = 'CodecError';
  constructor(
    readonly code: CodecErrorCode,
    message: string,
    /** Byte offset in the payload (decoding) or JSON path (JSON mapping) where the problem was found. */
    readonly at?: number | string,
  ) {
    super(message);
  }
}

export function isCodecError(e: unknown): e is CodecError {
  return e instanceof CodecError;
}
