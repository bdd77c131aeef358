// Who calls a webhook route: a signed app request (§1.2), whose account
// becomes the owner of what it registers and sees only its own webhooks, or operator credentials
// (operator-auth.ts), which see and manage every webhook. A request carrying the operator key header is
// checked as an operator request; any other as a signed app request (401 signature_missing without one).

import type { FastifyRequest } from 'fastify';
import type { OperatorAuth } from '../../gateway/operator-auth.js';
import { OPERATOR_KEY_HEADER } from '../../gateway/operator-message.js';
import type { RequestAuth, SignedRequests } from '../../gateway/signed-request.js';
import { AssertionError } from '../../util/assert.js';

export type Caller = { kind: 'operator' } | { kind: 'account'; account: string };

export const OPERATOR_OWNER = 'operator';

export interface CallerAuth extends RequestAuth {
  /** The authenticated caller (after preValidation). */
  caller(req: FastifyRequest): Caller;
}

function isOperator(req: FastifyRequest): boolean {
  return req.headers[OPERATOR_KEY_HEADER] !== undefined;
}

export function createCallerAuth(signed: SignedRequests, operator: OperatorAuth): CallerAuth {
  const pick = (req: FastifyRequest): RequestAuth => (isOperator(req) ? operator : signed);
  return {
    onRequest: (req) => pick(req).onRequest(req),
    preParsing: (req, reply, payload) => pick(req).preParsing(req, reply, payload),
    preValidation: (req) => pick(req).preValidation(req),
    caller(req) {
      if (isOperator(req)) return { kind: 'operator' };
      const account = signed.account(req);
      // preValidation has run and passed, or the handler would not run.
      if (account === undefined)
        throw new AssertionError('webhook route reached without an authenticated caller');
      return { kind: 'account', account };
    },
  };
}

/** Whether `caller` may see and manage a webhook owned by `owner`. */
export function mayManage(caller: Caller, owner: string): boolean {
  return caller.kind === 'operator' || caller.account === owner;
}
