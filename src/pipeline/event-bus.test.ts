import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Event } from '../model/events.js';
import { EventBus } from './event-bus.js';
import { APPLIED_POSITION, appliedEventId, committedEventId, ID_SPAN, PENDING_BASE } from './event-id.js';

const blockEv = (height: number, kind: 'Committed' | 'Applied'): Event => ({
  kind: 'Block',
  height,
  hash: new Uint8Array(32),
  status: { kind },
});
const queued: Event = { kind: 'Transaction', hash: new Uint8Array(32), status: { kind: 'Queued' } };
/** A block's events as the pipeline publishes them: Committed, `middle` others, Applied. */
const block = (height: number, middle = 1): Event[] => [
  blockEv(height, 'Committed'),
  ...Array.from({ length: middle }, () => queued),
  blockEv(height, 'Applied'),
];
const ids = (r: { id: number }[] | 'gone') => (r === 'gone' ? r : r.map((e) => e.id));

describe('event bus', () => {
  it('numbers committed events by height and position, pending ones after their block', () => {
    const bus = new EventBus(100);
    const seen: number[] = [];
    const off = bus.subscribe((e) => seen.push(e.id));
    bus.publishPending(queued);
    bus.publishBlock(1, block(1, 2));
    bus.publishPending(queued);
    bus.publishPending(queued);
    bus.publishBlock(2, block(2, 0));
    off();
    assert.deepEqual(seen, [
      PENDING_BASE,
      ID_SPAN,
      ID_SPAN + 1,
      ID_SPAN + 2,
      ID_SPAN + APPLIED_POSITION,
      ID_SPAN + PENDING_BASE,
      ID_SPAN + PENDING_BASE + 1,
      2 * ID_SPAN,
      2 * ID_SPAN + APPLIED_POSITION,
    ]);
    assert.deepEqual(
      [...seen].sort((a, b) => a - b),
      seen,
      'ids only grow',
    );
    assert.equal(bus.lastId(), appliedEventId(2));
  });

  it('after a restart: the same ids, resumption from the last block announced, older ids gone', () => {
    const before = new EventBus(100);
    for (let h = 1; h <= 3; h++) before.publishBlock(h, block(h));
    before.publishPending(queued);
    const seenBefore = ids(before.since(0));
    // The restarted node (tip 3) publishes blocks 4 and 5: a client that had everything up to block 3
    // gets exactly those, with the ids an uninterrupted node would have given them.
    const after = new EventBus(100, 3);
    assert.equal(after.lastId(), appliedEventId(3));
    after.publishPending(queued);
    after.publishBlock(4, block(4));
    after.publishBlock(5, block(5));
    const uninterrupted = new EventBus(100);
    for (let h = 1; h <= 5; h++) uninterrupted.publishBlock(h, block(h));
    const committedAfter3 = (ids(uninterrupted.since(appliedEventId(3))) as number[]).filter(
      (id) => id > appliedEventId(3),
    );
    assert.deepEqual(
      (ids(after.since(appliedEventId(3))) as number[]).filter((id) => id % ID_SPAN < PENDING_BASE),
      committedAfter3,
    );
    // Resuming from the previous run's pending notification after block 3: every committed event
    // follows (pending ids are numbered per run, so this run's first one, with the same id, is not).
    const lastSeen = (seenBefore as number[]).at(-1)!;
    assert.equal(lastSeen, 3 * ID_SPAN + PENDING_BASE);
    assert.deepEqual(ids(after.since(lastSeen)), committedAfter3);
    // An id of the previous run's pending span that this run has not reached, while the tip is still
    // 3: this run's pending notifications follow.
    const fresh = new EventBus(100, 3);
    fresh.publishPending(queued);
    assert.deepEqual(ids(fresh.since(lastSeen + 5)), [lastSeen]);
    assert.equal(after.since(committedEventId(3, 1)), 'gone', 'mid-block 3: its rest is not held');
    assert.equal(after.since(appliedEventId(2)), 'gone', 'announced by the previous run');
    assert.equal(after.since(appliedEventId(9)), 'gone', 'a height this chain has not reached');
  });

  it('replays from history and reports gone when pruned', () => {
    const bus = new EventBus(10);
    for (let h = 1; h <= 25; h++) bus.publishBlock(h, [blockEv(h, 'Applied')]);
    assert.deepEqual(ids(bus.since(appliedEventId(20))), [21, 22, 23, 24, 25].map(appliedEventId));
    assert.equal(bus.since(appliedEventId(5)), 'gone');
    assert.deepEqual(ids(bus.since(appliedEventId(25))), []);
    assert.deepEqual((ids(bus.since(appliedEventId(15))) as number[])[0], appliedEventId(16));
  });

  it('keeps memory bounded over many events', () => {
    const bus = new EventBus(1000);
    for (let h = 1; h <= 500; h++) bus.publishBlock(h, block(h, 98));
    const all = bus.since(appliedEventId(490));
    assert.ok(Array.isArray(all) && all.length === 1000);
    assert.equal(bus.since(appliedEventId(489)), 'gone');
  });
});
