import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DELIVERY_HEADERS, type ToLane } from './lane.js';
import { type Lanes, localLanes } from './lanes.js';
import { Registry } from './registry.js';
import type { Send, SendOutcome } from './send.js';
import { WebhookStore } from './store.js';
import { TargetChecker } from './target.js';
import { Worker } from './worker.js';

const LIMITS = {
  webhooksMax: 100,
  perOwnerMax: 100,
  queuePerWebhookMax: 10_000,
  queueTotalMax: 100_000,
  queuePerOwnerMax: 100_000,
  deadLettersPerWebhookMax: 100,
  recentPerWebhookMax: 10,
};
const record = (id: string, owner = 'o') => ({
  id,
  url: `http://127.0.0.1:9/${id}`,
  active: true,
  filter: null,
  owner,
  createdMs: 0,
  fromEventId: 0,
  lastDeliveredEventId: 0,
  dropped: 0,
});

interface Sent {
  hook: string;
  event: number;
  delivery: string;
  attempt: number;
}

/** A fake receiver: answers after a random short delay; `answer` decides each outcome. */
function fakeSend(answer: (s: Sent, concurrent: number) => SendOutcome) {
  const sent: Sent[] = [];
  let concurrent = 0;
  let concurrentMax = 0;
  const send: Send = async (_target, headers) => {
    concurrent++;
    concurrentMax = Math.max(concurrentMax, concurrent);
    const s = {
      hook: headers[DELIVERY_HEADERS.webhook]!,
      event: Number(headers[DELIVERY_HEADERS.event]),
      delivery: headers[DELIVERY_HEADERS.delivery]!,
      attempt: Number(headers[DELIVERY_HEADERS.attempt]),
    };
    await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 3)));
    concurrent--;
    sent.push(s);
    return answer(s, concurrent);
  };
  return { send, sent, concurrentMax: () => concurrentMax };
}

