// `torana connect` (docs/connect.md "CLI") through real sockets and a real CLI process: the CLI, run as a
// wallet with the node directory's admin identity, pairs with an app's URI, signs the transaction the
// app asks for (--yes), and ends the session after one signature (--max 1); the app submits the signed
// transaction and it commits. `connect status --json` reports the session and its frames; without a
// terminal and without --yes the wallet refuses to start (it would have no one to ask): that refusal and
// `connect status` run in this process (test/helpers/cli-in-process.ts), whose stdin is no terminal
// under the test runner either.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { connectApp, type WebSocketClass } from '../../src/modules/connect/sdk-connect.js';
import { instructions, ToranaClient, TransactionBuilder } from '../../src/sdk/index.js';
import { runCli } from '../helpers/cli-in-process.js';
import { spawnCli } from '../helpers/run-cli.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

const Ws = WebSocket as unknown as WebSocketClass;

describe('torana connect', () => {
  let t: ServedTestNode;
  before(async () => {
    t = await startServedNode();
  });
  after(() => t?.stopAll());

  it('signs as a wallet process: the app submits what it signed and it commits', async () => {
    const app = await connectApp({ url: t.url, WebSocket: Ws });
    const child = spawnCli([
      'connect',
      'wallet',
      app.pairingUri,
      '--dir',
      t.dir,
      '--yes',
      '--max',
      '1',
      '--json',
    ]);
    let out = '';
    let err = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((r) => child.on('close', r));
    assert.equal((await app.wallet).account, t.admin.id);
    const payload = new TransactionBuilder(t.chainId, t.admin.id)
      .add(instructions.registerDomain('cli_wallet'))
      .payload();
    const built = await app.requestSignature(payload);
    const r = await new ToranaClient({ url: t.url }).submitAndWait(built, { timeoutMs: 60_000 });
    assert.ok(r.blockHeight > 0);
    assert.ok(t.node.ledger.state.domain('cli_wallet'), 'the domain the wallet signed is registered');
    assert.equal(await exited, 0, err);
    const events = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; signed?: number; payload?: { authority: string } });
    assert.deepEqual(
      events.map((e) => e.event),
      ['paired', 'sign_request', 'signed', 'closed'],
    );
    assert.equal(events[1]!.payload!.authority, t.admin.id);
    assert.equal(events[3]!.signed, 1);
    await app.close();

    const status = await runCli(['connect', 'status', '--dir', t.dir, '--url', t.url, '--json']);
    assert.equal(status.code, 0, status.err);
    const doc = JSON.parse(status.out) as { counters: Record<string, number> };
    // hello, the request and its answer
    assert.ok(doc.counters.frames_relayed! >= 3, status.out);
    assert.ok(doc.counters.sessions_closed! >= 1, status.out);
  });

  it('refuses to start without a terminal to ask on and without --yes', async () => {
    assert.notEqual(process.stdin.isTTY, true, 'the test runs without a terminal on stdin');
    const app = await connectApp({ url: t.url, WebSocket: Ws });
    const r = await runCli(['connect', 'wallet', app.pairingUri, '--dir', t.dir, '--json']);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /invalid_argument/);
    await app.close();
  });
});
