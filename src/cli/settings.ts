// Client settings of the CLI: flags (`--url`, `--account`, `--key-file`) over the client file that
// `torana init` writes into `--dir` (client.json: { url, account, key_file }).

import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { loadKeyFile } from '../crypto/keyfile.js';
import type { Ed25519KeyPair } from '../crypto/signer.js';
import { nodeFiles } from '../node/files.js';
import { ToranaClient } from '../sdk/client.js';

export interface ClientFlags {
  dir: string;
  url?: string;
  account?: string;
  keyFile?: string;
}

export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

interface ClientFile {
  url?: string;
  account?: string;
  key_file?: string;
}

async function readClientFile(dir: string): Promise<ClientFile> {
  try {
    const parsed = JSON.parse(await readFile(nodeFiles(dir).client, 'utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as ClientFile) : {};
  } catch {
    return {};
  }
}

export interface ResolvedClient {
  client: ToranaClient;
  url: string;
  account: string | undefined;
  key: Ed25519KeyPair | undefined;
}

export async function resolveClient(flags: ClientFlags, needKey: boolean): Promise<ResolvedClient> {
  const file = await readClientFile(flags.dir);
  const url = flags.url ?? file.url ?? 'http://127.0.0.1:8080';
  const account = flags.account ?? file.account;
  const keyPath =
    flags.keyFile ??
    (file.key_file === undefined
      ? undefined
      : isAbsolute(file.key_file)
        ? file.key_file
        : join(nodeFiles(flags.dir).dir, file.key_file));
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
