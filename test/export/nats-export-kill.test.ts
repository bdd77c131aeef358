// `torana export --nats` killed with SIGKILL in the middle of a burst of events, restarted, and run next
// to a second exporter on the same stream: a consumer still reads every committed event exactly once, in
// id order. The restarted exporter resumes from the stream's last message (no local state); the two
// exporters publish the same events, and JetStream keeps one of each by its Nats-Msg-Id (the event id).
// Integration tier (scripts/test-tiers.json): three exporter processes and a node.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { run } from '../helpers/node.js';
import { newAccount } from '../helpers/tx.js';
import {
  type Exporter,
  type ExportFixture,
  following,
  idOf,
  sleep,
  startExportFixture,
  WAIT_MS,
} from './export-fixture.js';

/** `n` transactions submitted at once (so blocks carry many events), each a domain and two accounts. */
async function burst(f: ExportFixture, tag: string, n: number): Promise<void> {
  const results = await Promise.all(
    Array.from({ length: n }, (_, i) => {
      const domain = `${tag}${i}`;
      return run(f.t, f.t.admin, [
        { kind: 'RegisterDomain', id: domain, metadata: new Map() },
        { kind: 'RegisterAccount', id: newAccount(domain).id, metadata: new Map() },
        { kind: 'RegisterAccount', id: newAccount(domain).id, metadata: new Map() },
      ]);
    }),
  );
  for (const r of results) assert.equal(r.status.kind, 'Committed');
}

async function stopped(e: Exporter): Promise<{ published: number; held: number }> {
  e.child.kill('SIGTERM');
  assert.deepEqual(await e.exited, { code: 0, signal: null }, e.err());
  const m = /export: stopped: (\d+) published, (\d+) already held/.exec(e.err());
  assert.ok(m, e.err());
  return { published: Number(m[1]), held: Number(m[2]) };
}

describe('torana export --nats across kill -9', () => {
  let f: ExportFixture;
  before(async () => {
    f = await startExportFixture();
  });
  after(async () => f?.stop());

  it('resumes after SIGKILL and, next to a second exporter, still leaves every event exactly once', async (ctx) => {
    // One acknowledgement at a time: the exporter trails a burst long enough to be killed inside it.
    const args = ['--stream', 'K', '--in-flight-max', '1'];
    const first = f.exporter(args);
    await burst(f, 'warm', 2);
    await f.caughtUp('K', [first]);
    let killedAt: number | undefined;
    for (let round = 0; round < 5 && killedAt === undefined; round++) {
      const before = await f.lastId('K');
      const committing = burst(f, `b${round}x`, 30);
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        const last = await f.lastId('K');
        const target = f.committed().at(-1)!.id;
        if (last > before && last < target) {
          first.child.kill('SIGKILL');
          killedAt = last;
          break;
        }
        if (last === target && (await Promise.race([committing.then(() => true), sleep(0)]))) break;
        assert.ok(Date.now() < deadline, first.err());
        await sleep(10);
      }
      await committing;
    }
    assert.ok(killedAt !== undefined, 'the exporter was killed with events still to publish');
    assert.deepEqual(await first.exited, { code: null, signal: 'SIGKILL' });
    assert.ok((await f.lastId('K')) < f.committed().at(-1)!.id, 'events the killed exporter never published');

    // More events while no exporter runs, then the restarted one and a second one together.
    await burst(f, 'gap', 10);
    const restarted = f.exporter(args);
    const second = f.exporter(['--stream', 'K', '--in-flight-max', '64']);
    await f.caughtUp('K', [restarted, second]);
    // Live events once both follow the node: both exporters publish each of them.
    await following(restarted);
    await following(second);
    await burst(f, 'live', 10);
    await f.caughtUp('K', [restarted, second]);

    const resumedFrom = /stream K holds events up to (\d+); resuming after it/.exec(restarted.err());
    assert.ok(resumedFrom, restarted.err());
    assert.ok(Number(resumedFrom[1]) >= killedAt, 'resumed from what the stream held, not from the start');
    const a = await stopped(restarted);
    const b = await stopped(second);

    const node = f.committed().map((e) => e.id);
    const read = (await f.readAll('K', 'torana.torana-test.events.>')).map(idOf);
    const seen = new Set<number>();
    const repeated = read.filter((id) => seen.has(id) || !seen.add(id));
    assert.deepEqual(repeated, [], 'no event twice');
    assert.deepEqual(read, node, 'every committed event, in id order');
    assert.ok(a.held + b.held > 0, `the exporters overlapped: ${JSON.stringify({ a, b })}`);
    ctx.diagnostic(
      `${node.length} events; killed at ${killedAt}; resumed after ${resumedFrom[1]}; ` +
        `restarted ${a.published} published / ${a.held} held, second ${b.published} / ${b.held}`,
    );
  });
});
