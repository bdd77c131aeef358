// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as tick } from 'node:timers/promises';
import { decodeFrame } from '../codec/frame.js';
import { type Event, EventEnvelopeCodec } from '../model/events.js';
import { createSchemaRegistry } from '../model/schema.js';
import { EventBus } from '../pipeline/event-bus.js';
import { appliedEventId } from '../pipeline/event-id.js';
import { EventHub, type SharedBatch, type SharedEvent } from './event-hub.js';
import { formatEvent } from './sse-frame.js';
import { encodeWsFrame, WS_OPCODE } from './ws-frame.js';

const schema = createSchemaRegistry();
const block = (height: number, status: 'Applied' | 'Committed' = 'Applied'): Event => ({
  kind: 'Block',
  height,
  hash: new Uint8Array(32).fill(height),
  status: { kind: status },
});

/** Height h's only event (its Block Applied) has the id appliedEventId(h). */
const id = appliedEventId;

function setup(historyMax = 100) {
  const bus = new EventBus(historyMax);
  const errors: unknown[] = [];
  return { bus, errors, hub: new EventHub(bus, schema, (e) => errors.push(e)) };
}

const evenHeights = { key: 'even', keep: (e: { data: unknown }) => isEven(e) };
function isEven(e: { data: unknown }): boolean {
  return ((e as SharedEvent).fields.block_height ?? 1) % 2 === 0;
}

describe('EventHub', () => {
  it('subscribes to the bus once, only while it has subscribers, and wraps each event once', async () => {
    const { bus, hub } = setup();
    const a: SharedBatch[] = [];
    const b: SharedBatch[] = [];
    const offA = hub.subscribe((x) => a.push(x));
    const offB = hub.subscribe((x) => b.push(x));
    assert.equal(bus.subscriberCount, 1);
    bus.publishBlock(1, [block(1)]);
    assert.equal(a.length, 0, 'delivery waits until the commit path has returned');
    await tick();
    const e = a[0]!.events[0]!;
    assert.equal(e, b[0]!.events[0], 'one shared object for every subscriber');
    assert.equal(e.frame, formatEvent({ id: id(1), name: 'block', data: e.data }));
    assert.equal(e.codecFrame(), b[0]!.events[0]!.codecFrame());
    const decoded = decodeFrame(schema, EventEnvelopeCodec, e.codecFrame(), {
      bytesMax: 1 << 16,
      itemsMax: 16,
      depthMax: 16,
    });
    assert.ok(decoded.ok && decoded.value.id === id(1) && decoded.value.event.kind === 'Block');
    assert.deepEqual(JSON.parse(e.jsonText()), { id: id(1), event: e.data });
    assert.deepEqual(e.wsFrame(false), encodeWsFrame(WS_OPCODE.text, Buffer.from(e.jsonText())));
    offA();
    offB();
    assert.equal(bus.subscriberCount, 0);
  });

  it('one filter run per group and event; the group shares one batch and its bytes; order kept', async () => {
    const { bus, hub } = setup();
    const got = Array.from({ length: 50 }, () => [] as SharedBatch[]);
    for (const list of got) hub.subscribe((x) => list.push(x), evenHeights);
    const all: SharedBatch[] = [];
    hub.subscribe((x) => all.push(x));
    for (let h = 1; h <= 6; h++) bus.publishBlock(h, [block(h)]);
    await tick();
    assert.equal(hub.stats.filterRuns, 12, '6 events × 2 groups, not × 51 subscribers');
    assert.equal(hub.stats.batches, 2);
    for (const list of got) {
      assert.equal(list.length, 1);
      assert.equal(list[0], got[0]![0], 'the same batch object for the whole group');
      assert.deepEqual(
        list[0]!.events.map((e) => e.id),
        [id(2), id(4), id(6)],
      );
    }
    const batch = got[0]![0]!;
    assert.equal(batch.sseBytes(), batch.sseBytes(), 'built once');
    assert.equal(batch.sseBytes().toString(), batch.events.map((e) => e.frame).join(''));
    assert.equal(
      batch.sseChunk().toString(),
      `${batch.sseBytes().length.toString(16)}\r\n${batch.sseBytes()}\r\n`,
    );
    assert.deepEqual(batch.wsFrames(true), Buffer.concat(batch.events.map((e) => e.wsFrame(true))));
    assert.deepEqual(
      all[0]!.events.map((e) => e.fields.block_height),
      [1, 2, 3, 4, 5, 6],
    );
  });

  it('different filters each get only their events; an unkeyed filter is never shared', async () => {
    const { bus, hub } = setup();
    const even: number[] = [];
    const odd: number[] = [];
    const committed: number[] = [];
    const heights = (into: number[]) => (b: SharedBatch) =>
      into.push(...b.events.map((e) => e.fields.block_height!));
    hub.subscribe(heights(even), evenHeights);
    hub.subscribe(heights(odd), { keep: (e) => !isEven(e) });
    hub.subscribe(heights(committed), {
      keep: (e) => (e as SharedEvent).fields.block_status === 'Committed',
    });
    for (let h = 1; h <= 4; h++) bus.publishBlock(h, [block(h, 'Committed'), block(h)]);
    await tick();
    assert.deepEqual(even, [2, 2, 4, 4]);
    assert.deepEqual(odd, [1, 1, 3, 3]);
    assert.deepEqual(committed, [1, 2, 3, 4]);
    assert.equal(hub.stats.filterRuns, 24, '8 events × 3 groups');
  });

  it('a throwing subscriber or filter is reported and does not stop the others or the bus', async () => {
    const { bus, hub, errors } = setup();
    const got: number[] = [];
    hub.subscribe(() => {
      throw new Error('boom');
    });
    hub.subscribe(() => {}, {
      keep: () => {
        throw new Error('bad filter');
      },
    });
    hub.subscribe((b) => got.push(...b.events.map((e) => e.id)));
    bus.publishBlock(1, [block(1)]);
    await tick();
    bus.publishBlock(2, [block(2)]);
    await tick();
    assert.deepEqual(got, [id(1), id(2)]);
    assert.equal(errors.length, 4);
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
