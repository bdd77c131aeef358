import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TelemetryPort } from './port.js';
import { PropagationTracker } from './tracker.js';

/** A port over a chain of `created` creation times (height h at index h - 1); header reads resolve when told. */
function fakePort(created: number[]) {
  let height = created.length;
  let now = 10_000;
  const listeners = new Set<(h: number) => void>();
  const reads: { height: number; release: () => void }[] = [];
  const port: TelemetryPort = {
    self: () => ({
      peerId: 'me',
      url: 'http://x',
      chainId: 'c',
      role: 'validator',
      consensus: 'single-peer',
    }),
    peers: () => [],
    height: () => height,
    blockCreatedAtMs: (h) =>
      new Promise((resolve) => reads.push({ height: h, release: () => resolve(created[h - 1]) })),
    onBlockCommitted: (fn) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    nowMs: () => now,
  };
  return {
    port,
    listeners,
    /** Lets the oldest header read (asked for on a later turn) resolve. */
    async release() {
      while (reads.length === 0) await new Promise((r) => setImmediate(r));
      reads.shift()!.release();
    },
    commit(createdAt: number, at: number) {
      created.push(createdAt);
      height = created.length;
      now = at;
      for (const l of listeners) l(height);
    },
  };
}

describe('PropagationTracker', () => {
  it('reports the tip without a commit time, then each commit with this node as the only report', async () => {
    const f = fakePort([100, 200]);
    const t = new PropagationTracker(f.port, (e) => assert.fail(String(e)));
    assert.deepEqual(t.propagation(), { block: 0, peersReported: 0, reports: [] });
    t.start();
    await f.release();
    await t.settled();
    assert.deepEqual(t.propagation(), { block: 2, firstSeenAtMs: 200, peersReported: 0, reports: [] });
    f.commit(1_000, 1_250);
    await f.release();
    await t.settled();
    assert.deepEqual(t.propagation(), {
      block: 3,
      firstSeenAtMs: 1_000,
      lastSeenAtMs: 1_250,
      spreadMs: 250,
      peersReported: 0,
      reports: [{ peerId: 'me', committedAtMs: 1_250 }],
    });
    t.stop();
    assert.equal(f.listeners.size, 0);
  });

  it('keeps commit order when header reads are slow, and a proposer clock ahead gives a negative spread', async () => {
    const f = fakePort([100]);
    const t = new PropagationTracker(f.port, (e) => assert.fail(String(e)));
    t.start();
    f.commit(2_000, 1_990);
    f.commit(2_100, 2_150);
    // Reads run one after the other: release them as they are asked for.
    for (let i = 0; i < 3; i++) await f.release();
    await t.settled();
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
      { ...f.port, blockCreatedAtMs: async () => Promise.reject(new Error('io')) },
      (e) => errors.push(e),
    );
    t.start();
    await t.settled();
    assert.equal(errors.length, 1);
    assert.equal(t.propagation().block, 0);
  });
});
