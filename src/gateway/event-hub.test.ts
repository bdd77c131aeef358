import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeFrame } from '../codec/frame.js';
import { type Event, EventEnvelopeCodec } from '../model/events.js';
import { createSchemaRegistry } from '../model/schema.js';
import { EventBus } from '../pipeline/event-bus.js';
import { appliedEventId } from '../pipeline/event-id.js';
import { EventHub, type SharedEvent } from './event-hub.js';
import { formatEvent } from './sse-frame.js';

const schema = createSchemaRegistry();
const block = (height: number): Event => ({
  kind: 'Block',
  height,
  hash: new Uint8Array(32).fill(height),
  status: { kind: 'Applied' },
});

/** Height h's only event (its Block Applied) has the id appliedEventId(h). */
const id = appliedEventId;

function setup(historyMax = 100) {
  const bus = new EventBus(historyMax);
  const errors: unknown[] = [];
  return { bus, errors, hub: new EventHub(bus, schema, (e) => errors.push(e)) };
}

describe('EventHub', () => {
  it('subscribes to the bus once, only while it has subscribers, and wraps each event once', () => {
    const { bus, hub } = setup();
    const a: SharedEvent[] = [];
    const b: SharedEvent[] = [];
    const offA = hub.subscribe((e) => a.push(e));
    const offB = hub.subscribe((e) => b.push(e));
    assert.equal(bus.subscriberCount, 1);
    bus.publishBlock(1, [block(1)]);
    assert.equal(a[0], b[0], 'one shared object for every subscriber');
    assert.equal(a[0]!.frame, formatEvent({ id: id(1), name: 'block', data: a[0]!.data }));
    assert.equal(a[0]!.codecFrame(), b[0]!.codecFrame());
    const decoded = decodeFrame(schema, EventEnvelopeCodec, a[0]!.codecFrame(), {
      bytesMax: 1 << 16,
      itemsMax: 16,
      depthMax: 16,
    });
    assert.ok(decoded.ok && decoded.value.id === id(1) && decoded.value.event.kind === 'Block');
    assert.deepEqual(JSON.parse(a[0]!.jsonText()), { id: id(1), event: a[0]!.data });
    offA();
    offB();
    assert.equal(bus.subscriberCount, 0);
  });

  it('a throwing subscriber is reported and does not stop the others or the bus', () => {
    const { bus, hub, errors } = setup();
    const got: number[] = [];
    hub.subscribe(() => {
      throw new Error('boom');
    });
    hub.subscribe((e) => got.push(e.id));
    bus.publishBlock(1, [block(1)]);
    bus.publishBlock(2, [block(2)]);
    assert.deepEqual(got, [id(1), id(2)]);
    assert.equal(errors.length, 2);
  });

  it('since: history after an id; gone when pruned or when the id was never issued', () => {
    const { bus, hub } = setup(3);
    for (let h = 1; h <= 5; h++) bus.publishBlock(h, [block(h)]);
    assert.deepEqual(
      (hub.since(id(3)) as SharedEvent[]).map((e) => [e.id, e.fields.block_height]),
      [
        [id(4), 4],
        [id(5), 5],
      ],
    );
    assert.deepEqual(hub.since(id(5)), []);
    assert.equal(hub.since(id(1)), 'gone', 'event 2 was pruned');
    assert.equal(hub.since(id(6)), 'gone', 'an id the bus never issued');
    const none = setup(0);
    none.bus.publishBlock(1, [block(1)]);
    assert.equal(none.hub.since(0), 'gone', 'no history at all cannot resume');
  });
});
