// Which node a client command talks to, and as whom: flags (`--url`, `--account`, `--key-file`)
// over the node running in `--dir` (its address file, node.json) over the client file that
// `torana init` writes there (client.json: { url, account, key_file }). Light on purpose (no SDK):
// `torana status` needs nothing more (CLI start-up).

import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { nodeFiles } from '../node/files.js';
import { CliError, EXIT } from './errors.js';
import { readIdentity } from './identities.js';
import { findNodeAddress } from './node-address.js';

export interface ClientFlags {
  dir: string;
  url?: string;
  account?: string;
  keyFile?: string;
  /** A named identity (`--as NAME`, identities.ts): its account and key file. */
  identity?: string;
}

export const DEFAULT_URL = 'http://127.0.0.1:8080';

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

/** The URL of the node running in `dir`; a file left by a crashed node is ignored with a hint. */
async function runningNodeUrl(dir: string): Promise<string | undefined> {
  const found = await findNodeAddress(dir);
  if (found.state === 'running') return found.address.url;
  if (found.state === 'stale')
    process.stderr.write(
      `note: ignoring ${found.file}: its node (pid ${found.address.pid}) is not running; it did not stop cleanly\n`,
    );
  return undefined;
}

export interface Target {
  url: string;
  account: string | undefined;
  keyPath: string | undefined;
}

export async function resolveTarget(flags: ClientFlags): Promise<Target> {
  const file = await readClientFile(flags.dir);
  const url = flags.url ?? (await runningNodeUrl(flags.dir)) ?? file.url ?? DEFAULT_URL;
  if (flags.identity !== undefined) {
    if (flags.account !== undefined || flags.keyFile !== undefined)
      throw new CliError(
        'invalid_argument',
        '--as replaces --account and --key-file: give one or the other',
        EXIT.usage,
      );
    const id = await readIdentity(flags.dir, flags.identity);
    if (id.account === undefined)
      throw new CliError(
        'client_not_configured',
        `identity ${id.name} has no account: add it again with --account or --domain`,
        EXIT.usage,
      );
    return { url, account: id.account, keyPath: id.keyFile };
  }
  const keyPath =
    flags.keyFile ??
    (file.key_file === undefined
      ? undefined
      : isAbsolute(file.key_file)
        ? file.key_file
        : join(nodeFiles(flags.dir).dir, file.key_file));
  return { url, account: flags.account ?? file.account, keyPath };
}
