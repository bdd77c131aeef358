// The SDK client of a client command, from the target (target.ts) and, when the command signs, the
// account's key file.

import { loadKeyFile } from '../crypto/keyfile.js';
import type { Ed25519KeyPair } from '../crypto/signer.js';
import { ToranaClient } from '../sdk/client.js';
import { CliError } from './errors.js';
import { type ClientFlags, resolveTarget } from './target.js';

export type { ClientFlags } from './target.js';

export interface ResolvedClient {
  client: ToranaClient;
  url: string;
  account: string | undefined;
  key: Ed25519KeyPair | undefined;
}

export async function resolveClient(flags: ClientFlags, needKey: boolean): Promise<ResolvedClient> {
  const { url, account, keyPath } = await resolveTarget(flags);
  let key: Ed25519KeyPair | undefined;
  if (needKey) {
    if (account === undefined || keyPath === undefined) {
      throw new CliError(
        'client_not_configured',
        `no account and key: pass --account and --key-file, or run "torana init --dir ${flags.dir}" first`,
        2,
      );
    }
    key = await loadKeyFile(keyPath);
  }
  const client = new ToranaClient({ url, ...(account ? { account } : {}), ...(key ? { signer: key } : {}) });
  return { client, url, account, key };
}
