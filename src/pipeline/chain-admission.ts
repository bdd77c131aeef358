// Admission under the chain's committed state: the limits its parameters set, and the refusal of
// authorities it does not know (pipeline.ts `submit`).

import { reject } from '../model/rejections.js';
import { assert } from '../util/assert.js';
import type { AdmissionLimits, AdmissionResult } from './admission.js';
import type { Ledger } from './ledger.js';

export class ChainAdmission {
  private cached: { version: number; value: AdmissionLimits } | undefined;

  constructor(
    private readonly ledger: Ledger,
    private readonly base: AdmissionLimits,
  ) {
    // The node's own bounds (config): the chain's parameters may only lower them (`limits`).
    assert(
      Number.isSafeInteger(base.instructionsMax) &&
        base.instructionsMax >= 1 &&
        Number.isSafeInteger(base.transactionBytesMax) &&
        base.transactionBytesMax >= 1,
      `admission bounds: ${base.instructionsMax} instructions, ${base.transactionBytesMax} bytes`,
    );
  }

  /**
   * A transaction whose authority is not registered in the committed state cannot
   * pass execution, and writing its rejection into a block would let anyone with fresh keys grow the
   * chain for free. Refused here instead (a map lookup), never queued. The executor keeps its own check:
   * the account may be unregistered between admission and execution. The signing key is the account
   * id's signatory (`key@domain`) and the signature was checked against it, so a registered authority
   * implies the key is its signatory. Before genesis (height 0) nothing is registered yet; genesis is
   * applied by the node directly, never submitted. An account registered by a transaction still in the
   * queue is unknown until that block commits: its own transactions are refused until then.
   * (docs/security.md "Writing to the ledger", transactions from unregistered keys.)
   */
  unknownAuthority(
    authority: string,
    hashHex: string,
  ): Extract<AdmissionResult, { kind: 'rejected' }> | undefined {
    // Asked after decoding and the signature: the authority is an account id (`signatory@domain`).
    assert(
      authority.includes('@') && hashHex.length === 64,
      `authority check of ${authority} for ${hashHex}`,
    );
    if (this.ledger.height() === 0 || this.ledger.state.account(authority) !== undefined) return undefined;
    return {
      ok: false,
      kind: 'rejected',
      rejection: reject('authority_not_found', `no account ${authority} in the committed state`),
      hashHex,
    };
  }

  /**
   * The admission limits under the chain's current parameters. Parameters change only when a block
   * commits (which bumps the state's version), so the object is rebuilt once per block, not per call.
   */
  limits(): AdmissionLimits {
    const state = this.ledger.state;
    if (this.cached?.version !== state.version) {
      const admission = this.base;
      this.cached = {
        version: state.version,
        value: {
          ...admission,
          maxClockDriftMs: state.limit('maxClockDriftMs'),
          instructionsMax: Math.min(admission.instructionsMax, state.limit('transactionMaxInstructions')),
          transactionBytesMax: Math.min(admission.transactionBytesMax, state.limit('transactionMaxBytes')),
          transactionWeightMax: state.limit('transactionMaxWeight'),
        },
      };
    }
    const limits = this.cached.value;
    // A NaN drift would pass every `creation_time_in_future` test (the parameter is a varuint).
    assert(
      Number.isSafeInteger(limits.maxClockDriftMs) && limits.maxClockDriftMs >= 0,
      `admission with a clock drift of ${limits.maxClockDriftMs} ms`,
    );
    return limits;
  }
}
