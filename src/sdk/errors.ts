// Typed SDK errors carrying the gateway's stable codes (docs/errors.md).

import { readableRejection } from '../model/rejection-text.js';
import type { Rejection } from '../model/rejections.js';

/** The node answered with an error body `{code, message, details}`. */
export class ToranaApiError extends Error {
  override readonly name = 'ToranaApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown>,
    readonly retryAfterS?: number,
  ) {
    super(`${code}: ${message}`);
  }
}

/**
 * A transaction was committed in a block as rejected (e.g. insufficient_funds). The message reads the
 * rejection's amounts at their definition's scale (`account cap 2.00 (window tx) …`), as the CLI shows
 * them (model/rejection-text.ts; the committed text names the scale, so no read is needed);
 * `committedMessage` (and `reason.message`) keep the text the block committed, in base units
 * (`account cap 200 (window tx, units at scale 2) …`).
 */
export class TransactionRejectedError extends Error {
  override readonly name = 'TransactionRejectedError';
  readonly code: string;
  /** The rejection's message as the block committed it (consensus data: base units and their scale). */
  readonly committedMessage: string;
  constructor(
    readonly hash: string,
    readonly reason: Rejection,
    readonly blockHeight: number | undefined,
  ) {
    super(`transaction ${hash} rejected: ${reason.code}: ${readableRejection(reason.code, reason.message)}`);
    this.code = reason.code;
    this.committedMessage = reason.message;
  }
}

/** The node could not be reached, or answered something that is not the documented shape. */
export class ToranaTransportError extends Error {
  override readonly name = 'ToranaTransportError';
  readonly code = 'transport_error';
}

/** Waiting for a transaction's outcome took longer than allowed. */
export class ToranaTimeoutError extends Error {
  override readonly name = 'ToranaTimeoutError';
  readonly code = 'timeout';
}

/**
 * A light client (sdk/light-client.ts) refused a node's answer: a header, a certificate, a validator-set
 * change or a proof does not verify. `reason` says which check failed (docs/ledger-proofs.md). The node
 * is wrong or lying; its answer was not used.
 */
export class ToranaLightClientError extends Error {
  override readonly name = 'ToranaLightClientError';
  readonly code = 'light_client_proof_invalid';
  constructor(
    readonly reason: string,
    detail: string,
  ) {
    super(`light_client_proof_invalid: ${reason}: ${detail}`);
  }
}

export function isToranaApiError(e: unknown, code?: string): e is ToranaApiError {
  return e instanceof ToranaApiError && (code === undefined || e.code === code);
}

/**
 * Waiting for a transaction's outcome ended without any node saying what became of it: the transaction
 * MAY OR MAY NOT have committed. Look it up by hash (`transactionStatus(hash)`) later; do not sign it
 * again (a new signature is a new transaction, and both could commit). Sending the same signed bytes
 * again is safe: the node answers a copy it already holds or committed as a duplicate.
 */
export class ToranaUnknownOutcomeError extends Error {
  override readonly name = 'ToranaUnknownOutcomeError';
  readonly code = 'outcome_unknown';
  constructor(
    readonly hash: string,
    readonly detail: string,
    /** What the node said of itself when the wait ended (its quorum: sdk/quorum.ts), when it said. */
    readonly nodeState?: string,
  ) {
    super(
      `the outcome of transaction ${hash} is unknown: it may or may not have committed; ` +
        `look it up by hash, do not sign it again (${detail})` +
        (nodeState === undefined ? '' : `; the node reports ${nodeState}`),
    );
  }
}
