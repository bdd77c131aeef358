// The private side of `torana conference` (docs/conference.md "Private rosters", "Shielded fee",
// "Routes and CLI"): roster keys kept in small JSON files, roster proofs and entry-fee note spends
// made here on the client (torana/sdk/zk) and never by the node (the notes: notes.ts).

import { CliError } from '../../cli/errors.js';
import { parseNumeric } from '../../model/numeric.js';
import type { ToranaClient } from '../../sdk/client.js';
import type { NoteSpend, RosterProof } from './model.js';
import {
  baseUnits,
  hexField,
  loadJson,
  type NoteFile,
  nativeScale,
  type Prover,
  prover,
  saveJson,
} from './notes.js';

/**
 * Runs one stage of a private operation, with a line on stderr as it starts and one with its elapsed
 * time as it ends (proving takes seconds: the user sees what the CLI is doing). stdout stays the answer.
 */
export async function stage<T>(name: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  process.stderr.write(`${name}…\n`);
  const out = await run();
  process.stderr.write(`${name}: done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  return out;
}

/** A roster key file: the member secret and its commitment (what the host invites). */
export interface RosterKeyFile {
  secret: string;
  commitment: string;
}

export async function newRosterKey(path: string): Promise<RosterKeyFile> {
  const zk = await prover();
  const secret = zk.randomField();
  const file = { secret: zk.fieldToHex(secret), commitment: zk.fieldToHex(zk.rosterCommitment(secret)) };
  await saveJson(path, file, false);
  return file;
}

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
    proved = await stage('proving the entry-fee note spend', () =>
      zk.proveNoteSpend({ note, poolLeaves: leaves, fee, bind: bindOf(zk), change }),
    );
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

/**
 * A roster proof for `action` on `call`, from the roster key in `keyPath` and the call's roster,
 * bound to `sender`, the account that signs the transaction.
 */
export async function rosterProof(
  client: ToranaClient,
  call: string,
  keyPath: string,
  action: 'join' | 'leave',
  sender: string,
): Promise<{ proof: RosterProof; joinBind: (zk: Prover) => bigint }> {
  const zk = await prover();
  const key = await loadJson<RosterKeyFile>(keyPath, 'roster key');
  const c = await client.getCall(call, { signed: true });
  const roster = c.rosterCommitments.map((h) => BigInt(`0x${h}`));
  const secret = hexField(key.secret, 'roster secret');
  // A spent nullifier would only be rejected after the proof (nullifier_reused): refuse it before.
  const nullifier = zk.fieldToHex(zk.rosterNullifier(call, secret, action));
  const spent = await stage('checking the roster nullifier', () =>
    client.nullifierSpent('roster', nullifier),
  );
  if (spent)
    throw new CliError(
      'nullifier_reused',
      `this roster key already ${action === 'join' ? 'joined' : 'left'} ${call} (nullifier ${nullifier} is spent); nothing was proved or sent`,
    );
  let p: Awaited<ReturnType<Prover['proveRoster']>>;
  try {
    p = await stage(`proving roster membership (${action})`, () =>
      zk.proveRoster({ callId: call, secret, roster, action, sender }),
    );
  } catch (e) {
    if (e instanceof RangeError) throw new CliError('not_invited', `${keyPath}: ${e.message}`);
    throw e;
  }
  return {
    proof: {
      nullifier: zk.fieldToHex(p.nullifier),
      proof: p.proof,
      // A leave names the join it ends (its proof outputs the join nullifier).
      ...(action === 'leave' && p.joinNullifier !== undefined
        ? { joinNullifier: zk.fieldToHex(p.joinNullifier) }
        : {}),
    },
    joinBind: (z) => z.joinBindFor(call, p),
  };
}
