import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Registry } from './registry.js';
import { WebhookStore } from './store.js';

const LIMITS = {
  webhooksMax: 10,
  perOwnerMax: 5,
  queuePerWebhookMax: 3,
  queueTotalMax: 4,
  queuePerOwnerMax: 100,
  deadLettersPerWebhookMax: 2,
  recentPerWebhookMax: 2,
};
const record = (id: string, owner = 'o') => ({
  id,
  url: 'http://127.0.0.1:9/h',
  active: true,
  filter: null,
  owner,
  createdMs: 0,
  fromEventId: 0,
  lastDeliveredEventId: 0,
  dropped: 0,
});

describe('webhook registry', () => {
  const dirs: string[] = [];
  after(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });
  const open = async (dir?: string, limits = LIMITS) => {
    const d = dir ?? (await mkdtemp(join(tmpdir(), 'torana-hooks-')));
    if (dir === undefined) dirs.push(d);
    const store = await WebhookStore.open(d, { fsync: false });
    return { dir: d, store, reg: new Registry(store, limits, () => () => true) };
  };

  it("bounds each queue; a full total sheds the biggest owner's oldest delivery, not the newcomer", async () => {
    const { store, reg } = await open();
    const shed: string[] = [];
    reg.onShed = (r) => shed.push(r);
    const a = reg.add(record('a', 'A'));
    const b = reg.add(record('b', 'B'));
    const outcomes = [1, 2, 3, 4].map((id) => reg.enqueue(a, id, '{}', 0));
    assert.deepEqual(outcomes, ['queued', 'queued', 'queued', 'dropped']);
    // The total (4) fills with B's first event; B's second sheds A's oldest (A holds the most).
    assert.deepEqual([reg.enqueue(b, 5, '{}', 0), reg.enqueue(b, 6, '{}', 0)], ['queued', 'queued']);
    assert.deepEqual(
      [a.pending.map((d) => d.eventId), b.pending.map((d) => d.eventId), a.dead.map((d) => d.eventId)],
      [[2, 3], [5, 6], [1]],
    );
    assert.deepEqual([a.record.dropped, b.record.dropped, reg.queued, shed], [1, 0, 4, ['total']]);
    await store.write();
    await store.close();
  });

  it("an owner over its share loses its own oldest pending delivery (not handed out), never another's", async () => {
    const { store, reg } = await open(undefined, {
      ...LIMITS,
      queuePerWebhookMax: 100,
      queueTotalMax: 100,
      queuePerOwnerMax: 3,
    });
    const shed: string[] = [];
    reg.onShed = (r) => shed.push(r);
    // One key under two domains is one owner; the operator is another.
    const key = 'ed0120EDF6D7B52C7032D03AEC696F2068BD53101528F3C7B6081BFF05A1662D7FC245';
    const a1 = reg.add(record('a1', `${key}@one`));
    const a2 = reg.add(record('a2', `${key}@two`));
    const op = reg.add(record('op', 'operator'));
    assert.equal(reg.ownedBy(key), 2);
    for (const [h, e] of [
      [a1, 1],
      [a2, 2],
      [a1, 3],
    ] as const)
      reg.enqueue(h, e, '{}', 0);
    reg.enqueue(op, 100, '{}', 0);
    a1.dispatched = 1; // event 1 is in flight at its lane: it stays
    assert.equal(reg.enqueue(a2, 4, '{}', 0), 'queued');
    assert.deepEqual(
      [a1.pending.map((d) => d.eventId), a2.pending.map((d) => d.eventId), a2.dead.map((d) => d.eventId)],
      [[1, 3], [4], [2]],
    );
    assert.deepEqual(
      [reg.pendingOf(key), reg.pendingOf('operator'), op.pending.length, shed],
      [3, 1, 1, ['owner_share']],
    );
    reg.remove('a1');
    assert.equal(reg.pendingOf(key), 1);
    await store.write();
    await store.close();
  });

  it('keeps order, bounds the recent and dead lists, replays with the same id, and reloads it all', async () => {
    const { dir, store, reg } = await open();
    const h = reg.add(record('h'));
    for (const id of [1, 2, 3]) reg.enqueue(h, id, `{"id":${id}}`, 0);
    const [d1, d2, d3] = h.pending;
    reg.delivered(h, d1!, 204, 1);
    reg.failed(h, d2!, 'timeout', undefined, 50);
    assert.equal(h.pending[0], d2);
    reg.failed(h, d2!, 'timeout', undefined);
    reg.failed(h, d3!, 'status 500', 500);
    assert.deepEqual(
      [h.pending.length, h.dead.map((d) => d.eventId), h.record.lastDeliveredEventId],
      [0, [2, 3], 1],
    );
    const again = reg.replay(h, d2!.id, 9);
    assert.equal(again?.id, d2!.id);
    assert.deepEqual([again?.state, again?.attempts, h.pending.length, h.dead.length], ['pending', 0, 1, 1]);
    assert.equal(reg.replay(h, 'nope', 9), undefined);
    for (const id of [4, 5, 6]) {
      reg.enqueue(h, id, '{}', 0);
      reg.delivered(h, h.pending.at(-1)!, 200, 2);
    }
    assert.deepEqual(
      h.recent.map((d) => d.eventId),
      [5, 6],
    );
    await store.write();
    await store.close();
    const back = await open(dir);
    const h2 = back.reg.hooks.get('h')!;
    assert.deepEqual(
      [h2.pending.map((d) => d.id), h2.dead.map((d) => d.eventId), h2.recent.map((d) => d.eventId)],
      [[d2!.id], [3], [5, 6]],
    );
    back.reg.remove('h');
    await back.store.write();
    assert.equal(back.store.loadDeliveries().length, 0);
    await back.store.close();
  });

  it('rotates a secret with an overlap, drops the old one after it, and keeps that on disk', async () => {
    const { dir, store, reg } = await open();
    const h = reg.add({ ...record('r'), secret: 'one' });
    reg.rotateSecret(h, 'two', 500, 1000);
    assert.deepEqual(
      [h.record.secret, h.record.previousSecret, h.record.previousSecretUntilMs, h.record.secretRotatedMs],
      ['two', 'one', 1500, 1000],
    );
    reg.dropExpiredSecret(h, 1499);
    assert.equal(h.record.previousSecret, 'one');
    await store.write();
    await store.close();
    const back = await open(dir);
    const h2 = back.reg.hooks.get('r')!;
    assert.deepEqual([h2.record.secret, h2.record.previousSecret], ['two', 'one']);
    back.reg.dropExpiredSecret(h2, 1500);
    assert.deepEqual([h2.record.previousSecret, h2.record.previousSecretUntilMs], [undefined, undefined]);
    // No overlap, or no secret before: nothing old is kept.
    back.reg.rotateSecret(h2, 'three', 0, 2000);
    assert.deepEqual([h2.record.secret, h2.record.previousSecret], ['three', undefined]);
    await back.store.write();
    await back.store.close();
  });

  it('queues a test delivery at the end of the queue whatever the filter, with event id 0', async () => {
    const { store, reg } = await open(undefined, LIMITS);
    const h = reg.add({ ...record('t'), active: false });
    reg.enqueue(h, 7, '{}', 0);
    const d = reg.enqueueTest(h, 42)!;
    assert.deepEqual(
      h.pending.map((x) => x.eventId),
      [7, 0],
    );
    assert.deepEqual(JSON.parse(d.body), {
      id: 0,
      event: { kind: 'webhook.test', webhook_id: 't', requested_ms: 42 },
    });
    reg.enqueueTest(h, 43);
    // The queue (3) is full: the next test is not queued.
    assert.equal(reg.enqueueTest(h, 44), undefined);
    await store.write();
    await store.close();
  });
});
