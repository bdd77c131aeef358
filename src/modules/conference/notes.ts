// Shielded notes of `torana shield` and of the private conference commands (docs/conference.md
// "Shielded fee"): notes kept in small JSON files, their secrets drawn here on the client
// (torana/sdk/zk) and never by the node. The prover (snarkjs) is imported only when a command that
// needs it runs; its worker threads end with the process (cli/main.ts runAsProcess exits).

import { access, readFile, rename, writeFile } from 'node:fs/promises';
import { CliError } from '../../cli/errors.js';
import type { Numeric } from '../../model/numeric.js';
import type { ToranaClient } from '../../sdk/client.js';

export type Prover = typeof import('./sdk-zk.js');
export const prover = (): Promise<Prover> => import('./sdk-zk.js');

/** A shielded note file: its value in base units of the native asset and its secrets (hex). */
export interface NoteFile {
  value: string;
  secret: string;
  blinding: string;
  owner_hash: string;
  commitment: string;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** Writes `value` as JSON through a temporary file (a crash leaves the old file or the new one). */
export async function saveJson(path: string, value: unknown, overwrite: boolean): Promise<void> {
  if (!overwrite && (await exists(path)))
    throw new CliError('file_exists', `${path} exists; it may hold a secret you need (move it away first)`);
  await writeFile(`${path}.tmp`, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  await rename(`${path}.tmp`, path);
}

export async function loadJson<T>(path: string, what: string): Promise<T> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (e) {
    throw new CliError('invalid_argument', `cannot read the ${what} ${path}: ${(e as Error).message}`, 2);
  }
}

export function hexField(text: string, what: string): bigint {
  if (!/^[0-9a-f]{64}$/.test(text))
    throw new CliError('invalid_argument', `${what}: expected 64 hex digits`, 2);
  return BigInt(`0x${text}`);
}

/** The native asset's scale (custom parameter `native_asset`; 0 without one). */
export async function nativeScale(client: ToranaClient): Promise<number> {
  const native = (await client.parameters()).custom.get('native_asset');
  if (typeof native !== 'string') return 0;
  return (await client.get<{ scale: number }>(`/v1/assets/definitions/${encodeURIComponent(native)}`)).scale;
}

/** `amount` in base units at `scale`; a finer amount is a usage error. */
export function baseUnits(amount: Numeric, scale: number): bigint {
  if (amount.scale > scale)
    throw new CliError('invalid_argument', `the amount has more than ${scale} fraction digits`, 2);
  return amount.mantissa * 10n ** BigInt(scale - amount.scale);
}

/** A new note of `value` base units: its file content (secrets drawn here). */
export async function newNote(value: bigint): Promise<NoteFile> {
  const zk = await prover();
  const secret = zk.randomField();
  const blinding = zk.randomField();
  const ownerHash = zk.noteOwnerHash(secret, blinding);
  return {
    value: value.toString(),
    secret: zk.fieldToHex(secret),
    blinding: zk.fieldToHex(blinding),
    owner_hash: zk.fieldToHex(ownerHash),
    commitment: zk.fieldToHex(zk.noteCommitment(value, ownerHash)),
  };
}

export const saveNote = (path: string, note: NoteFile, overwrite: boolean) => saveJson(path, note, overwrite);
