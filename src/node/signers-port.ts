// The world-state reads of the one signed-request verifier (gateway/signed-request.ts): who may sign app
// requests (a registered account whose domain exists; its signatory is the key in its id) and the
// timestamp window (the chain's clock drift parameter, as for transactions).

import type { SignerPort } from '../gateway/signed-request.js';
import { parseAccountId } from '../model/ids.js';
import type { WorldState } from '../state/world-state.js';

export function signersPort(state: WorldState): SignerPort {
  return {
    registered(account) {
      const parts = parseAccountId(account);
      return (
        parts !== undefined &&
        state.peek('account', account) !== undefined &&
        state.peek('domain', parts.domain) !== undefined
      );
    },
    clockDriftMs: () => state.limit('maxClockDriftMs'),
  };
}
