// `torana keys generate | add | list | show | remove`: its own module, so that it loads the signer only
// (no SDK, no codec schema). Private keys are printed only with `--show-private`.

import { access } from 'node:fs/promises';
import { loadKeyFile, saveKeyFile } from '../crypto/keyfile.js';
import { Ed25519KeyPair } from '../crypto/signer.js';
import { CliError, EXIT } from './errors.js';
import {
  ensureKeysDir,
  identityNames,
  identityPaths,
  readIdentity,
  removeIdentity,
  writeIdentityInfo,
} from './identities.js';
import { printJson, printRecord, printTable } from './output.js';
import { resolveTarget } from './target.js';

interface KeyFlags {
  json?: boolean;
  dir: string;
  showPrivate?: boolean;
}

function print(out: Record<string, string | undefined>, flags: { json?: boolean }): void {
  if (flags.json) printJson(out);
  else printRecord(out);
}

export function keysGenerate(flags: { json?: boolean; showPrivate?: boolean }): void {
  const kp = Ed25519KeyPair.generate();
  const out: Record<string, string> = { public_key: kp.publicKeyText() };
  if (flags.showPrivate) out['private_key'] = kp.privateKeyText();
  else if (!flags.json)
    process.stderr.write(
      'note: the private key is not shown; use --show-private, or `torana keys add NAME`\n',
    );
  print(out, flags);
}

/** The account of a new identity: --account, or the key at --domain, or at the client account's domain. */
async function accountOf(kp: Ed25519KeyPair, flags: KeyFlags & { account?: string; domain?: string }) {
  if (flags.account !== undefined) return flags.account;
  if (flags.domain !== undefined) return `${kp.publicKeyText()}@${flags.domain}`;
  const { account } = await resolveTarget({ dir: flags.dir });
  const at = account?.lastIndexOf('@') ?? -1;
  return at < 0 ? undefined : `${kp.publicKeyText()}${account!.slice(at)}`;
}

export async function keysAdd(
  name: string,
  flags: KeyFlags & { import?: string; account?: string; domain?: string },
): Promise<void> {
  const paths = identityPaths(flags.dir, name);
  if (
    await access(paths.infoFile).then(
      () => true,
      () => false,
    )
  )
    throw new CliError(
      'identity_exists',
      `identity ${name} exists (torana keys remove ${name} first)`,
      EXIT.usage,
    );
  const kp = flags.import === undefined ? Ed25519KeyPair.generate() : await loadKeyFile(flags.import);
  const account = await accountOf(kp, flags);
  await ensureKeysDir(flags.dir);
  await saveKeyFile(paths.keyFile, kp);
  await writeIdentityInfo(paths.infoFile, account === undefined ? {} : { account });
  print({ name, account, public_key: kp.publicKeyText(), key_file: paths.keyFile }, flags);
}

export async function keysList(flags: KeyFlags): Promise<void> {
  const rows = [];
  for (const name of await identityNames(flags.dir)) {
    const id = await readIdentity(flags.dir, name);
    const kp = await loadKeyFile(id.keyFile);
    rows.push({ name, account: id.account ?? '', public_key: kp.publicKeyText() });
  }
  if (flags.json) printJson(rows);
  else printTable(rows);
}

export async function keysShow(name: string, flags: KeyFlags): Promise<void> {
  const id = await readIdentity(flags.dir, name);
  const kp = await loadKeyFile(id.keyFile);
  const out: Record<string, string | undefined> = {
    name,
    account: id.account,
    public_key: kp.publicKeyText(),
    key_file: id.keyFile,
  };
  if (flags.showPrivate) out['private_key'] = kp.privateKeyText();
  print(out, flags);
}

export async function keysRemove(name: string, flags: KeyFlags): Promise<void> {
  await removeIdentity(flags.dir, name);
  if (flags.json) printJson({ name, removed: true });
  else process.stdout.write(`removed identity ${name}\n`);
}
