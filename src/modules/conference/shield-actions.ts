// The code of `torana shield` (shield-commands.ts), imported only when it runs.

import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type Flags, submit } from '../../cli/client-actions.js';
import { CliError } from '../../cli/errors.js';
import { resolveClient } from '../../cli/settings.js';
import { numeric } from '../../model/numeric.js';
import { instructions as ix } from '../../sdk/instructions.js';
import { baseUnits, nativeScale, newNote, saveNote } from './notes.js';

type DirFlags = Flags & { dir: string };

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
