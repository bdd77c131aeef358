// `torana shield` and the private flags of `torana conference` (real processes, a dev-genesis node with
// the pool account, entry fee "1" and development verifying keys): shield notes, create a private call
// inviting a roster commitment, join and leave with roster proofs, the entry fee paid from notes whose
// change the CLI keeps. (The proof rules themselves, reused nullifiers included, are test/zk's.)

import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { NATIVE_ASSET } from '../../src/node/init.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { instructions as ix } from '../../src/sdk/instructions.js';
import { accountOf, generateKeyPair } from '../../src/sdk/keys.js';
import { cli } from '../helpers/run-cli.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

describe('torana shield and private conferences', () => {
  let t: ServedTestNode;
  let common: string[];
  let asGuest: string[];
  const call = 'system:private-cli';
  before(async () => {
    t = await startServedNode();
    common = ['--dir', t.dir, '--url', t.url];
    const key = generateKeyPair();
    const guest = accountOf(key, 'system');
    const keyFile = join(t.dir, 'guest.key.json');
    await writeFile(
      keyFile,
      JSON.stringify({ public_key: key.publicKeyText(), private_key: key.privateKeyText() }),
    );
    const admin = new ToranaClient({ url: t.url, account: t.admin.id, signer: t.admin.key });
    await admin.submitAndWait(
      await admin.build([ix.registerAccount(guest), ix.transferAsset(NATIVE_ASSET, t.admin.id, guest, '5')]),
    );
    asGuest = ['--account', guest, '--key-file', keyFile];
  });
  after(async () => t.stopAll());

  const run = async (args: string[], code = 0) => {
    // roster-key runs offline: it takes --dir only.
    const r = await cli([...args, ...(args[1] === 'roster-key' ? ['--dir', t.dir] : common)]);
    assert.equal(r.code, code, `${args.join(' ')}: ${r.err}`);
    return r;
  };
  const note = async (file: string) => JSON.parse(await readFile(join(t.dir, file), 'utf8'));
  // Read in process: every CLI process costs seconds of start-up on a loaded machine.
  const show = () =>
    new ToranaClient({ url: t.url, account: t.admin.id, signer: t.admin.key }).getCall(call, {
      signed: true,
    });

  it('shields, creates a private call, joins and leaves with proofs; fees come out of the notes', async () => {
    await run(['shield', '3', '--json']);
    assert.equal((await note('shielded-note.json')).value, '3000000');
    await run(['shield', '2', ...asGuest, '--note-file', join(t.dir, 'guest-note.json')]);
    const pool = (await (await fetch(`${t.url}/v1/conference/pool`)).json()) as { leaves: string[] };
    assert.equal(pool.leaves.length, 2);

    const member = JSON.parse(
      (await run(['conference', 'roster-key', '--out', join(t.dir, 'guest-roster.json'), '--json'])).out,
    ) as { commitment: string };
    await run([
      'conference',
      'create',
      call,
      '--title',
      'Board',
      '--policy',
      'public',
      '--private',
      '--invite',
      member.commitment,
    ]);
    let c = await show();
    assert.deepEqual(
      [c.privacy, c.rosterCommitments, c.activeParticipants],
      ['zk-roster-v1', [member.commitment], 0],
    );
    assert.equal((await note('shielded-note.json')).value, '2000000', 'the host paid the fee of 1');

    const guestFiles = [
      '--roster-key',
      join(t.dir, 'guest-roster.json'),
      '--note-file',
      join(t.dir, 'guest-note.json'),
    ];
    const joined = await run(['conference', 'join', call, '--private', ...guestFiles, ...asGuest]);
    // Proving reports its stages and their elapsed time on stderr.
    assert.match(joined.err, /checking the roster nullifier: done in \d+\.\d s/);
    assert.match(joined.err, /proving roster membership \(join\): done in \d+\.\d s/);
    assert.match(joined.err, /proving the entry-fee note spend: done in \d+\.\d s/);
    c = await show();
    assert.deepEqual([c.activeParticipants, c.participants], [1, []]);
    assert.equal((await note('guest-note.json')).value, '1000000');
    // The same roster key again: refused from the nullifier set before any proof is made.
    const again = await run(['conference', 'join', call, '--private', ...guestFiles, ...asGuest], 1);
    assert.match(again.err, /nullifier_reused/);
    assert.match(again.err, /nothing was proved or sent/);
    assert.doesNotMatch(again.err, /proving/);
    assert.equal((await note('guest-note.json')).value, '1000000');

    await run([
      'conference',
      'leave',
      call,
      '--private',
      '--roster-key',
      join(t.dir, 'guest-roster.json'),
      ...asGuest,
    ]);
    assert.equal((await show()).activeParticipants, 0);
  });

  it('refuses a roster key that was not invited, and a note smaller than the fee', async () => {
    const secret = '01'.repeat(32);
    await writeFile(join(t.dir, 'stranger.json'), JSON.stringify({ secret, commitment: secret }));
    const stranger = await run(
      ['conference', 'join', call, '--private', '--roster-key', join(t.dir, 'stranger.json')],
      1,
    );
    assert.match(stranger.err, /not_invited/);
    // Below one native unit (the default minimum note) only once the chain lowers the minimum.
    const refused = await run(['shield', '0.5', '--note-file', join(t.dir, 'refused-note.json')], 3);
    assert.match(refused.err, /shielded_note_below_minimum/);
    const admin = new ToranaClient({ url: t.url, account: t.admin.id, signer: t.admin.key });
    await admin.submitAndWait(await admin.build([ix.setShieldedNoteMinUnits(500_000)]));
    await run(['shield', '0.5', '--note-file', join(t.dir, 'small-note.json')]);
    const small = await run(
      [
        'conference',
        'create',
        `${call}-2`,
        '--title',
        'x',
        '--private',
        '--note-file',
        join(t.dir, 'small-note.json'),
      ],
      1,
    );
    assert.match(small.err, /insufficient_shielded_value/);
  });
});