async function until(pred: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('webhook delivery scheduler', () => {
  const dirs: string[] = [];
  after(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  async function setup(
    send: Send,
    opts: { inFlightMax: number; windowMax: number; inFlightPerOwnerMax?: number },
  ) {
    const dir = await mkdtemp(join(tmpdir(), 'torana-hook-worker-'));
    dirs.push(dir);
    const store = await WebhookStore.open(dir, { fsync: false });
    const reg = new Registry(store, LIMITS, () => () => true);
    const targets = new TargetChecker({ allowPrivate: true, allowed: [], urlCharsMax: 2048 });
    const lanes = localLanes(targets, send, { timeoutMs: 1000, responseBytesMax: 1024 }, Date.now);
    const counts = { delivered: 0, retried: 0, dead: 0 };
    const worker = new Worker(reg, lanes, {
      attemptsMax: 3,
      retryBaseMs: 2,
      retryMaxDelayMs: 4,
      inFlightPerOwnerMax: 1_000,
      ...opts,
      nowMs: Date.now,
      random: () => 0.5,
      counted: (o) => counts[o]++,
      failed: (e) => assert.fail(String(e)),
    });
    return { store, reg, worker, counts };
  }

  it('delivers many webhooks concurrently, each in order, within the in-flight bound, failures included', async () => {
    // Every 7th first attempt fails: its webhook's later deliveries must wait for its retry.
    const f = fakeSend((s) =>
      s.attempt === 1 && s.event % 7 === 0
        ? { ok: false, status: 503, error: 'down' }
        : { ok: true, status: 204 },
    );
    const { store, reg, worker, counts } = await setup(f.send, { inFlightMax: 3, windowMax: 4 });
    const hooks = ['a', 'b', 'c', 'd', 'e'].map((id) => reg.add(record(id)));
    for (let e = 1; e <= 40; e++) for (const h of hooks) reg.enqueue(h, e, `{"id":${e}}`, 0);
    worker.wake();
    await until(() => counts.delivered === 200, 'every delivery');
    assert.ok(f.concurrentMax() <= 3, `at most 3 webhooks in flight, saw ${f.concurrentMax()}`);
    assert.ok(f.concurrentMax() >= 2, 'webhooks are delivered concurrently');
    assert.equal(counts.retried, 5 * 5);
    for (const h of hooks) {
      const seen = f.sent.filter((s) => s.hook === h.record.id);
      // Successful deliveries arrive in event order, each once; a failed one is retried before the next goes.
      const ok = seen.filter((s) => !(s.attempt === 1 && s.event % 7 === 0));
      assert.deepEqual(
        ok.map((s) => s.event),
        Array.from({ length: 40 }, (_, i) => i + 1),
      );
      const events = seen.map((s) => s.event);
      assert.deepEqual(
        events,
        [...events].sort((x, y) => x - y),
        'never a later event before an earlier one',
      );
      assert.equal(h.pending.length, 0);
      assert.equal(h.record.lastDeliveredEventId, 40);
    }
    await worker.stop();
    await store.close();
  });

  it('a dead letter lets the next delivery go; a removed webhook is not delivered to any more', async () => {
    const f = fakeSend((s) =>
      s.hook === 'a' && s.event === 2 ? { ok: false, error: 'ECONNREFUSED' } : { ok: true, status: 200 },
    );
    const { store, reg, worker, counts } = await setup(f.send, { inFlightMax: 8, windowMax: 8 });
    const a = reg.add(record('a'));
    const gone = reg.add(record('gone'));
    for (let e = 1; e <= 4; e++) reg.enqueue(a, e, '{}', 0);
    for (let e = 1; e <= 1000; e++) reg.enqueue(gone, e, '{}', 0);
    worker.wake();
    await until(() => counts.dead === 1 && a.pending.length === 0, 'the dead letter and the rest of a');
    assert.deepEqual(
      f.sent.filter((s) => s.hook === 'a').map((s) => [s.event, s.attempt]),
      [
        [1, 1],
        [2, 1],
        [2, 2],
        [2, 3],
        [3, 1],
        [4, 1],
      ],
    );
    assert.deepEqual(
      a.dead.map((d) => d.eventId),
      [2],
    );
    assert.ok(gone.pending.length > 0, 'still delivering to the other webhook');
    reg.remove('gone');
    const before = f.sent.filter((s) => s.hook === 'gone').length;
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(f.sent.filter((s) => s.hook === 'gone').length <= before + 1, 'at most the attempt in flight');
    await worker.stop();
    await store.close();
  });

  it('after the lanes are lost, every webhook starts again at its head; outcomes of the old epoch are ignored', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'torana-hook-worker-'));
    dirs.push(dir);
    const store = await WebhookStore.open(dir, { fsync: false });
    const reg = new Registry(store, LIMITS, () => () => true);
    const posted: ToLane[] = [];
    const lanes: Lanes = {
      post: (m) => posted.push(m),
      warm: () => {},
      onOutcomes: () => {},
      onLost: () => {},
      close: async () => {},
    };
    const failures: unknown[] = [];
    const worker = new Worker(reg, lanes, {
      attemptsMax: 3,
      retryBaseMs: 5,
      retryMaxDelayMs: 10,
      inFlightMax: 4,
      inFlightPerOwnerMax: 4,
      windowMax: 2,
      nowMs: Date.now,
      random: () => 0.5,
      counted: () => {},
      failed: (e) => failures.push(e),
    });
    const h = reg.add(record('a'));
    for (let e = 1; e <= 3; e++) reg.enqueue(h, e, '{}', 0);
    worker.wake();
    await until(() => posted.some((m) => m.type === 'deliver'), 'a window');
    const first = posted.find((m) => m.type === 'deliver')!;
    assert.ok(first.type === 'deliver');
    assert.deepEqual([first.epoch, first.items.map((i) => i.eventId)], [0, [1, 2]]);
    lanes.onLost(new Error('thread died'));
    assert.equal(failures.length, 1);
    // An outcome of the lost epoch arriving late records nothing.
    lanes.onOutcomes([
      { hookId: 'a', epoch: 0, deliveryId: first.items[0]!.deliveryId, ok: true, status: 204 },
    ]);
    assert.equal(h.pending.length, 3);
    await until(() => posted.filter((m) => m.type === 'deliver').length === 2, 'the window again');
    const again = posted.filter((m) => m.type === 'deliver')[1]!;
    assert.ok(again.type === 'deliver');
    assert.deepEqual([again.epoch, again.items.map((i) => i.eventId)], [1, [1, 2]]);
    lanes.onOutcomes([
      { hookId: 'a', epoch: 1, deliveryId: again.items[0]!.deliveryId, ok: true, status: 204 },
    ]);
    assert.deepEqual(
      h.pending.map((d) => d.eventId),
      [2, 3],
    );
    await worker.stop();
    await store.close();
  });

  it("one owner's hanging targets take at most in_flight_per_owner_max slots: another owner is delivered", async () => {
    // Owner A's receivers never answer (a dead target that holds the connection until the timeout).
    const hang = new Promise<SendOutcome>(() => {});
    const bSent: number[] = [];
    const send: Send = async (_target, headers) => {
      if (headers[DELIVERY_HEADERS.webhook]!.startsWith('a')) return hang;
      bSent.push(Number(headers[DELIVERY_HEADERS.event]));
      return { ok: true, status: 204 };
    };
    const { store, reg, worker } = await setup(send, {
      inFlightMax: 4,
      windowMax: 4,
      inFlightPerOwnerMax: 2,
    });
    for (let i = 0; i < 6; i++) reg.enqueue(reg.add(record(`a${i}`, 'A')), 1, '{}', 0);
    const b = reg.add(record('b', 'B'));
    for (let e = 1; e <= 5; e++) reg.enqueue(b, e, '{}', 0);
    worker.wake();
    await until(() => bSent.length === 5, "owner B's deliveries");
    assert.deepEqual(bSent, [1, 2, 3, 4, 5]);
    const aInFlight = [...reg.hooks.values()].filter((h) => h.ownerKey === 'A' && h.dispatched > 0).length;
    assert.equal(aInFlight, 2, 'owner A holds only its share of the slots');
    await store.close();
  });

  it('outcomes of attempts ending while stopping are recorded; a restart repeats only what was not', async () => {
    const f = fakeSend(() => ({ ok: true, status: 204 }));
    const first = await setup(f.send, { inFlightMax: 1, windowMax: 16 });
    const h = first.reg.add(record('a'));
    for (let e = 1; e <= 50; e++) first.reg.enqueue(h, e, '{}', 0);
    first.worker.wake();
    await until(() => f.sent.length >= 5, 'some deliveries');
    await first.worker.stop();
    const delivered = f.sent.length;
    assert.equal(h.record.lastDeliveredEventId, delivered, 'every attempt that ended is recorded');
    await first.store.close();
    // Reopen the same store: the rest is delivered after a restart, in order, nothing skipped.
    const dir = dirs.at(-1)!;
    const store = await WebhookStore.open(dir, { fsync: false });
    const reg = new Registry(store, LIMITS, () => () => true);
    assert.equal(reg.hooks.get('a')!.pending[0]!.eventId, delivered + 1);
    const targets = new TargetChecker({ allowPrivate: true, allowed: [], urlCharsMax: 2048 });
    let n = 0;
    const worker = new Worker(
      reg,
      localLanes(targets, f.send, { timeoutMs: 1000, responseBytesMax: 1 }, Date.now),
      {
        attemptsMax: 3,
        retryBaseMs: 2,
        retryMaxDelayMs: 4,
        inFlightMax: 1,
        inFlightPerOwnerMax: 1,
        windowMax: 16,
        nowMs: Date.now,
        random: () => 0.5,
        counted: () => n++,
        failed: (e) => assert.fail(String(e)),
      },
    );
    worker.wake();
    await until(() => n === 50 - delivered, 'the rest');
    assert.deepEqual(
      f.sent.map((s) => s.event),
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    await worker.stop();
    await store.close();
  });
});
