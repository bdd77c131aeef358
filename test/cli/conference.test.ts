// `torana conference create | join | leave | usage | end | show` against a served node, the CLI run in
// this process (test/helpers/cli-in-process.ts; test/cli/cli.test.ts runs it as a child process, and
// test/cli/conference-private.test.ts runs these commands as processes in the integration tier): relay keys are looked up from the node, the default billed gas is computed
// from the call's rate and the native asset's scale, reads of the (default) authenticated call are
// signed with the configured account, and failures exit with their codes.

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ToranaClient } from '../../src/sdk/client.js';
import { instructions as ix } from '../../src/sdk/instructions.js';
import { accountOf, generateKeyPair } from '../../src/sdk/keys.js';
import { runCli as cli } from '../helpers/cli-in-process.js';
import { JumpClock } from '../helpers/jump-clock.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

interface RelayJson {
  id: string;
  operator: string;
  public_key: string;
  endpoint: string;
  region: string;
  status: string;
  health?: { latency_ms: number };
}

describe('torana conference', () => {
  let t: ServedTestNode;
  let common: string[];
  let call: string;
  // The node's clock: a call may not record more than block time since its creation × its participants,
  // and the in-process CLI runs the steps before it faster than any wall-clock wait: the test moves the
  // next block's time on instead of sleeping.
  const clock = new JumpClock();
  before(async () => {
    t = await startServedNode({}, { clock });
    common = ['--dir', t.dir, '--url', t.url];
    const domain = t.admin.id.slice(t.admin.id.lastIndexOf('@') + 1);
    call = `${domain}:standup`;
    const client = new ToranaClient({ url: t.url, account: t.admin.id, signer: t.admin.key });
    // The dev genesis names the native asset (gas#system, scale 6) in `native_asset`.
    await client.submitAndWait(
      await client.build([
        ...['r1', 'r2', 'r3'].map((r, i) =>
          ix.registerConferenceRelay(
            r,
            String(i + 1)
              .padStart(2, '0')
              .repeat(32),
            `wss://${r}.example`,
            'eu',
          ),
        ),
      ]),
    );
  });
  after(async () => t.stopAll());

  const run = async (args: string[], code = 0) => {
    const r = await cli(args[0] === 'keys' ? args : [...args, ...common]);
    assert.equal(r.code, code, `${args.join(' ')}: ${r.err}`);
    return r;
  };
  const show = async () => JSON.parse((await run(['conference', 'show', call, '--json'])).out);

  it('creates a call with a relay manifest, joins, meters, leaves and ends it', async () => {
    const created = await run([
      'conference',
      'create',
      call,
      '--title',
      'Standup',
      '--gas-rate',
      '1.5',
      '--max-participants',
      '4',
      '--relay',
      'r1',
      '--relay',
      'r2:7',
      '--relay',
      'r3',
      '--metadata',
      '{"topic":"ledgers"}',
      '--json',
    ]);
    assert.equal(JSON.parse(created.out).status, 'Committed');
    assert.equal(JSON.parse(created.out).call, call);
    let c = await show();
    assert.deepEqual(
      [c.id, c.title, c.policy, c.status, c.relays],
      [call, 'Standup', 'authenticated', 'active', ['r1', 'r2', 'r3']],
    );
    assert.deepEqual(
      c.manifest.hops.map((h: { public_key: string; weight: number }) => [h.public_key, h.weight]),
      [
        ['01'.repeat(32), 1],
        ['02'.repeat(32), 7],
        ['03'.repeat(32), 1],
      ],
    );

    // A second account joins itself.
    const guest = JSON.parse((await run(['keys', 'generate', '--json', '--show-private'])).out) as {
      public_key: string;
    };
    const guestId = `${guest.public_key}@${call.split(':')[0]}`;
    const guestKey = join(t.dir, 'guest.key.json');
    await writeFile(guestKey, JSON.stringify(guest));
    await run(['account', 'register', guestId]);
    const asGuest = ['--account', guestId, '--key-file', guestKey];
    await run(['conference', 'join', call, ...asGuest, '--answer', 'c0ffee']);
    c = await show();
    assert.deepEqual([c.participants, c.active_participants], [[guestId], 1]);

    // 2 s at 1.5 per minute = 0.05 at the native scale, computed by the CLI (a call may not record more
    // than block time since creation × max participants: the next block is a second later).
    clock.jump(1_000);
    await run(['conference', 'usage', call, '--segment', '1', '--duration-ms', '2000']);
    c = await show();
    assert.deepEqual([c.usage.duration_ms, Number(c.usage.billed_gas), c.usage.segments], ['2000', 0.05, 1]);
    await run(['conference', 'leave', call, ...asGuest]);
    await run(['conference', 'end', call]);
    c = await show();
    assert.deepEqual([c.status, c.participants], ['ended', []]);
    const text = await run(['conference', 'show', call]);
    assert.match(text.out, /status\s+ended/);
  });

  it('lists the signals of a call and opens the answers addressed to the host', async () => {
    const sync = call.replace(/standup$/, 'sync');
    await run(['conference', 'create', sync, '--title', 'Sync', '--policy', 'public']);
    const admin = new ToranaClient({ url: t.url, account: t.admin.id, signer: t.admin.key });
    const key = generateKeyPair();
    const guestId = accountOf(key, call.split(':')[0]!);
    await admin.submitAndWait(await admin.build([ix.registerAccount(guestId)]));
    const guest = new ToranaClient({ url: t.url, account: guestId, signer: key });
    await admin.publishOffers(sync, [{ to: guestId, description: '{"type":"offer","sdp":"v=0 host"}' }]);
    const offer = await guest.fetchOffer(sync);
    assert.equal(offer.description, '{"type":"offer","sdp":"v=0 host"}');
    const answer = '{"type":"answer","sdp":"v=0 guest"}';
    await guest.submitAndWait(await guest.build([await guest.joinWithAnswer(sync, t.admin.id, answer)]));

    let page: { items: { kind: string; from: string; to: string; description?: string }[]; cursor: number } =
      {
        items: [],
        cursor: 0,
      };
    const deadline = Date.now() + 10_000;
    while (page.items.length < 2 && Date.now() < deadline) {
      page = JSON.parse((await run(['conference', 'signals', sync, '--open', '--json'])).out);
    }
    assert.deepEqual(
      page.items.map((i) => [i.kind, i.from, i.to, i.description]),
      [
        ['offer', t.admin.id, guestId, undefined],
        ['answer', guestId, t.admin.id, answer],
      ],
    );
    const after = JSON.parse(
      (await run(['conference', 'signals', sync, '--after', String(page.cursor), '--json'])).out,
    );
    assert.deepEqual(after.items, []);
    const sealed = await run(['conference', 'signals', sync]);
    assert.match(sealed.out, /answer\s+\S+ -> \S+\s+\d+ bytes sealed/);
  });

  it('exits 3 on a rejection, 1 on an unknown call, 2 on bad flags', async () => {
    const rejected = await run(['conference', 'end', call], 3);
    assert.match(rejected.err, /conference_ended/);
    const unknown = await run(['conference', 'show', `${call}-nope`], 1);
    assert.match(unknown.err, /conference_not_found/);
    const bad = await run(['conference', 'usage', call, '--segment', 'x', '--duration-ms', '1'], 2);
    assert.match(bad.err, /--segment/);
    const noRelay = await run(['conference', 'create', `${call}2`, '--title', 'x', '--relay', 'r9'], 1);
    assert.match(noRelay.err, /conference_relay_not_found/);
    assert.match(noRelay.err, /no relay r9 is registered/, 'the error names the relay');
  });

  it('registers a relay and reports its health from the CLI; a manifest may then use it', async () => {
    const key = 'ab'.repeat(32);
    const reg = [
      'conference',
      'relay',
      'register',
      'eu-9',
      '--public-key',
      key,
      '--endpoint',
      'wss://eu-9.example',
    ];
    assert.equal(JSON.parse((await run([...reg, '--region', 'eu', '--json'])).out).status, 'Committed');
    await run(['conference', 'relay', 'health', 'eu-9', '--latency-ms', '18', '--loss-permille', '2']);
    const got = await fetch(`${t.url}/v1/conference/relays/eu-9`).then((r) => r.json() as Promise<RelayJson>);
    assert.deepEqual(
      [got.id, got.operator, got.public_key, got.endpoint, got.region, got.status, got.health?.latency_ms],
      ['eu-9', t.admin.id, key, 'wss://eu-9.example', 'eu', 'available', 18],
    );
    await run(['conference', 'relay', 'health', 'eu-9', '--unavailable']);
    const down = await fetch(`${t.url}/v1/conference/relays/eu-9`).then(
      (r) => r.json() as Promise<RelayJson>,
    );
    assert.equal(down.status, 'unavailable');
    const badKey = await run(
      ['conference', 'relay', 'register', 'eu-8', '--public-key', 'zz', '--endpoint', 'x'],
      2,
    );
    assert.match(badKey.err, /--public-key/);
    const badLoss = await run(['conference', 'relay', 'health', 'eu-9', '--loss-permille', '1001'], 2);
    assert.match(badLoss.err, /--loss-permille/);
  });
});
