import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fakeHash, fakeTelemetryPort as fakePort } from '../../../test/helpers/telemetry-port.js';
import { PeerReports } from './peer-reports.js';
import { encodeReport } from './report-codec.js';
import { PropagationTracker } from './tracker.js';

describe('PropagationTracker', () => {
  it('reports the tip without a commit time, then each commit with this node as the only report', async () => {
    const f = fakePort([100, 200]);
    const t = new PropagationTracker(f.port, (e) => assert.fail(String(e)));
    assert.deepEqual(t.propagation(), { block: 0, peersReported: 0, reports: [] });
    t.start();
    await f.release();
    await t.settled();
    assert.deepEqual(t.propagation(), {
      block: 2,
      hash: fakeHash(2),
      firstSeenAtMs: 200,
      peersReported: 0,
      reports: [],
    });
    f.commit(1_000, 1_250);
    await f.release();
    await t.settled();
    assert.deepEqual(t.propagation(), {
      block: 3,
      hash: fakeHash(3),
      firstSeenAtMs: 1_000,
      lastSeenAtMs: 1_250,
      spreadMs: 250,
      peersReported: 0,
      reports: [{ peerId: 'me', committedAtMs: 1_250 }],
    });
    t.stop();
    assert.equal(f.listeners.size, 0);
  });

  it('a burst of commits costs one read of the newest; a proposer clock ahead gives a negative spread', async () => {
    const f = fakePort([100]);
    const t = new PropagationTracker(f.port, (e) => assert.fail(String(e)));
    t.start();
    f.commit(2_000, 1_990);
    f.commit(2_100, 2_150);
    // One read at a time: the tip's, then only the newest commit's (height 2 is never read).
    await f.release();
    await f.release();
    await t.settled();
    assert.equal(f.asked(), 2);
    assert.equal(t.propagation().block, 3);
    assert.equal(t.propagation().spreadMs, 50);
    const g = fakePort([]);
    const u = new PropagationTracker(g.port, () => {});
    u.start();
    g.commit(2_000, 1_990);
    await g.release();
    await u.settled();
    assert.equal(u.propagation().spreadMs, -10);
  });

  it('a failed header read is reported and leaves the last sighting', async () => {
    const f = fakePort([100]);
    const errors: unknown[] = [];
    const t = new PropagationTracker(
      { ...f.port, blockAt: async () => Promise.reject(new Error('io')) },
      (e) => errors.push(e),
    );
    t.start();
    await t.settled();
    assert.equal(errors.length, 1);
    assert.equal(t.propagation().block, 0);
  });

  it('adds each peer whose fresh report lists the block with the same hash, with the report age', async () => {
    const peer = (id: string) => ({
      peerId: id,
      address: '',
      role: 'validator',
      connected: true,
      lastSeenMs: 1,
    });
    const f = fakePort([100], [peer('p1'), peer('p2'), peer('p3')]);
    const store = new PeerReports({ reportsMax: 2, staleMs: 5_000, minGapMs: 0 }, (id) => id.startsWith('p'));
    const t = new PropagationTracker(
      f.port,
      (e) => assert.fail(String(e)),
      (h, hash, now) => store.sightings(h, hash, now),
    );
    t.start();
    await f.release();
    f.commit(1_000, 1_040);
    await f.release();
    await t.settled();
    const report = (blocks: { height: number; hash: string; seenAtMs: number }[]) =>
      encodeReport({
        sentAtMs: 1,
        version: 'v',
        role: 'validator',
        consensus: 'bft',
        height: 2,
        queueDepth: 0,
        connectedPeers: 3,
        blocks,
      })!;
    f.setNow(1_100);
    store.receive('p1', report([{ height: 2, hash: fakeHash(2), seenAtMs: 1_090 }]), 1_100);
    // Same height, another hash (another chain's block): not a sighting of this one.
    store.receive('p2', report([{ height: 2, hash: fakeHash(9), seenAtMs: 1_020 }]), 1_100);
    store.receive('p3', report([{ height: 1, hash: fakeHash(1), seenAtMs: 150 }]), 1_100);
    f.setNow(1_300);
    assert.deepEqual(t.propagation(), {
      block: 2,
      hash: fakeHash(2),
      firstSeenAtMs: 1_000,
      lastSeenAtMs: 1_090,
      spreadMs: 90,
      peersReported: 1,
      reports: [
        { peerId: 'me', committedAtMs: 1_040 },
        { peerId: 'p1', committedAtMs: 1_090, reportAgeMs: 200 },
      ],
    });
    // Past peer_report_stale_ms the report no longer counts.
    f.setNow(6_200);
    assert.equal(t.propagation().peersReported, 0);
    assert.equal(t.propagation().lastSeenAtMs, 1_040);
    t.stop();
  });
});
