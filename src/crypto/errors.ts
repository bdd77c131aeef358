// Typed errors of the crypto layer. Verification never throws on untrusted
// bytes (it answers false); these errors are for misuse by local callers (a wrong seed length),
// unusable key files, and the verification pool's lifecycle.

export type CryptoErrorCode =
  /** A secret seed or key material of the wrong length or form was given by a local caller. */
  | 'invalid_secret'
  /** A key value whose algorithm is unknown or whose byte length does not match its algorithm. */
  | 'invalid_key'
  /** BLS aggregation got no inputs, wrong lengths, or a point that fails validation. */
  | 'bls_invalid_input'
  /** A key file could not be read (missing, permissions, not a file). */
  | 'key_file_unreadable'
  /** A key file could not be written (directory missing, permissions, disk full). */
  | 'key_file_unwritable'
  /** A key file was read but its content is not a valid key pair. */
  | 'key_file_invalid'
  /** A verification worker died with work in flight; the work must be retried. */
  | 'verify_worker_crashed'
  /** The verification pool was closed before (or while) the work was done. */
  | 'verify_pool_closed';

export class CryptoError extends Error {
  override readonly name = 'CryptoError';
  constructor(
    readonly code: CryptoErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isCryptoError(e: unknown): e is CryptoError {
  return e instanceof CryptoError;
}
