// Named identities (`torana keys add NAME`, `--as NAME`): a key pair and the account it signs as, under a
// name, in the client directory (`--dir`, beside client.json): `keys/<name>.key.json` (the key file,
// mode 0600, crypto/keyfile.ts) and `keys/<name>.json` (`{ "account": … }`, mode 0600), in a folder
// of mode 0700. The private key is never printed unless asked for (`--show-private`).

import { chmod, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { nodeFiles } from '../node/files.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { CliError, EXIT } from './errors.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export interface IdentityPaths {
  keyFile: string;
  infoFile: string;
}

export function keysDir(dir: string): string {
  return join(nodeFiles(dir).dir, 'keys');
}

export function identityPaths(dir: string, name: string): IdentityPaths {
  if (!NAME.test(name))
    throw new CliError(
      'invalid_argument',
      `identity name ${JSON.stringify(name)}: 1..64 letters, digits, '.', '_' or '-'`,
      EXIT.usage,
    );
  const d = keysDir(dir);
  return { keyFile: join(d, `${name}.key.json`), infoFile: join(d, `${name}.json`) };
}

/** Creates the keys folder (mode 0700) if needed. */
export async function ensureKeysDir(dir: string): Promise<void> {
  await mkdir(keysDir(dir), { recursive: true, mode: 0o700 });
  await chmod(keysDir(dir), 0o700);
}

export async function writeIdentityInfo(path: string, info: { account?: string }): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(info, null, 2)}\n`, 0o600);
}

export interface Identity {
  name: string;
  account: string | undefined;
  keyFile: string;
}

/** The identity `name` of the client directory, or identity_not_found (exit 2). */
export async function readIdentity(dir: string, name: string): Promise<Identity> {
  const paths = identityPaths(dir, name);
  let text: string;
  try {
    text = await readFile(paths.infoFile, 'utf8');
  } catch {
    throw new CliError(
      'identity_not_found',
      `no identity ${name} in ${keysDir(dir)} (torana keys list; torana keys add ${name})`,
      EXIT.usage,
    );
  }
  const info = JSON.parse(text) as { account?: unknown };
  return {
    name,
    account: typeof info.account === 'string' ? info.account : undefined,
    keyFile: paths.keyFile,
  };
}

/** The names of the identities of the client directory, sorted. */
export async function identityNames(dir: string): Promise<string[]> {
  let files: string[];
  try {
    files = await readdir(keysDir(dir));
  } catch {
    return [];
  }
  return files
    .filter((f) => f.endsWith('.json') && !f.endsWith('.key.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .filter((n) => NAME.test(n))
    .sort();
}

export async function removeIdentity(dir: string, name: string): Promise<void> {
  const paths = identityPaths(dir, name);
  await readIdentity(dir, name);
  await rm(paths.keyFile, { force: true });
  await rm(paths.infoFile, { force: true });
}
