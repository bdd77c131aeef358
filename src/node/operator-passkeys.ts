// The node's operator passkeys (src/operator/passkeys/) from its configuration: the credentials in the
// node's data folder (memory when served without a directory), sessions from the shared session store.

import type { FastifyBaseLogger } from 'fastify';
import { OperatorPasskeys } from '../operator/passkeys/passkeys.js';
import { memoryPasskeyStore, openPasskeyStore } from '../operator/passkeys/store.js';
import type { OperatorSessions } from '../operator/sessions.js';
import { nodeFiles } from './files.js';
import type { Node } from './node.js';

export async function nodeOperatorPasskeys(
  node: Node,
  sessions: OperatorSessions,
  dir: string | undefined,
  log: FastifyBaseLogger,
): Promise<OperatorPasskeys> {
  const c = node.config.operator;
  const store = dir === undefined ? memoryPasskeyStore() : await openPasskeyStore(nodeFiles(dir).data);
  return new OperatorPasskeys({
    rpId: c.passkeyRpId,
    rpName: c.passkeyRpName,
    origins: c.passkeyOrigins,
    bootstrapSecret: c.passkeyBootstrapSecret,
    challengeTtlMs: c.passkeyChallengeTtlMs,
    challengesMax: c.passkeyChallengesMax,
    challengesPerClientMax: c.sessionClientChallengesMax,
    credentialsMax: c.passkeyCredentialsMax,
    store,
    sessions,
    now: () => node.clock.nowMs(),
    log: (entry) => log.info({ operator_passkey: entry }, `operator passkey ${entry.event}`),
  });
}
