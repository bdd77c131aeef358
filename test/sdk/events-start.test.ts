// Where an event stream starts, in the SDK and in the CLI (README.md "SDK", `torana events`): both start
// at now by default, and both can start from genesis (every event the node holds) or after an event id.
// And SDK values print as the gateway's JSON: `JSON.stringify` of an event gives the `data` the node sent
// (hashes as hex), not a Uint8Array's `{"0":25,…}`. One served node. `torana events --follow` runs as a
// child process (it runs until it is stopped); `--since` without --follow, which prints what the node
// holds and stops, in this process (test/helpers/cli-in-process.ts). `--follow --since genesis` as a
// process is test/cli/cli.test.ts's follower.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { Event } from '../../src/model/events.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { instructions as ix } from '../../src/sdk/instructions.js';
import { toHex } from '../../src/util/hex.js';
import { runCli } from '../helpers/cli-in-process.js';
import { spawnCli } from '../helpers/run-cli.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

type Item = { id: number; event: Event };

/** The first `n` items of a stream (aborted after), and the moment it opened via `opened`. */
function take(client: ToranaClient, n: number, opts: Parameters<ToranaClient['events']>[0] = {}) {
  const abort = new AbortController();
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  const items = (async () => {
    const out: Item[] = [];
    for await (const item of client.events({ ...opts, signal: abort.signal, onOpen: () => open() })) {
      out.push(item);
      if (out.length >= n) break;
    }
    abort.abort();
    return out;
  })();
  return { opened, items };
}

/** Lines the child prints on stdout, as they come. */
function lines(child: ChildProcess): { first: Promise<string>; all: string[] } {
  const all: string[] = [];
  let buffered = '';
  let resolve!: (l: string) => void;
  const first = new Promise<string>((r) => (resolve = r));
  child.stdout?.on('data', (d) => {
    buffered += d;
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const l of parts) {
      if (l.trim() === '') continue;
      all.push(l);
      resolve(all[0]!);
    }
  });
  return { first, all };
}

describe('event streams: where they start, and their JSON', () => {
  let t: ServedTestNode;
  let client: ToranaClient;
  let domains = 0;
  /** Every event the node held after the first transaction, oldest first. */
  let history: Item[];
  const children: ChildProcess[] = [];

  async function commitOne(): Promise<string> {
    const tx = await client.build([ix.registerDomain(`start${++domains}`)]);
    await client.submitAndWait(tx, { timeoutMs: 60_000 });
    return tx.hash;
  }

  before(async () => {
    t = await startServedNode();
    client = new ToranaClient({ url: t.url, account: t.admin.id, signer: t.admin.key });
    await commitOne();
    // The node's history so far: read from genesis up to the commit of the newest transaction.
    const tip = await commitOne();
    const out: Item[] = [];
    const abort = new AbortController();
    for await (const item of client.events({ since: 'genesis', signal: abort.signal })) {
      out.push(item);
      if (
        item.event.kind === 'Transaction' &&
        toHex(item.event.hash) === tip &&
        item.event.status.kind === 'Committed'
      )
        break;
    }
    abort.abort();
    history = out;
    assert.ok(history.length >= 4, `${history.length} events in the history`);
  });
  after(async () => {
    for (const c of children) c.kill('SIGTERM');
    await t.stopAll();
  });

  it('client.events() starts at now; since genesis from the first event; since an id after it', async () => {
    const newest = history.at(-1)!.id;
    const fromNow = take(client, 1);
    const fromGenesis = take(client, 1, { since: 'genesis' });
    const middle = history[1]!.id;
    const fromId = take(client, 1, { since: middle });
    await Promise.all([fromNow.opened, fromGenesis.opened, fromId.opened]);
    await commitOne();
    const [now] = await fromNow.items;
    assert.ok(now!.id > newest, `the default stream's first event ${now!.id} is newer than ${newest}`);
    assert.equal((await fromGenesis.items)[0]!.id, history[0]!.id);
    assert.equal((await fromId.items)[0]!.id, history[2]!.id);
  });

  it('torana events --follow starts at now; --since genesis and --since <id> start as the SDK', async () => {
    const common = ['--url', t.url, '--dir', t.dir, '--json'];
    const newest = history.at(-1)!.id;
    const follow = spawnCli(['events', '--follow', ...common]);
    children.push(follow);
    const f = lines(follow);
    // The CLI cannot say when it is connected: commit until the default follower prints something.
    let printed = false;
    void f.first.then(() => (printed = true));
    for (let i = 0; i < 60 && !printed; i++) await commitOne();
    const first = JSON.parse(await f.first) as { id: number };
    assert.ok(first.id > newest, `torana events --follow printed ${first.id} first, newer than ${newest}`);
    const firstOf = async (args: string[]) => {
      const r = await runCli(['events', ...args, ...common]);
      assert.equal(r.code, 0, r.err);
      return (JSON.parse(r.out.split('\n')[0]!) as { id: number }).id;
    };
    assert.equal(await firstOf(['--since', 'genesis']), history[0]!.id);
    assert.equal(await firstOf(['--since', String(history[1]!.id)]), history[2]!.id);
  });

  it('JSON.stringify of an SDK event is the data the gateway sent (hashes as hex)', async () => {
    const tx = history.find((i) => i.event.kind === 'Transaction')!;
    const raw = await fetch(`${t.url}/v1/events/sse`, { headers: { 'last-event-id': '0' } });
    const reader = raw.body!.getReader();
    let text = '';
    const frame = new RegExp(`id: ${tx.id}\\nevent: [^\\n]*\\ndata: ([^\\n]*)\\n`);
    while (!frame.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const sent = JSON.parse(frame.exec(text)![1]!);
    const printed = JSON.stringify(tx.event);
    assert.doesNotMatch(printed, /"0":/);
    assert.deepEqual(JSON.parse(printed), sent);
    assert.equal(JSON.parse(printed).hash, toHex((tx.event as Extract<Event, { kind: 'Transaction' }>).hash));
    // The decoded value itself is unchanged: `toJSON` is not an own enumerable field.
    assert.ok(tx.event.kind === 'Transaction' && tx.event.hash instanceof Uint8Array);
    assert.equal(Object.keys(tx.event).includes('toJSON'), false);
  });
});
