// The private side of `torana conference` and `torana shield` (docs/conference.md "Private rosters",
// "Shielded fee", "Routes and CLI"): roster keys and shielded notes kept in small JSON files, proofs
// made here on the client (torana/sdk/zk) and never by the node. The prover (snarkjs) is imported only
// when a private command runs; its worker threads end with the process (main.ts runAsProcess exits).

import { access, readFile, rename, writeFile } from 'node:fs/promises';
import type { NoteSpend, RosterProof } from '../model/conference.js';
import { type Numeric, parseNumeric } from '../model/numeric.js';
import type { ToranaClient } from '../sdk/client.js';
import { CliError } from './errors.js';

type Prover = typeof import('../sdk/zk-prover.js');
const prover = (): Promise<Prover> => import('../sdk/zk-prover.js');

/** A roster key file: the member secret and its commitment (what the host invites). */
export interface RosterKeyFile {
  secret: string;
  commitment: string;
}

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
async function saveJson(path: string, value: unknown, overwrite: boolean): Promise<void> {
  if (!overwrite && (await exists(path)))
    throw new CliError('file_exists', `${path} exists; it may hold a secret you need (move it away first)`);
  await writeFile(`${path}.tmp`, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  await rename(`${path}.tmp`, path);
}

async function loadJson<T>(path: string, what: string): Promise<T> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (e) {
    throw new CliError('invalid_argument', `cannot read the ${what} ${path}: ${(e as Error).message}`, 2);
  }
}

function hexField(text: string, what: string): bigint {
  if (!/^[0-9a-f]{64}$/.test(text))
    throw new CliError('invalid_argument', `${what}: expected 64 hex digits`, 2);
  return BigInt(`0x${text}`);
}

export async function newRosterKey(path: string): Promise<RosterKeyFile> {
  const zk = await prover();
  const secret = zk.randomField();
  const file = { secret: zk.fieldToHex(secret), commitment: zk.fieldToHex(zk.rosterCommitment(secret)) };
  await saveJson(path, file, false);
  return file;
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

/** The entry fee of private calls in base units (custom parameter `conference_entry_fee`; 0 unset). */
async function entryFee(client: ToranaClient, scale: number): Promise<bigint> {
  const text = (await client.parameters()).custom.get('conference_entry_fee');
  const fee = typeof text === 'string' ? parseNumeric(text) : undefined;
  return fee === undefined ? 0n : baseUnits(fee, scale);
}

export interface FeePayment {
  spend: NoteSpend;
  /** Replaces the note file with the change note; call it once the transaction committed. */
  keepChange(): Promise<void>;
}

/**
 * The entry-fee spend of a private create or join from the note in `notePath`, proved against the
 * node's pool tree; undefined when the network charges no fee. `bindOf` binds the spend to the call.
 */
export async function payEntryFee(
  client: ToranaClient,
  notePath: string,
  bindOf: (zk: Prover) => bigint,
): Promise<FeePayment | undefined> {
  const fee = await entryFee(client, await nativeScale(client));
  if (fee === 0n) return undefined;
  const zk = await prover();
  const file = await loadJson<NoteFile>(notePath, 'note file');
  const note = {
    value: BigInt(file.value),
    secret: hexField(file.secret, 'note secret'),
    blinding: hexField(file.blinding, 'note blinding'),
  };
  const leaves = (await client.shieldedPool()).leaves.map((l) => BigInt(`0x${l}`));
  const change = { secret: zk.randomField(), blinding: zk.randomField() };
  let proved: Awaited<ReturnType<Prover['proveNoteSpend']>>;
  try {
    proved = await zk.proveNoteSpend({ note, poolLeaves: leaves, fee, bind: bindOf(zk), change });
  } catch (e) {
    if (e instanceof RangeError) throw new CliError('insufficient_shielded_value', e.message);
    throw e;
  }
  const changeValue = note.value - fee;
  const ownerHash = zk.noteOwnerHash(change.secret, change.blinding);
  const changeNote: NoteFile = {
    value: changeValue.toString(),
    secret: zk.fieldToHex(change.secret),
    blinding: zk.fieldToHex(change.blinding),
    owner_hash: zk.fieldToHex(ownerHash),
    commitment: zk.fieldToHex(zk.noteCommitment(changeValue, ownerHash)),
  };
  return {
    spend: {
      root: zk.fieldToHex(proved.root),
      nullifier: zk.fieldToHex(proved.nullifier),
      changeCommitment: zk.fieldToHex(proved.changeCommitment),
      proof: proved.proof,
    },
    keepChange: () => saveJson(notePath, changeNote, true),
  };
}

/** A roster proof for `action` on `call`, from the roster key in `keyPath` and the call's roster. */
export async function rosterProof(
  client: ToranaClient,
  call: string,
  keyPath: string,
  action: 'join' | 'leave',
  signed: boolean,
): Promise<{ proof: RosterProof; joinBind: (zk: Prover) => bigint }> {
  const zk = await prover();
  const key = await loadJson<RosterKeyFile>(keyPath, 'roster key');
  const c = await client.getCall(call, { signed });
  const roster = c.rosterCommitments.map((h) => BigInt(`0x${h}`));
  let p: Awaited<ReturnType<Prover['proveRoster']>>;
  try {
    p = await zk.proveRoster({ callId: call, secret: hexField(key.secret, 'roster secret'), roster, action });
  } catch (e) {
    if (e instanceof RangeError) throw new CliError('not_invited', `${keyPath}: ${e.message}`);
    throw e;
  }
  return {
    proof: { nullifier: zk.fieldToHex(p.nullifier), proof: p.proof },
    joinBind: (z) => z.joinBindFor(call, p),
  };
}
