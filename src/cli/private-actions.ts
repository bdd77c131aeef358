// The code of `torana shield` and `torana conference roster-key` (conference-commands.ts), imported only
// when one runs.

import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { numeric } from '../model/numeric.js';
import { instructions as ix } from '../sdk/instructions.js';
import { type Flags, submit } from './client-actions.js';
import { baseUnits, nativeScale, newNote, newRosterKey, saveNote } from './conference-private.js';
import { CliError } from './errors.js';
import { printJson, printRecord } from './output.js';
import { resolveClient } from './settings.js';

type DirFlags = Flags & { dir: string };

export async function rosterKey(flags: DirFlags & { out?: string }): Promise<void> {
  const out = flags.out ?? join(flags.dir, 'roster-key.json');
  const key = await newRosterKey(out);
  const shown = { commitment: key.commitment, key_file: out };
  if (flags.json) printJson(shown);
  else printRecord(shown);
}

/**
 * ShieldAsset of `amount` into a new note. The note file is written (never over another) before the
 * transaction is sent, so a crash after the commit cannot lose the secrets of a note the pool holds.
 */
export async function shield(amount: string, flags: DirFlags & { noteFile?: string }): Promise<void> {
  let value: ReturnType<typeof numeric>;
  try {
    value = numeric(amount);
  } catch {
    throw new CliError('invalid_argument', 'the amount must be a decimal, e.g. 2.5', 2);
  }
  const { client } = await resolveClient(flags, false);
  const note = await newNote(baseUnits(value, await nativeScale(client)));
  const path = flags.noteFile ?? join(flags.dir, 'shielded-note.json');
  await saveNote(path, note, false);
  process.stderr.write(`note saved in ${path} (commitment ${note.commitment.slice(0, 16)}…)\n`);
  try {
    await submit(flags, () => [ix.shieldAsset(value, note.owner_hash)]);
  } catch (e) {
    // A rejected transaction made no note: its file would only mislead.
    if ((e as Error).name === 'TransactionRejectedError') await rm(path, { force: true });
    throw e;
  }
}
