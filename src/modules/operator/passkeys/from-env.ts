// The node's operator passkeys (passkeys.ts) from its route env: the configuration's `operator.passkey_*`
// keys (config.ts), the credentials in the node's data folder (memory when served without a directory), sessions from
// the gateway's one session store, node time, and the audit log line of each ceremony.

import { dirname } from 'node:path';
import { sectionValues } from '../../../config/schema.js';
import type { ModuleRouteEnv } from '../../descriptor.js';
import { operatorPasskeysConfig } from '../config.js';
import { OperatorPasskeys } from './passkeys.js';
import { memoryPasskeyStore, openPasskeyStore } from './store.js';

export async function passkeysOf(env: ModuleRouteEnv): Promise<OperatorPasskeys> {
  const c = sectionValues(env.config, operatorPasskeysConfig);
  // The credentials file stays where it always was, in the data folder itself (store.ts PASSKEYS_FILE):
  // the parent of the module's store folder `<data>/operator`.
  const store =
    env.storeDir === undefined ? memoryPasskeyStore() : await openPasskeyStore(dirname(env.storeDir));
  return new OperatorPasskeys({
    rpId: c.passkeyRpId,
    rpName: c.passkeyRpName,
    origins: c.passkeyOrigins,
    bootstrapSecret: c.passkeyBootstrapSecret,
    challengeTtlMs: c.passkeyChallengeTtlMs,
    challengesMax: c.passkeyChallengesMax,
    challengesPerClientMax: env.config.operator.sessionClientChallengesMax,
    credentialsMax: c.passkeyCredentialsMax,
    store,
    sessions: env.operatorSessions,
    now: env.now,
    log: (entry) => env.logInfo({ operator_passkey: entry }, `operator passkey ${entry.event}`),
  });
}
