// `torana export --nats` behind the node's event history: the node keeps only its
// `streams.event_history_max` most recent events (30 here). An exporter restarted after more events
// than that committed, and one starting an empty stream after the node's history moved past its first
// events (`--since 0`), stop with `error [events_gone]` (exit 1) and publish nothing: no silent gap in
// the stream. `--since now` on an empty stream is the explicit way to accept the gap.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventIdPlace } from '../../src/pipeline/event-id.js';
import { run } from '../helpers/node.js';
import { newAccount } from '../helpers/tx.js';
import {
  type Exporter,
  type ExportFixture,
  following,
  sleep,
  startExportFixture,
  WAIT_MS,
} from './export-fixture.js';

const HISTORY = 30;

describe('torana export --nats behind the node’s event history', () => {
  let f: ExportFixture;
  before(async () => {
    f = await startExportFixture({ 'streams.event_history_max': HISTORY });
  });
  after(async () => f?.stop());

  /** `n` committed transactions, each a domain and two accounts (about 4 events each, and the blocks'). */
  const burst = async (tag: string, n: number) => {
    for (let i = 0; i < n; i++) {
      const r = await run(f.t, f.t.admin, [
        { kind: 'RegisterDomain', id: `${tag}${i}`, metadata: new Map() },
        { kind: 'RegisterAccount', id: newAccount(`${tag}${i}`).id, metadata: new Map() },
        { kind: 'RegisterAccount', id: newAccount(`${tag}${i}`).id, metadata: new Map() },
      ]);
      assert.equal(r.status.kind, 'Committed');
    }
  };
  const bus = () => f.t.node.pipeline.events;
  /** The node's last committed event id after `after` (its history must still hold them). */
  const lastCommitted = (after: number) => {
    const held = bus().since(after);
    assert.ok(held !== 'gone');
    return held.filter((e) => !eventIdPlace(e.id).pending).at(-1)?.id ?? after;
  };
  const reaches = async (stream: string, id: number, e: Exporter) => {
    const deadline = Date.now() + WAIT_MS;
    while ((await f.lastId(stream)) !== id) {
      assert.ok(Date.now() < deadline, `stream ${stream} never reached event ${id}:\n${e.err()}`);
      await sleep(100);
    }
  };
  const gone = async (e: Exporter) => {
    const exit = await e.exited;
    assert.deepEqual(exit, { code: 1, signal: null }, e.err());
    assert.match(e.err(), /error \[events_gone\]: the node no longer holds the events after \d+/);
  };

  it('a restarted exporter whose next events the node no longer holds stops with events_gone', async () => {
    const start = bus().lastId();
    const first = f.exporter(['--stream', 'G']);
    await following(first);
    await burst('a', 2);
    await reaches('G', lastCommitted(start), first);
    first.child.kill('SIGTERM');
    assert.deepEqual(await first.exited, { code: 0, signal: null }, first.err());
    const held = await f.lastId('G');
    // More committed events than the node keeps, while no exporter runs.
    await burst('b', 12);
    assert.equal(bus().since(held), 'gone', 'the history moved past the stream’s last event');
    const restarted = f.exporter(['--stream', 'G']);
    await gone(restarted);
    assert.match(restarted.err(), new RegExp(`the node no longer holds the events after ${held}`));
    assert.equal(await f.lastId('G'), held, 'nothing published past the gap');
  });

  it('an empty stream from --since 0 stops with events_gone once the history lost the first events; --since now follows live', async () => {
    // One stream per chain's subjects: the earlier test's stream goes first.
    const jsm = await f.nc.jetstreamManager();
    await jsm.streams.delete('G');
    assert.equal(bus().since(0), 'gone');
    const fresh = f.exporter(['--stream', 'H']);
    await gone(fresh);
    assert.equal(await f.lastId('H'), 0, 'nothing published');
    await jsm.streams.delete('H');
    const live = f.exporter(['--stream', 'L', '--since', 'now']);
    await following(live);
    const start = bus().lastId();
    await burst('c', 1);
    await reaches('L', lastCommitted(start), live);
    live.child.kill('SIGTERM');
    assert.deepEqual(await live.exited, { code: 0, signal: null }, live.err());
  });
});
