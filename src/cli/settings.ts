// The SDK client of a client command, from the target (target.ts) and, when the command signs, the
// account's key file. The account (`--account` or client.json's) may be a name standing for an account id
// (id-args.ts): the node resolves it at its committed height, and the client signs as the account it names.

import { loadKeyFile } from '../crypto/keyfile.js';
import type { Ed25519KeyPair } from '../crypto/signer.js';
import { ToranaClient } from '../sdk/client.js';
import { CliError } from './errors.js';
import { namedId } from './id-args.js';
import { type ClientFlags, resolveTarget } from './target.js';

export type { ClientFlags } from './target.js';

export interface ResolvedClient {
  client: ToranaClient;
  url: string;
  account: string | undefined;
  key: Ed25519KeyPair | undefined;
}

export async function resolveClient(flags: ClientFlags, needKey: boolean): Promise<ResolvedClient> {
  const { url, account: given, keyPath } = await resolveTarget(flags);
  const account = given === undefined ? undefined : await accountIdOf(url, given);
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

/** An account id as given; a name as the id it stands for on the node at `url` (404 → not_found). */
async function accountIdOf(url: string, text: string): Promise<string> {
  // An id, or neither form: the encoder judges it.
  return (await namedId(new ToranaClient({ url }), 'account', text)) ?? text;
}
