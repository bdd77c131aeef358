import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Event } from '../model/events.js';
import { EventBus } from './event-bus.js';

const ev = (height: number): Event => ({
  kind: 'Block',
  height,
  hash: new Uint8Array(32),
  status: { kind: 'Committed' },
});

describe('event bus', () => {
  it('assigns increasing ids and delivers in order', () => {
    const bus = new EventBus(100);
    const seen: number[] = [];
    const off = bus.subscribe((e) => seen.push(e.id));
    for (let i = 1; i <= 5; i++) bus.publish(ev(i));
    off();
    bus.publish(ev(6));
    assert.deepEqual(seen, [1, 2, 3, 4, 5]);
    assert.equal(bus.lastId(), 6);
  });

  it('replays from history and reports gone when pruned', () => {
    const bus = new EventBus(10);
    for (let i = 1; i <= 25; i++) bus.publish(ev(i));
    const since = bus.since(20);
    assert.ok(Array.isArray(since));
    assert.deepEqual(
      (since as { id: number }[]).map((e) => e.id),
      [21, 22, 23, 24, 25],
    );
    assert.equal(bus.since(5), 'gone');
    assert.deepEqual(bus.since(25), []);
    assert.deepEqual((bus.since(15) as { id: number }[]).map((e) => e.id)[0], 16);
  });

  it('keeps memory bounded over many events', () => {
    const bus = new EventBus(1000);
    for (let i = 1; i <= 50_000; i++) bus.publish(ev(i));
    const all = bus.since(49_000);
    assert.ok(Array.isArray(all) && all.length === 1000);
    assert.equal(bus.since(48_999), 'gone');
  });
});
