// The node's operator session store (gateway/operator-sessions.ts) from its configuration: one per served
// gateway, shared by the operator family's routes and the gateway's operator authentication.

import type { FastifyBaseLogger } from 'fastify';
import { OperatorSessions } from '../gateway/operator-sessions.js';
import type { Node } from './node.js';

export function nodeOperatorSessions(node: Node, log: FastifyBaseLogger): OperatorSessions {
  const c = node.config;
  return new OperatorSessions({
    operators: c.operator.publicKeys,
    audience: { chainId: c.node.chainId, nodeKey: node.nodeKey.publicKeyText() },
    challengeTtlMs: c.operator.sessionChallengeTtlMs,
    sessionTtlMs: c.operator.sessionTtlMs,
    sessionsMax: c.operator.sessionsMax,
    challengesMax: c.operator.sessionChallengesMax,
    challengesPerClientMax: c.operator.sessionClientChallengesMax,
    auditMax: c.operator.sessionAuditMax,
    now: () => node.clock.nowMs(),
    // Every session event is logged: id, operator key, expiry; never the token.
    log: (entry) => log.info({ operator_session: entry }, `operator session ${entry.event}`),
  });
}
