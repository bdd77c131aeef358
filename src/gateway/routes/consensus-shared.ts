// Helpers shared by the consensus route files: answer formats, list limits and the
// certificate summary every certificate list uses.

import { Type } from 'typebox';
import type { Infer } from '../../codec/codec.js';
import type { CommitCertificate } from '../../model/block.js';
import { toHex } from '../../util/hex.js';
import { gatewayError } from '../errors.js';
import type { FormatOffer } from '../negotiate.js';
import type { CommitCertificatesView } from '../views/consensus.js';

export const JSON_OR_CODEC: FormatOffer = { default: 'json', offers: ['json', 'codec'] };
/** `/v1/consensus/status`, `qc` and `commit_qc/{hash}` answer the codec unless JSON is asked for. */
export const CODEC_FIRST: FormatOffer = { default: 'codec', offers: ['codec', 'json'] };
export const SSE_ONLY: FormatOffer = { default: 'sse', offers: ['sse'] };

/** Default and largest page of certificate, checkpoint and validator-set lists. */
export const CERTIFICATE_LIST_LIMIT_MAX = 128;

export const TAGS = ['consensus'];

/**
 * `limit` and `from` are taken as text, so that any bad value ("0", "abc", "1.5", above the cap) is 400
 * `invalid_pagination` like the other list routes (gateway/list.ts), not a schema error.
 */
export const LimitParam = Type.Optional(
  Type.String({ maxLength: 20, description: 'page size, integer >= 1' }),
);
export const HeightParam = Type.Optional(
  Type.String({ maxLength: 20, description: 'block height, integer >= 1' }),
);

const INTEGER_TEXT = /^(0|[1-9][0-9]{0,15})$/;

function integerParam(field: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const n = INTEGER_TEXT.test(text) ? Number(text) : Number.NaN;
  if (!(n >= min && n <= max)) {
    throw gatewayError('invalid_pagination', {
      field,
      value: text,
      reason: `expected an integer from ${min} to ${max}`,
    });
  }
  return n;
}

/** `limit` defaults to `dflt`; 0, above `max` or not an integer is 400 invalid_pagination. */
export function pageLimit(text: string | undefined, dflt: number, max: number): number {
  return integerParam('limit', text, 1, max) ?? dflt;
}

/** A `from` height (>= 1); undefined when absent. */
export function fromHeight(text: string | undefined): number | undefined {
  return integerParam('from', text, 1, Number.MAX_SAFE_INTEGER);
}

/** Whole microseconds of a duration the engine measured in (fractional) milliseconds. */
export function micros(ms: number): number {
  return Math.max(0, Math.round(ms * 1000));
}

/** Signers of a certificate: the bits set in its bitmap (each signer contributed one signature). */
export function signaturesTotal(c: CommitCertificate): number {
  let n = 0;
  for (const b of c.signers) for (let x = b; x !== 0; x &= x - 1) n++;
  return n;
}

export type CertificateSummary = Infer<typeof CommitCertificatesView>['items'][number];

export function certificateSummary(c: CommitCertificate): CertificateSummary {
  return {
    phase: c.phase,
    height: c.height,
    view: c.view,
    epoch: c.epoch,
    blockHash: toHex(c.blockHash),
    validatorSetHash: toHex(c.validatorSetHash),
    signaturesTotal: signaturesTotal(c),
    signers: c.signers,
    signature: c.signature,
  };
}
